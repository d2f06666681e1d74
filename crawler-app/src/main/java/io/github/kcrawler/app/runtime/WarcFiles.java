package io.github.kcrawler.app.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** What the fetchers wrote to a WARC directory: the number of files and their total size. */
public record WarcFiles(Path dir, int files, long bytes) {
    /** Counts {@code *.warc} and {@code *.warc.gz} files under {@code dir} (none when it does not exist). */
    public static WarcFiles in(Path dir) {
        if (!Files.isDirectory(dir)) {
            return new WarcFiles(dir, 0, 0);
        }
        int files = 0;
        long bytes = 0;
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                String name = p.getFileName().toString();
                if (Files.isRegularFile(p) && (name.endsWith(".warc.gz") || name.endsWith(".warc"))) {
                    files++;
                    bytes += Files.size(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the WARC directory " + dir, e);
        }
        return new WarcFiles(dir, files, bytes);
    }

    public String describe() {
        return String.format("%,d WARC file%s (%s) in %s", files, files == 1 ? "" : "s", humanBytes(bytes), dir);
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
