package io.github.kcrawler.app.status;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses the Prometheus text exposition format (0.0.4, and the sample lines of OpenMetrics 1.0) into samples. A total
 * function: a line that does not parse is skipped and counted, never thrown on, because the text comes from a
 * network endpoint. Comments ({@code # HELP}, {@code # TYPE}, {@code # EOF}) are skipped; timestamps and exemplars
 * after the value are ignored.
 */
public final class PrometheusTextParser {
    /** Labels per sample above which the line is rejected (protects the page against absurd input). */
    static final int MAX_LABELS = 64;

    /** The samples read and the number of lines skipped as malformed. */
    public record Result(List<MetricSample> samples, int malformedLines) {
    }

    private PrometheusTextParser() {
    }

    public static Result parse(String text) {
        List<MetricSample> samples = new ArrayList<>();
        int malformed = 0;
        int start = 0;
        int n = text.length();
        while (start < n) {
            int end = text.indexOf('\n', start);
            if (end < 0) {
                end = n;
            }
            String line = text.substring(start, end).strip();
            start = end + 1;
            if (line.isEmpty() || line.charAt(0) == '#') {
                continue;
            }
            MetricSample s = parseLine(line);
            if (s == null) {
                malformed++;
            } else {
                samples.add(s);
            }
        }
        return new Result(samples, malformed);
    }

    /** One sample line, or null when it is malformed. */
    static MetricSample parseLine(String line) {
        int i = 0;
        int n = line.length();
        while (i < n && isNameChar(line.charAt(i), i == 0)) {
            i++;
        }
        if (i == 0) {
            return null;
        }
        String name = line.substring(0, i);
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < n && line.charAt(i) == '{') {
            i++;
            while (true) {
                i = skipSpaces(line, i);
                if (i >= n) {
                    return null;
                }
                if (line.charAt(i) == '}') {
                    i++;
                    break;
                }
                int keyStart = i;
                while (i < n && isNameChar(line.charAt(i), i == keyStart)) {
                    i++;
                }
                if (i == keyStart) {
                    return null;
                }
                String key = line.substring(keyStart, i);
                i = skipSpaces(line, i);
                if (i + 1 >= n || line.charAt(i) != '=' || line.charAt(i + 1) != '"') {
                    return null;
                }
                i += 2;
                StringBuilder value = new StringBuilder();
                boolean closed = false;
                while (i < n) {
                    char c = line.charAt(i++);
                    if (c == '"') {
                        closed = true;
                        break;
                    }
                    if (c == '\\') {
                        if (i >= n) {
                            return null;
                        }
                        char e = line.charAt(i++);
                        value.append(e == 'n' ? '\n' : e); // \\ and \" stand for themselves
                    } else {
                        value.append(c);
                    }
                }
                if (!closed || labels.size() >= MAX_LABELS) {
                    return null;
                }
                labels.put(key, value.toString());
                i = skipSpaces(line, i);
                if (i < n && line.charAt(i) == ',') {
                    i++;
                }
            }
        }
        if (i >= n || !Character.isWhitespace(line.charAt(i))) {
            return null;
        }
        i = skipSpaces(line, i);
        int valueEnd = i;
        while (valueEnd < n && !Character.isWhitespace(line.charAt(valueEnd))) {
            valueEnd++;
        }
        Double value = parseValue(line.substring(i, valueEnd));
        return value == null ? null : new MetricSample(name, labels, value);
    }

    private static Double parseValue(String s) {
        switch (s) {
            case "+Inf", "Inf" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-Inf" -> {
                return Double.NEGATIVE_INFINITY;
            }
            case "NaN" -> {
                return Double.NaN;
            }
            default -> {
                if (s.isEmpty() || s.length() > 64) {
                    return null;
                }
                for (int k = 0; k < s.length(); k++) { // Double.parseDouble also takes "0x1p3", "1d", "Infinity"
                    char c = s.charAt(k);
                    if (!(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) {
                        return null;
                    }
                }
                try {
                    return Double.parseDouble(s);
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
    }

    private static int skipSpaces(String s, int i) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    private static boolean isNameChar(char c, boolean first) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || !first && c >= '0' && c <= '9';
    }
}
