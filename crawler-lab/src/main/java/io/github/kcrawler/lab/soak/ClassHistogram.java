package io.github.kcrawler.lab.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A class histogram of the live heap as {@code jcmd <pid> GC.class_histogram} (or {@code jmap -histo:live}) prints
 * it — instances and bytes per class after a full collection — and the difference of two: which classes the live
 * set grew by. This is how the soak names what grows when the live set is not flat. Parsing is total: lines that
 * are not histogram rows (the pid line, the header, the total) are skipped.
 * <pre>
 *  num     #instances         #bytes  class name (module)
 * -------------------------------------------------------
 *    1:        402758      109400760  [B (java.base@17.0.15)
 * </pre>
 */
public final class ClassHistogram {
    /** One class's growth between two histograms (negative when it shrank). */
    public record Growth(String className, long bytes, long instances) {
    }

    private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");

    private final Map<String, long[]> byClass;

    private ClassHistogram(Map<String, long[]> byClass) {
        this.byClass = byClass;
    }

    public static ClassHistogram parse(List<String> lines) {
        Map<String, long[]> out = new HashMap<>();
        for (String line : lines) {
            Matcher m = ROW.matcher(line);
            if (m.find()) {
                try {
                    long instances = Long.parseLong(m.group(1));
                    long bytes = Long.parseLong(m.group(2));
                    long[] v = out.computeIfAbsent(m.group(3), k -> new long[2]);
                    v[0] += instances;
                    v[1] += bytes;
                } catch (NumberFormatException e) {
                    // a row with absurd numbers is not one the JVM wrote
                }
            }
        }
        return new ClassHistogram(out);
    }

    public static ClassHistogram read(Path file) throws IOException {
        return parse(Files.readAllLines(file, StandardCharsets.ISO_8859_1));
    }

    /** Classes in the histogram. */
    public int classes() {
        return byClass.size();
    }

    /** Bytes of all classes. */
    public long totalBytes() {
        return byClass.values().stream().mapToLong(v -> v[1]).sum();
    }

    /** The {@code limit} classes whose bytes grew most from {@code earlier} to this one, largest first. */
    public List<Growth> grownSince(ClassHistogram earlier, int limit) {
        Set<String> names = new HashSet<>(byClass.keySet());
        names.addAll(earlier.byClass.keySet());
        List<Growth> all = new ArrayList<>();
        for (String n : names) {
            long[] now = byClass.getOrDefault(n, new long[2]);
            long[] then = earlier.byClass.getOrDefault(n, new long[2]);
            if (now[1] > then[1]) {
                all.add(new Growth(n, now[1] - then[1], now[0] - then[0]));
            }
        }
        all.sort(Comparator.comparingLong(Growth::bytes).reversed().thenComparing(Growth::className));
        return List.copyOf(all.subList(0, Math.min(limit, all.size())));
    }
}
