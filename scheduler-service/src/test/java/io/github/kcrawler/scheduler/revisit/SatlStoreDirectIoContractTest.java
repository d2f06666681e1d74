package io.github.kcrawler.scheduler.revisit;

import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The contract again with O_DIRECT bucket files, in {@code target/} (a real disk; /tmp may be tmpfs, which refuses
 * O_DIRECT): aligned pages, whole-page writes and reads.
 */
class SatlStoreDirectIoContractTest extends RevisitQueueContractTest {
    @TempDir(factory = TargetDirFactory.class)
    Path targetDir;

    @Override
    RevisitQueue open(Path ignored, long startTime, long tolerance, long bufferBytes) throws IOException {
        return SatlStore.open(targetDir, startTime, new BucketStoreOptions(bufferBytes, tolerance, true));
    }

    @Override
    long toleranceUnderTest() {
        return 10;
    }

    static final class TargetDirFactory implements org.junit.jupiter.api.io.TempDirFactory {
        @Override
        public Path createTempDirectory(org.junit.jupiter.api.extension.AnnotatedElementContext element,
                                        org.junit.jupiter.api.extension.ExtensionContext context) throws IOException {
            Path base = Path.of("target", "direct-io-tests");
            java.nio.file.Files.createDirectories(base);
            return java.nio.file.Files.createTempDirectory(base, "satl");
        }
    }
}
