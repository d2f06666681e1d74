package io.github.kcrawler.dedup;

import io.github.kcrawler.common.config.KafkaSettings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Shared set-up for the dedup tests: settings whose state directory is a fresh folder under {@code target/}. */
final class DedupTestSupport {
    private DedupTestSupport() {
    }

    static Path newStateDir() {
        try {
            Path base = Path.of("target", "test-state");
            Files.createDirectories(base);
            return Files.createTempDirectory(base, "dedup-").toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static DedupConfig config(String bootstrap, String prefix, Path stateDir) {
        return DedupConfig.of(new KafkaSettings(bootstrap, prefix, 4, stateDir, Map.of()));
    }
}
