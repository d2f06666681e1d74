package io.github.kcrawler.lab.measure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link BlockCacheRocksDbConfigSetter}: the size comes from the Streams configuration, and a store opens with it. */
class BlockCacheRocksDbConfigSetterTest {
    @Test
    void aStoreOpensAndWorks_withTheConfiguredCache(@TempDir Path dir) throws Exception {
        RocksDB.loadLibrary();
        BlockCacheRocksDbConfigSetter setter = new BlockCacheRocksDbConfigSetter();
        int before = BlockCacheRocksDbConfigSetter.configured();
        try (Options options = new Options().setCreateIfMissing(true)) {
            options.setTableFormatConfig(new BlockBasedTableConfig()); // as Kafka Streams hands it over
            setter.setConfig("s", options, Map.of(BlockCacheRocksDbConfigSetter.CACHE_BYTES, " 1048576 "));
            assertThat(BlockCacheRocksDbConfigSetter.configured()).isEqualTo(before + 1);
            try (RocksDB db = RocksDB.open(options, dir.toString())) {
                db.put("k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
                db.flush(new org.rocksdb.FlushOptions().setWaitForFlush(true));
                assertThat(db.get("k".getBytes(StandardCharsets.UTF_8))).asString(StandardCharsets.UTF_8)
                        .isEqualTo("v");
                assertThat(db.getProperty("rocksdb.block-cache-capacity")).isEqualTo("1048576");
            }
            setter.close("s", options);
        }
    }

    @Test
    void aMissingOrInvalidSize_isRefused() {
        BlockCacheRocksDbConfigSetter setter = new BlockCacheRocksDbConfigSetter();
        try (Options options = new Options()) {
            options.setTableFormatConfig(new BlockBasedTableConfig());
            assertThatThrownBy(() -> setter.setConfig("s", options, Map.of()))
                    .hasMessageContaining(BlockCacheRocksDbConfigSetter.CACHE_BYTES);
            assertThatThrownBy(() -> setter.setConfig("s", options,
                    Map.of(BlockCacheRocksDbConfigSetter.CACHE_BYTES, "0"))).hasMessageContaining(">= 1");
            assertThatThrownBy(() -> setter.setConfig("s", options,
                    Map.of(BlockCacheRocksDbConfigSetter.CACHE_BYTES, "lots")))
                    .isInstanceOf(NumberFormatException.class);
        }
    }
}
