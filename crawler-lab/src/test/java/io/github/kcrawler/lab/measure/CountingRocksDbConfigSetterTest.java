package io.github.kcrawler.lab.measure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The setter's counts against a real RocksDB, opened with the options it configured, as Kafka Streams does. */
class CountingRocksDbConfigSetterTest {
    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void countsReadsWritesSeeksAndNexts_andKeepsThemAfterTheStoreCloses() throws Exception {
        RocksDB.loadLibrary();
        String store = "counting-test-" + System.nanoTime();
        Map<String, long[]> before = CountingRocksDbConfigSetter.counts();
        CountingRocksDbConfigSetter setter = new CountingRocksDbConfigSetter();
        try (Options options = new Options().setCreateIfMissing(true)) {
            setter.setConfig(store, options, Map.of());
            try (RocksDB db = RocksDB.open(options, dir.toString())) {
                db.put(b("a"), b("1"));
                db.put(b("b"), b("2"));
                db.delete(b("a"));
                db.get(b("a"));
                db.get(b("b"));
                db.get(b("c"));
                try (RocksIterator it = db.newIterator()) {
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                        it.key();
                    }
                }
                StoreOps live = StoreOps.between(before, CountingRocksDbConfigSetter.counts(), 1);
                assertThat(live.stores()).containsKey(store);
                assertThat(CountingRocksDbConfigSetter.counts().get(store)).containsExactly(3, 3, 1, 1);
            }
            setter.close(store, options);
        }
        // closed: the counts stay, and a second instance of the same store adds to them
        assertThat(CountingRocksDbConfigSetter.counts().get(store)).containsExactly(3, 3, 1, 1);
    }
}
