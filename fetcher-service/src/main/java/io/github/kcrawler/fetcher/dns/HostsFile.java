package io.github.kcrawler.fetcher.dns;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A static host → address table in {@code /etc/hosts} format ({@code ADDRESS NAME [ALIAS...]}, {@code #} comments).
 * The demo and the tests map websim's simulated hosts to 127.x.y.z through it, so those names never reach a real
 * DNS server. As in {@code /etc/hosts} the first line naming a host wins. Malformed lines are skipped and counted
 * (one warning for the file, not one per line): the file is operator input, not a reason to refuse to start.
 */
public final class HostsFile {
    private static final Logger LOG = LoggerFactory.getLogger(HostsFile.class);

    private final Map<String, InetAddress> entries;
    private final int skippedLines;

    private HostsFile(Map<String, InetAddress> entries, int skippedLines) {
        this.entries = Map.copyOf(entries);
        this.skippedLines = skippedLines;
    }

    public static HostsFile empty() {
        return new HostsFile(Map.of(), 0);
    }

    /** Reads the file; a missing or unreadable file is the operator's mistake and fails loudly. */
    public static HostsFile load(Path path) {
        try {
            HostsFile f = parse(Files.readAllLines(path, StandardCharsets.UTF_8));
            if (f.skippedLines > 0) {
                LOG.warn("hosts file {}: skipped {} malformed lines", path, f.skippedLines);
            }
            LOG.info("hosts file {}: {} host names", path, f.entries.size());
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read hosts file " + path, e);
        }
    }

    public static HostsFile parse(List<String> lines) {
        Map<String, InetAddress> map = new HashMap<>();
        int skipped = 0;
        for (String raw : lines) {
            int hash = raw.indexOf('#');
            String line = (hash >= 0 ? raw.substring(0, hash) : raw).trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] tokens = line.split("\\s+");
            InetAddress address = tokens.length >= 2 ? IpLiterals.parse(tokens[0]) : null;
            if (address == null) {
                skipped++;
                continue;
            }
            for (int i = 1; i < tokens.length; i++) {
                map.putIfAbsent(canonical(tokens[i]), address);
            }
        }
        return new HostsFile(map, skipped);
    }

    /** The address for {@code host} (case-insensitive, trailing dot ignored), or null. */
    public InetAddress lookup(String host) {
        if (entries.isEmpty() || host == null) {
            return null;
        }
        InetAddress a = entries.get(host);
        return a != null ? a : entries.get(canonical(host));
    }

    public int size() {
        return entries.size();
    }

    public int skippedLines() {
        return skippedLines;
    }

    static String canonical(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }
}
