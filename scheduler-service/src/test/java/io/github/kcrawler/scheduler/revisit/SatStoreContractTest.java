package io.github.kcrawler.scheduler.revisit;

import java.io.IOException;
import java.nio.file.Path;

class SatStoreContractTest extends RevisitQueueContractTest {
    @Override
    RevisitQueue open(Path dir, long startTime, long tolerance, long bufferBytes) throws IOException {
        return SatStore.open(dir, startTime, new BucketStoreOptions(bufferBytes, tolerance, false));
    }
}
