package io.github.kcrawler.lab.soak;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the heap after each collection from a JVM's unified GC log ({@code -Xlog:gc:file=...} or {@code -Xlog:gc*}),
 * for G1, Parallel and Serial alike. The line it reads is the one-line summary every collector writes per pause:
 * <pre>
 * [2026-11-26T04:10:09.395+0000][0.916s][info][gc          ] GC(0) Pause Young (Normal) (G1 Evacuation Pause)
 *     6M->3M(64M) 11.268ms        (one line in the log)
 * [1.499s][info][gc] GC(7) Pause Full (Allocation Failure) 60M->15M(61M) 24.893ms
 * </pre>
 * i.e. {@code Pause <kind> <before>->{after}(<capacity>) <ms>ms}; the JVM uptime comes from the {@code [1.234s]}
 * decorator (the default decorators include it; {@code -Xlog:gc:file=F:uptime} is the minimum) or from the
 * {@code [1234ms]} decorator. Everything else in a {@code gc*} log (phases, region counts, metaspace, the
 * {@code gc,start} line without sizes) is ignored. Parsing is total: a line that is not a pause summary, or is
 * truncated (the log of a running JVM ends mid-line), is skipped, never an exception.
 */
public final class GcLog {

    /** One collection pause: sizes in bytes, times in seconds of the JVM's uptime. */
    public record Pause(double uptimeSeconds, String kind, long beforeBytes, long afterBytes, long capacityBytes,
                        double pauseMs) {
    }

    private static final Pattern PAUSE = Pattern.compile(
            "\\bPause (.+?) (\\d+)([KMGT]?)->(\\d+)([KMGT]?)\\((\\d+)([KMGT]?)\\) (\\d+(?:\\.\\d+)?)ms\\s*$");
    private static final Pattern UPTIME_S = Pattern.compile("\\[(\\d+(?:\\.\\d+)?)s\\]");
    private static final Pattern UPTIME_MS = Pattern.compile("\\[(\\d+)ms\\]");
    /** Longer lines are not pause summaries (which are ~150 characters); bounds the regex work on junk. */
    private static final int MAX_LINE = 1_000;

    private GcLog() {
    }

    /** The pause summary on this line, if it is one with an uptime decorator. */
    public static Optional<Pause> parseLine(String line) {
        if (line == null || line.length() > MAX_LINE || !line.contains("Pause ")) {
            return Optional.empty();
        }
        Matcher m = PAUSE.matcher(line);
        if (!m.find()) {
            return Optional.empty();
        }
        String prefix = line.substring(0, m.start());
        double uptime;
        Matcher u = UPTIME_S.matcher(prefix);
        if (u.find()) {
            uptime = Double.parseDouble(u.group(1));
        } else {
            Matcher ms = UPTIME_MS.matcher(prefix);
            if (!ms.find()) {
                return Optional.empty();
            }
            uptime = Long.parseLong(ms.group(1)) / 1000.0;
        }
        try {
            long before = bytes(m.group(2), m.group(3));
            long after = bytes(m.group(4), m.group(5));
            long capacity = bytes(m.group(6), m.group(7));
            return Optional.of(new Pause(uptime, m.group(1).strip(), before, after, capacity,
                    Double.parseDouble(m.group(8))));
        } catch (ArithmeticException | NumberFormatException e) { // absurd sizes: not a line the JVM wrote
            return Optional.empty();
        }
    }

    /** Every pause summary in the file, in file order; an absent file has none. */
    public static List<Pause> read(Path file) throws IOException {
        List<Pause> out = new ArrayList<>();
        if (!Files.exists(file)) {
            return out;
        }
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line; (line = r.readLine()) != null; ) {
                parseLine(line).ifPresent(out::add);
            }
        } catch (java.nio.charset.MalformedInputException e) {
            // The JVM writes ASCII; a file that is not is not a GC log: what was read so far stands.
        }
        return out;
    }

    private static long bytes(String digits, String unit) {
        long n = Long.parseLong(digits);
        int shift = switch (unit) {
            case "K" -> 10;
            case "M" -> 20;
            case "G" -> 30;
            case "T" -> 40;
            default -> 0;
        };
        if (n > (Long.MAX_VALUE >> shift)) {
            throw new ArithmeticException("size overflows: " + digits + unit);
        }
        return n << shift;
    }
}
