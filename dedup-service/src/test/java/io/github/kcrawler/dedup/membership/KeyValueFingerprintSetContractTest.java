package io.github.kcrawler.dedup.membership;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.service.StreamsDefaults;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.dedup.DedupConfig;
import io.github.kcrawler.dedup.DedupTopology;
import io.github.kcrawler.dedup.store.KeyValueFingerprintSet;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The URL-seen contract for the exact fingerprint set alone over the real Streams store (RocksDB) the dedup topology
 * builds, taken from a {@link TopologyTestDriver}.
 */
class KeyValueFingerprintSetContractTest extends UrlSeenContract {
    private TopologyTestDriver driver;

    @Override
    protected UrlSeen newSeenTest() {
        try {
            Path base = Files.createDirectories(Path.of("target", "test-state"));
            DedupConfig config = DedupConfig.of(new KafkaSettings("unused:9092", "", 4,
                    Files.createTempDirectory(base, "contract-").toAbsolutePath(), Map.of()));
            driver = new TopologyTestDriver(DedupTopology.build(Topics.defaults(), config, new SimpleMeterRegistry()),
                    StreamsDefaults.properties(config.kafka(), "dedup", 1, 200));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return exactOver(new KeyValueFingerprintSet(driver.getKeyValueStore(DedupTopology.SEEN_STORE)));
    }

    @AfterEach
    void closeDriver() {
        if (driver != null) {
            driver.close();
        }
    }
}
