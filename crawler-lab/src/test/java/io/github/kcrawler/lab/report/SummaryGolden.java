package io.github.kcrawler.lab.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The byte-identical check of issue 24 for a result converted from {@code Map<String, Object>} to a record: the JSON
 * summary the record writes must be the one the map wrote (captured before the conversion, under
 * {@code src/test/resources/results-before/}) byte for byte — field names, order, nesting and number formatting —
 * except the values of the fields that are timings or depend on the machine, which are masked on both sides, and
 * the fields the conversion added on purpose, which are dropped from the new side.
 */
public final class SummaryGolden {
    private static final Pattern FIELD = Pattern.compile("^(\\s*\"([^\"]+)\" : )(.*?)(,?)$");

    private SummaryGolden() {
    }

    /** The summary captured before the conversion. */
    public static String before(String name) throws IOException {
        try (InputStream in = SummaryGolden.class.getResourceAsStream("/results-before/" + name)) {
            if (in == null) {
                throw new IOException("no captured summary " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * Asserts that {@code after} is {@code before} byte for byte once the scalar values of {@code masked} fields are
     * replaced on both sides and the scalar fields {@code added} are removed from {@code after}.
     */
    public static void assertSame(String before, String after, Set<String> masked, Set<String> added) {
        StringBuilder a = new StringBuilder();
        for (String line : after.split("\n", -1)) {
            Matcher m = FIELD.matcher(line);
            if (m.matches() && added.contains(m.group(2))) {
                assertThat(m.group(3)).as("added field %s is a scalar", m.group(2)).doesNotContain("{", "[");
                continue;
            }
            a.append(line).append('\n');
        }
        String kept = a.substring(0, a.length() - 1);
        assertThat(mask(kept, masked)).as("summary after the conversion, timings masked and %s left out", added)
                .isEqualTo(mask(before, masked));
    }

    private static String mask(String json, Set<String> masked) {
        StringBuilder out = new StringBuilder();
        String[] lines = json.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher m = FIELD.matcher(lines[i]);
            if (m.matches() && masked.contains(m.group(2)) && !m.group(3).endsWith("{") && !m.group(3).endsWith("[")) {
                out.append(m.group(1)).append("\"~\"").append(m.group(4));
            } else {
                out.append(lines[i]);
            }
            if (i + 1 < lines.length) {
                out.append('\n');
            }
        }
        return out.toString();
    }

    /**
     * For summaries that held {@code Map.of} blocks, whose field order was random per JVM: asserts that {@code after}
     * is {@code before} as a tree — every field, value and number type — with the values of the {@code masked}
     * fields (a scalar, or every value of an object) replaced on both sides, and with the same field order in every
     * object whose JSON path (e.g. {@code /pagerank}, {@code /varyB/0}) {@code orderFree} does not accept.
     */
    public static void assertSameFields(String name, String before, String after, Set<String> masked,
            java.util.function.Predicate<String> orderFree) throws IOException {
        com.fasterxml.jackson.databind.ObjectMapper mapper = io.github.kcrawler.common.serde.JsonSerde.MAPPER;
        com.fasterxml.jackson.databind.JsonNode a = mapper.readTree(after);
        com.fasterxml.jackson.databind.JsonNode b = mapper.readTree(before);
        maskTree(a, masked);
        maskTree(b, masked);
        assertThat(a).as(name).isEqualTo(b);
        sameOrder(name, "", a, b, orderFree);
    }

    private static void maskTree(com.fasterxml.jackson.databind.JsonNode node, Set<String> masked) {
        if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
            for (String k : iterable(o.fieldNames())) {
                com.fasterxml.jackson.databind.JsonNode v = o.get(k);
                if (masked.contains(k) && v instanceof com.fasterxml.jackson.databind.node.ObjectNode inner) {
                    iterable(inner.fieldNames()).forEach(f -> inner.put(f, 0));
                } else if (masked.contains(k) && !v.isContainerNode()) {
                    o.put(k, 0);
                } else {
                    maskTree(v, masked);
                }
            }
        } else if (node.isArray()) {
            node.forEach(v -> maskTree(v, masked));
        }
    }

    private static java.util.List<String> iterable(java.util.Iterator<String> it) {
        java.util.List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    private static void sameOrder(String name, String path, com.fasterxml.jackson.databind.JsonNode after,
            com.fasterxml.jackson.databind.JsonNode before, java.util.function.Predicate<String> orderFree) {
        if (after.isObject()) {
            if (!orderFree.test(path)) {
                assertThat(iterable(after.fieldNames())).as("%s: the fields of %s", name, path)
                        .isEqualTo(iterable(before.fieldNames()));
            }
            for (String k : iterable(after.fieldNames())) {
                sameOrder(name, path + "/" + k, after.get(k), before.get(k), orderFree);
            }
        } else if (after.isArray()) {
            for (int i = 0; i < after.size(); i++) {
                sameOrder(name, path + "/" + i, after.get(i), before.get(i), orderFree);
            }
        }
    }
}
