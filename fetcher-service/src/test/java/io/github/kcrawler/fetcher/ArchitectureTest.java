package io.github.kcrawler.fetcher;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Holds the module's layering (STYLE.md): each third-party library is imported by exactly one package, so it can
 * be replaced there and nowhere else.
 */
class ArchitectureTest {
    private static final Path MAIN = Path.of("src/main/java/io/github/kcrawler/fetcher");
    private static final Map<String, String> OWNER = Map.of(
            "io.netty", "http",
            "org.jsoup", "parse",
            "crawlercommons", "robots",
            "org.netpreserve", "warc");

    @Test
    void eachLibraryIsImportedOnlyByItsPackage() throws IOException {
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String pkg = MAIN.relativize(f.getParent()).toString();
                for (String line : Files.readAllLines(f)) {
                    if (!line.startsWith("import ")) {
                        continue;
                    }
                    for (Map.Entry<String, String> e : OWNER.entrySet()) {
                        if (line.contains(" " + e.getKey() + ".") && !pkg.equals(e.getValue())) {
                            violations.add(f + ": " + line);
                        }
                    }
                }
            }
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void sourceFilesStayReadable() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                assertThat(Files.readAllLines(f).size()).as(f.toString()).isLessThan(450);
            }
        }
    }
}
