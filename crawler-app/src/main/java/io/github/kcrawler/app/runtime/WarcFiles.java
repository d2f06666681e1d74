package io.github.kcrawler.app.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What the fetchers wrote to a WARC directory: the number of files (those still being written, with the suffix
 * {@code .open}, included and also counted in {@code open}) and their total size.
 */
public record WarcFiles(Path dir, int files, int open, long bytes) {
    /** Counts {@code *.warc} and {@code *.warc.gz} files under {@code dir}, open or finished (none if no dir). */
    public static WarcFiles in(Path dir) {
        if (!Files.isDirectory(dir)) {
            return new WarcFiles(dir, 0, 0, 0);
        }
        int files = 0;
        int open = 0;
        long bytes = 0;
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                String name = p.getFileName().toString();
                boolean writing = name.endsWith(".open");
                if (writing) {
                    name = name.substring(0, name.length() - ".open".length());
                }
                if (Files.isRegularFile(p) && (name.endsWith(".warc.gz") || name.endsWith(".warc"))) {
                    files++;
                    open += writing ? 1 : 0;
                    bytes += Files.size(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the WARC directory " + dir, e);
        }
        return new WarcFiles(dir, files, open, bytes);
    }

    public String describe() {
        return String.format("%,d WARC file%s (%s%s) in %s", files, files == 1 ? "" : "s", humanBytes(bytes),
                open == 0 ? "" : String.format(", %d still being written until the fetcher stops", open), dir);
    }

    static String humanBytes(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int i = 0;
        while (v >= 1024 && i < units.length - 1) {
            v /= 1024;
            i++;
        }
        return i == 0 ? bytes + " B" : String.format("%.1f %s", v, units[i]);
    }
}
