package io.github.kcrawler.scheduler.revisit;

import io.github.kcrawler.scheduler.store.RocksDbTimeKeyedStore;

import java.io.IOException;
import java.nio.file.Path;

class RocksDbTimeKeyedStoreContractTest extends RevisitQueueContractTest {
    @Override
    RevisitQueue open(Path dir, long startTime, long tolerance, long bufferBytes) throws IOException {
        // RocksDB is exact: the tolerance does not apply. Its smallest sensible cache is 1 MiB.
        return RocksDbTimeKeyedStore.open(dir, startTime, Math.max(bufferBytes, 1 << 20), false);
    }
}
