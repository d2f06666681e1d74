package io.github.kcrawler.dedup.processor;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.service.StreamsDefaults;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.dedup.DedupConfig;
import io.github.kcrawler.dedup.DedupTopology;
import io.github.kcrawler.dedup.membership.UrlSeenTiers;
import io.github.kcrawler.dedup.membership.UrlSeenTierConfig;
import io.github.kcrawler.dedup.store.KeyValueFingerprintSet;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Snapshots of the in-memory URL-seen tiers are reloaded only against the exact store state they were taken at. */
class TierSnapshotsTest {
    private static final UrlSeenTierConfig TIERS = new UrlSeenTierConfig(64, 1 << 12, 4, 0.01, 2);

    @TempDir
    Path taskDir;
    private TopologyTestDriver driver;
    private KeyValueFingerprintSet store;

    @BeforeEach
    void openStore() throws IOException {
        Path base = Files.createDirectories(Path.of("target", "test-state"));
        DedupConfig config = DedupConfig.of(new KafkaSettings("unused:9092", "", 4,
                Files.createTempDirectory(base, "snapshots-").toAbsolutePath(), Map.of()));
        driver = new TopologyTestDriver(DedupTopology.build(Topics.defaults(), config, new SimpleMeterRegistry()),
                StreamsDefaults.properties(config.kafka(), "dedup", 1, 200));
        store = new KeyValueFingerprintSet(driver.getKeyValueStore(DedupTopology.SEEN_STORE));
    }

    @AfterEach
    void closeStore() {
        driver.close();
    }

    private UrlSeenTiers warmTiers() {
        UrlSeenTiers t = UrlSeenTiers.create(TIERS, store);
        for (long fp = 1; fp <= 200; fp++) { // more than the LRU holds: evictions reach the SBFL
            assertThat(t.testAndAdd(fp)).isTrue();
        }
        return t;
    }

    @Test
    void cleanStop_thenStartOnTheSameStore_reloadsBothTiers_andClearsTheTag() {
        UrlSeenTiers before = warmTiers();
        TierSnapshots.save(before, store, taskDir, "0_0");
        assertThat(store.snapshotTag()).isPresent();

        UrlSeenTiers after = UrlSeenTiers.create(TIERS, store);
        assertThat(TierSnapshots.restore(after, store, taskDir, "0_0")).isTrue();
        assertThat(after.lru().size()).isEqualTo(64);
        assertThat(after.probe(200)).isEqualTo(UrlSeenTiers.LRU_HIT);
        assertThat(after.probe(1)).isEqualTo(UrlSeenTiers.FILTER_POSITIVE);
        assertThat(store.snapshotTag()).isEmpty();
        assertThat(taskDir.resolve(TierSnapshots.FILE)).doesNotExist();
    }

    @Test
    void storeThatMovedOnAfterTheSnapshot_startsCold() throws IOException {
        UrlSeenTiers before = warmTiers();
        TierSnapshots.save(before, store, taskDir, "0_0");
        // Another run restored the tiers, processed (here: forgot a URL) and then crashed without a new snapshot.
        UrlSeenTiers other = UrlSeenTiers.create(TIERS, store);
        assertThat(TierSnapshots.restore(other, store, taskDir, "0_0")).isTrue();
        other.forget(200);
        Files.write(taskDir.resolve(TierSnapshots.FILE), snapshotBytes(before, 42));

        UrlSeenTiers after = UrlSeenTiers.create(TIERS, store);
        assertThat(TierSnapshots.restore(after, store, taskDir, "0_0")).isFalse();
        assertThat(after.lru().size()).isZero();
        assertThat(after.testAndAdd(200)).as("forgotten URL is admitted again").isTrue();
        assertThat(taskDir.resolve(TierSnapshots.FILE)).doesNotExist();
    }

    @Test
    void tagOfAnotherSnapshot_startsCold() throws IOException {
        UrlSeenTiers before = warmTiers();
        TierSnapshots.save(before, store, taskDir, "0_0");
        Files.write(taskDir.resolve(TierSnapshots.FILE), snapshotBytes(before, 42)); // a file from another stop

        UrlSeenTiers after = UrlSeenTiers.create(TIERS, store);
        assertThat(TierSnapshots.restore(after, store, taskDir, "0_0")).isFalse();
        assertThat(after.lru().size()).isZero();
        assertThat(store.snapshotTag()).isEmpty();
    }

    @Test
    void damagedOrMissingFile_startsCold_withoutThrowing() throws IOException {
        store.setSnapshotTag(7);
        Files.write(taskDir.resolve(TierSnapshots.FILE), new byte[] {0x4B, 0x54, 0x55, 0x53, 1, 0, 0, 0, 0, 0, 0, 0, 7, 9});
        UrlSeenTiers after = UrlSeenTiers.create(TIERS, store);
        assertThat(TierSnapshots.restore(after, store, taskDir, "0_0")).isFalse();
        assertThat(after.lru().size()).isZero();

        store.setSnapshotTag(8);
        assertThat(TierSnapshots.restore(after, store, taskDir, "0_0")).isFalse();
        assertThat(store.snapshotTag()).isEmpty();
    }

    private static byte[] snapshotBytes(UrlSeenTiers t, long tag) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try {
            t.snapshotTo(out, tag);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
