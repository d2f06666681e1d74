package io.github.kcrawler.app.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Reads a hosts file ({@code IP name [name...]}, {@code #} comments) into host name → IP, first mapping wins. */
final class HostsFiles {
    private HostsFiles() {
    }

    static Map<String, String> read(Path file) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            int hash = line.indexOf('#');
            String[] parts = (hash >= 0 ? line.substring(0, hash) : line).trim().split("\\s+");
            for (int i = 1; i < parts.length; i++) {
                out.putIfAbsent(parts[i].toLowerCase(Locale.ROOT), parts[0]);
            }
        }
        return out;
    }
}
