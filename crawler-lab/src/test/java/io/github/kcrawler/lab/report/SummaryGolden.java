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
}
