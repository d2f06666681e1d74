package io.github.kcrawler.lab.dedup.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Output helpers shared by the dedup benchmarks: every result is an ordered {@code Map<String, Object>} (numbers,
 * strings, nested maps and lists), printed for a person and written as JSON for BENCHMARKS.md and CI artefacts, with
 * the machine it ran on — a figure without its machine cannot be compared.
 */
public final class BenchReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private BenchReport() {
    }

    /** Cores, OS, JVM and heap of this run. */
    public static Map<String, Object> machine() {
        Map<String, Object> m = new LinkedHashMap<>();
        Runtime rt = Runtime.getRuntime();
        m.put("cores", rt.availableProcessors());
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        m.put("maxHeapBytes", rt.maxMemory());
        m.put("cpu", cpuModel());
        return m;
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

    /** Writes the result as indented JSON, creating parent directories. */
    public static void writeJson(Map<String, Object> result, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        JSON.writeValue(file.toFile(), result);
    }

    /** Prints the top-level scalar fields, one per line, and names the nested ones. */
    public static void print(Map<String, Object> result, PrintStream out) {
        for (Map.Entry<String, Object> e : result.entrySet()) {
            Object v = e.getValue();
            if (v instanceof Map || v instanceof List) {
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
