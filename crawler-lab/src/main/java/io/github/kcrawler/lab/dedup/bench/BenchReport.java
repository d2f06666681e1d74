package io.github.kcrawler.lab.dedup.bench;

import com.fasterxml.jackson.core.type.TypeReference;
import io.github.kcrawler.common.serde.JsonSerde;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Output helpers shared by the benchmarks: a result — a typed record ({@code bench revisits}: its records in a map
 * keyed by the variants in the order asked for) — is printed for a person and written as JSON for BENCHMARKS.md and
 * CI artefacts by the lab's one serializer ({@link JsonSerde#writeIndented}), with the machine it ran on — a figure
 * without its machine cannot be compared.
 */
public final class BenchReport {
    private BenchReport() {
    }

    /**
     * The machine a result was measured on.
     *
     * @param maxHeapBytes the JVM's maximum heap
     */
    public record Machine(int cores, String os, String java, long maxHeapBytes, String cpu) {
    }

    /** Cores, OS, JVM and heap of this run. */
    public static Machine machine() {
        Runtime rt = Runtime.getRuntime();
        return new Machine(rt.availableProcessors(), System.getProperty("os.name") + " "
                + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"), rt.maxMemory(),
                cpuModel());
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
        return "unknown";
    }

    /** Writes the result (a record or a map) as indented JSON, creating parent directories. */
    public static void writeJson(Object result, Path file) throws IOException {
        JsonSerde.writeIndented(file, result);
    }

    /** Prints the top-level scalar fields of a result (a record or a map), one per line; nested ones are left out. */
    public static void print(Object result, PrintStream out) {
        Map<String, Object> fields = JsonSerde.MAPPER.convertValue(result, new TypeReference<LinkedHashMap<String,
                Object>>() { });
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            Object v = e.getValue();
            if (v instanceof Map || v instanceof List || v == null) {
                continue;
            }
            out.printf("  %-28s %s%n", e.getKey(), format(v));
        }
    }

    static String format(Object v) {
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (d != 0 && (Math.abs(d) >= 1e6 || Math.abs(d) < 1e-3)) {
                return String.format("%.4g", d);
            }
            return String.format("%.4f", d);
        }
        if (v instanceof Long || v instanceof Integer) {
            return String.format("%,d", ((Number) v).longValue());
        }
        return String.valueOf(v);
    }

    /** Rounds for JSON readability (6 significant digits). */
    static double round(double v) {
        if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) {
            return v;
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(6)).doubleValue();
    }
}
