package io.github.kcrawler.lab.revisits;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The process's I/O counters from {@code /proc/self/io} (Linux): {@code rchar}, {@code wchar}, {@code read_bytes},
 * {@code write_bytes}, ... Empty where the file does not exist or cannot be read (another OS, a restricted container):
 * the figures derived from it are then 0, never an error.
 */
final class ProcIo {
    private ProcIo() {
    }

    static Map<String, Long> read() {
        return parse(Path.of("/proc/self/io"));
    }

    static Map<String, Long> parse(Path file) {
        Map<String, Long> out = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    try {
                        out.put(line.substring(0, colon).trim(), Long.parseLong(line.substring(colon + 1).trim()));
                    } catch (NumberFormatException e) {
                        // a field this reader does not know how to read: skipped
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
        return out;
    }
}
