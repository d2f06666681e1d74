package io.github.kcrawler.common.streams;

import io.github.kcrawler.testing.Gen;
import io.github.kcrawler.testing.PropertyCheck;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.BytesDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link JournalStore} against an exact model (a sorted map), over a real RocksDB inner store: every read answers as
 * the model does, each input record (one commit in the test driver) writes at most one changelog record, and
 * replaying the changelog rebuilds the model. The restore through a real broker is in dedup's {@code DedupServiceIT}.
 */
class JournalStoreTest {
    private static final String STORE = "journal";
    private static final String APP = "journal-test";
    private static final String CHANGELOG = APP + "-" + STORE + "-changelog";

    /** Applies the operations of one input record: {@code p k v}, {@code i k v} (put if absent), {@code d k}, {@code a k v k v …}. */
    private static final class Ops implements Processor<String, String, Void, Void> {
        private KeyValueStore<Bytes, byte[]> store;

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            store = context.getStateStore(STORE);
        }

        @Override
        public void process(Record<String, String> record) {
            for (String op : record.value().split(";")) {
                String[] w = op.split(" ");
                switch (w[0]) {
                    case "p" -> store.put(key(w[1]), value(w[2]));
                    case "i" -> store.putIfAbsent(key(w[1]), value(w[2]));
                    case "d" -> store.delete(key(w[1]));
                    case "a" -> {
                        List<KeyValue<Bytes, byte[]>> all = new ArrayList<>();
                        for (int i = 1; i + 1 < w.length; i += 2) {
                            all.add(KeyValue.pair(key(w[i]), value(w[i + 1])));
                        }
                        store.putAll(all);
                    }
                    default -> throw new IllegalArgumentException(op);
                }
            }
        }
    }

    private static Bytes key(String k) {
        return Bytes.wrap(k.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] value(String v) {
        return v.equals("-") ? null : v.getBytes(StandardCharsets.UTF_8);
    }

    private static TopologyTestDriver driver(Path stateDir) {
        return driver(stateDir, false, JournalSnapshots.DEFAULTS);
    }

    private static TopologyTestDriver driver(Path stateDir, boolean caching, JournalSnapshots snapshots) {
        Topology topology = new Topology();
        topology.addSource("ops", new StringDeserializer(), new StringDeserializer(), "ops");
        topology.addProcessor("apply", Ops::new, "ops");
        JournalStoreBuilder<Bytes, byte[]> store = JournalStoreBuilder.of(Stores.persistentKeyValueStore(STORE),
                Serdes.Bytes(), Serdes.ByteArray()).withSnapshots(snapshots);
        topology.addStateStore(caching ? store.withCachingEnabled() : store, "apply");
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return new TopologyTestDriver(topology, p);
    }

    /** Snapshot settings small enough for a short history to snapshot often, in chunks of a few entries or whole. */
    private static JournalSnapshots smallSnapshots(Gen g) {
        return new JournalSnapshots(g.intIn(0, 40), g.of(0.5, 1.0, 2.0), g.of(1, 20, 60, 200, 1 << 20));
    }

    private static boolean isChunk(byte[] value) {
        return value != null && value.length > 0 && value[0] == JournalFormat.VERSION_CHUNK;
    }

    /** A chunk whose range has no end: the last of its snapshot, in the commit that completes it. */
    private static boolean isLastChunk(byte[] value) {
        if (!isChunk(value)) {
            return false;
        }
        boolean[] last = {false};
        JournalBuffer.decode(value, (from, to) -> last[0] = to == null, (k, v) -> { });
        return last[0];
    }

    private static long epochOf(byte[] key) {
        return java.nio.ByteBuffer.wrap(key, JournalFormat.MAGIC.length, Long.BYTES).getLong();
    }

    /**
     * Seeded histories, with and without Streams' record cache and with snapshot thresholds and per-commit snapshot
     * budgets small enough to snapshot often, over one commit or many: after every commit the store answers as the
     * model (point reads and a full scan, which never shows the writer's position), a commit writes at most one batch
     * besides its snapshot chunks and tombstones, and the changelog so far replays to the model of that commit as
     * written, as compaction would leave it (the last record per key, tombstones dropped) and as it may leave it
     * mid-way; so a restore at any commit, in the middle of a snapshot or not, rebuilds that commit's store. Once a
     * snapshot completes, compaction leaves only the records from its first chunk on.
     */
    @Test
    void readsAnswerAsTheModel_oneBatchPerCommit_andTheChangelogReplaysToTheModelAtEveryCommit() {
        PropertyCheck.forAll(60, g -> {
            Path dir = Files.createTempDirectory(Path.of("target"), "journal-store-");
            boolean caching = g.bool();
            JournalSnapshots snapshots = smallSnapshots(g);
            try (TopologyTestDriver driver = driver(dir, caching, snapshots)) {
                TestInputTopic<String, String> in = driver.createInputTopic("ops", new StringSerializer(),
                        new StringSerializer());
                TestOutputTopic<Bytes, byte[]> log = driver.createOutputTopic(CHANGELOG, new BytesDeserializer(),
                        new ByteArrayDeserializer());
                KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(STORE);
                TreeMap<String, String> model = new TreeMap<>();
                List<KeyValue<byte[], byte[]>> changelog = new ArrayList<>();
                int records = g.intIn(1, 80);
                for (int r = 0; r < records; r++) {
                    String ops = ops(g, model);
                    in.pipeInput("k", ops);
                    List<KeyValue<Bytes, byte[]>> written = log.readKeyValuesToList();
                    assertThat(written.stream().filter(kv -> kv.value != null && !isChunk(kv.value)))
                            .as("batches of one commit").hasSizeLessThanOrEqualTo(1);
                    long chunkBytes = written.stream().filter(kv -> isChunk(kv.value))
                            .mapToLong(kv -> kv.value.length).sum();
                    assertThat(chunkBytes).as("snapshot bytes of one commit")
                            .isLessThan(snapshots.commitBytes() + 100); // one entry more at most
                    written.forEach(kv -> changelog.add(KeyValue.pair(kv.key.get(), kv.value)));
                    for (int k = 0; k < 12; k++) {
                        byte[] v = store.get(key("k" + k));
                        assertThat(v == null ? null : new String(v, StandardCharsets.UTF_8))
                                .as("k%d after %s", k, ops).isEqualTo(model.get("k" + k));
                    }
                    assertThat(scan(store)).isEqualTo(model);
                    assertThat(replay(changelog)).as("replay of the changelog after commit %d", r).isEqualTo(model);
                    assertThat(replay(compact(changelog, null))).as("replay of the compacted changelog after commit %d",
                            r).isEqualTo(model);
                    assertThat(replay(compact(changelog, g))).as("replay of a partly compacted changelog after commit "
                            + "%d", r).isEqualTo(model);
                }
                int lastComplete = -1;
                for (int i = 0; i < changelog.size(); i++) {
                    if (isLastChunk(changelog.get(i).value)) {
                        lastComplete = i;
                    }
                }
                if (lastComplete >= 0) { // every record before that snapshot's first chunk was tombstoned by it
                    long epoch = epochOf(changelog.get(lastComplete).key);
                    int first = lastComplete;
                    for (int i = 0; i < lastComplete; i++) {
                        byte[] key = changelog.get(i).key;
                        if (JournalFormat.isJournalKey(key) && epochOf(key) == epoch) {
                            first = i;
                            break;
                        }
                    }
                    long kept = changelog.subList(first, changelog.size()).stream().filter(kv -> kv.value != null)
                            .count();
                    assertThat(compact(changelog, null)).as("records left after compaction: those of the last "
                            + "complete snapshot's epoch").hasSize((int) kept);
                }
            }
        });
    }

    /**
     * A restore at a seeded commit, often in the middle of a snapshot spread over commits: a fresh store restored
     * from the changelog so far (compacted or not, through the journal's own restore callback) answers as the model
     * of that commit; it goes on writing, continuing the snapshot where the last committed chunk ended; the whole
     * changelog then replays to the final model, compacted or not, and no journal key is ever written twice.
     */
    @Test
    void aRestoreAtAnyCommit_continuesTheSnapshot_andNoKeyIsWrittenTwice() {
        PropertyCheck.forAll(60, g -> {
            // snapshots often, each over several commits: about half the cuts fall in the middle of one
            JournalSnapshots snapshots = new JournalSnapshots(g.intIn(0, 10), g.of(0.5, 1.0), g.of(1, 10, 30));
            boolean caching = g.bool();
            TreeMap<String, String> model = new TreeMap<>();
            List<KeyValue<byte[], byte[]>> changelog = new ArrayList<>();
            int cut = g.intIn(1, 40);
            boolean midSnapshot;
            try (TopologyTestDriver first = driver(Files.createTempDirectory(Path.of("target"), "journal-store-"),
                    caching, snapshots)) {
                TestInputTopic<String, String> in = first.createInputTopic("ops", new StringSerializer(),
                        new StringSerializer());
                TestOutputTopic<Bytes, byte[]> log = first.createOutputTopic(CHANGELOG, new BytesDeserializer(),
                        new ByteArrayDeserializer());
                for (int r = 0; r < cut; r++) {
                    in.pipeInput("k", ops(g, model));
                    log.readKeyValuesToList().forEach(kv -> changelog.add(KeyValue.pair(kv.key.get(), kv.value)));
                }
                midSnapshot = ((JournalStoreBuilder.Top<?, ?>) first.getAllStateStores().get(STORE)).journal()
                        .snapshotting();
            }
            try (TopologyTestDriver second = driver(Files.createTempDirectory(Path.of("target"), "journal-store-"),
                    caching, snapshots)) {
                JournalStore journal = ((JournalStoreBuilder.Top<?, ?>) second.getAllStateStores().get(STORE))
                        .journal();
                journal.restoreAll(g.bool() ? changelog : compact(changelog, g.bool() ? null : g));
                assertThat(journal.snapshotting()).as("a snapshot under way is restored as under way")
                        .isEqualTo(midSnapshot);
                KeyValueStore<Bytes, byte[]> store = second.getKeyValueStore(STORE);
                assertThat(scan(store)).as("restored at commit %d", cut).isEqualTo(model);
                TestInputTopic<String, String> in = second.createInputTopic("ops", new StringSerializer(),
                        new StringSerializer());
                TestOutputTopic<Bytes, byte[]> log = second.createOutputTopic(CHANGELOG, new BytesDeserializer(),
                        new ByteArrayDeserializer());
                int more = g.intIn(1, 40);
                for (int r = 0; r < more; r++) {
                    in.pipeInput("k", ops(g, model));
                    log.readKeyValuesToList().forEach(kv -> changelog.add(KeyValue.pair(kv.key.get(), kv.value)));
                    assertThat(scan(store)).isEqualTo(model);
                }
            }
            assertThat(replay(changelog)).as("replay of the changelog").isEqualTo(model);
            assertThat(replay(compact(changelog, null))).as("replay of the compacted changelog").isEqualTo(model);
            assertThat(replay(compact(changelog, g))).as("replay of a partly compacted changelog").isEqualTo(model);
            assertThat(changelog.stream().filter(kv -> kv.value != null && JournalFormat.isJournalKey(kv.key))
                    .map(kv -> Bytes.wrap(kv.key)).distinct().count()).as("journal keys written twice")
                    .isEqualTo(changelog.stream().filter(kv -> kv.value != null && JournalFormat.isJournalKey(kv.key))
                            .count());
        });
    }

    /**
     * An upgrade: the store is restored from per-key records of an earlier changelog (a seeded history of puts and
     * tombstones), then runs seeded commits with snapshot thresholds small enough to snapshot. The whole changelog,
     * earlier records included, replays to the model compacted or not; and once a snapshot has been logged,
     * compaction leaves no per-key record of the earlier changelog (each was tombstoned by its delete or by the
     * snapshot), and the store is out of legacy mode.
     */
    @Test
    void afterAnUpgrade_theFirstSnapshotLeavesNoPerKeyRecordOfTheEarlierChangelog() {
        PropertyCheck.forAll(60, g -> {
            Path dir = Files.createTempDirectory(Path.of("target"), "journal-store-");
            try (TopologyTestDriver driver = driver(dir, g.bool(), smallSnapshots(g))) {
                TreeMap<String, String> model = new TreeMap<>();
                List<KeyValue<byte[], byte[]>> changelog = new ArrayList<>();
                int earlier = g.intIn(0, 30);
                for (int i = 0; i < earlier; i++) { // what Streams' per-key logging wrote before the upgrade
                    String k = "k" + g.intIn(0, 11);
                    String v = g.intIn(0, 3) == 0 ? null : "v" + g.intIn(0, 999);
                    changelog.add(KeyValue.pair(k.getBytes(StandardCharsets.UTF_8),
                            v == null ? null : v.getBytes(StandardCharsets.UTF_8)));
                    if (v == null) {
                        model.remove(k);
                    } else {
                        model.put(k, v);
                    }
                }
                JournalStore journal = ((JournalStoreBuilder.Top<?, ?>) driver.getAllStateStores().get(STORE))
                        .journal();
                journal.restoreAll(changelog);
                assertThat(journal.legacy()).as("legacy mode after restoring per-key records").isEqualTo(earlier > 0);
                KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(STORE);
                assertThat(scan(store)).isEqualTo(model);
                TestInputTopic<String, String> in = driver.createInputTopic("ops", new StringSerializer(),
                        new StringSerializer());
                TestOutputTopic<Bytes, byte[]> log = driver.createOutputTopic(CHANGELOG, new BytesDeserializer(),
                        new ByteArrayDeserializer());
                boolean snapshot = false;
                int records = g.intIn(1, 80);
                for (int r = 0; r < records; r++) {
                    in.pipeInput("k", ops(g, model));
                    for (KeyValue<Bytes, byte[]> kv : log.readKeyValuesToList()) {
                        changelog.add(KeyValue.pair(kv.key.get(), kv.value));
                        snapshot |= isLastChunk(kv.value);
                    }
                    assertThat(scan(store)).isEqualTo(model);
                }
                assertThat(replay(changelog)).as("replay of the changelog").isEqualTo(model);
                List<KeyValue<byte[], byte[]>> compacted = compact(changelog, null);
                assertThat(replay(compacted)).as("replay of the compacted changelog").isEqualTo(model);
                assertThat(replay(compact(changelog, g))).as("replay of a partly compacted changelog")
                        .isEqualTo(model);
                if (snapshot) {
                    assertThat(journal.legacy()).isFalse();
                    assertThat(compacted).as("per-key records left after the first snapshot and compaction")
                            .allSatisfy(kv -> assertThat(JournalFormat.isJournalKey(kv.key)).isTrue());
                }
            }
        });
    }

    /** IQv2 range and key queries answer as the store does, without the writer's position. */
    @Test
    void iqv2QueriesNeverSeeTheWritersPosition() throws Exception {
        try (TopologyTestDriver driver = driver(Files.createTempDirectory(Path.of("target"), "journal-store-"))) {
            TestInputTopic<String, String> in = driver.createInputTopic("ops", new StringSerializer(),
                    new StringSerializer());
            in.pipeInput("k", "p a 1;p b 2;p c 3;d b");
            JournalStore journal = ((JournalStoreBuilder.Top<?, ?>) driver.getAllStateStores().get(STORE)).journal();
            QueryResult<KeyValueIterator<Bytes, byte[]>> range = journal.query(RangeQuery.withNoBounds(),
                    PositionBound.unbounded(), new QueryConfig(false));
            assertThat(range.isSuccess()).isTrue();
            List<String> keys = new ArrayList<>();
            try (KeyValueIterator<Bytes, byte[]> it = range.getResult()) {
                it.forEachRemaining(kv -> keys.add(new String(kv.key.get(), StandardCharsets.UTF_8)));
            }
            assertThat(keys).containsExactly("a", "c");
            QueryResult<byte[]> position = journal.query(KeyQuery.withKey(JournalStore.POSITION_KEY),
                    PositionBound.unbounded(), new QueryConfig(false));
            assertThat(position.isSuccess()).isTrue();
            assertThat(position.getResult()).isNull();
            QueryResult<byte[]> c = journal.query(KeyQuery.withKey(key("c")), PositionBound.unbounded(),
                    new QueryConfig(false));
            assertThat(c.getResult()).isEqualTo(value("3"));
        }
    }

    /**
     * The changelog as the log cleaner leaves it: a record with a later one of the same key is gone, and so is a last
     * record that is a tombstone. With {@code g}, as it may leave it mid-way: each such record may be gone or not,
     * except that a tombstone outlives every earlier record of its key (Kafka's cleaner removes a tombstone only in
     * a pass after the one that removed what it deletes).
     */
    private static List<KeyValue<byte[], byte[]>> compact(List<KeyValue<byte[], byte[]>> changelog, Gen g) {
        Map<Bytes, Integer> last = new java.util.HashMap<>();
        for (int i = 0; i < changelog.size(); i++) {
            last.put(Bytes.wrap(changelog.get(i).key), i);
        }
        java.util.Set<Bytes> earlierKept = new java.util.HashSet<>();
        List<KeyValue<byte[], byte[]>> out = new ArrayList<>();
        for (int i = 0; i < changelog.size(); i++) {
            KeyValue<byte[], byte[]> r = changelog.get(i);
            Bytes key = Bytes.wrap(r.key);
            boolean superseded = last.get(key) != i;
            boolean removable = superseded || (r.value == null && !earlierKept.contains(key));
            if (!removable || (g != null && g.bool())) {
                out.add(r);
                earlierKept.add(key);
            }
        }
        return out;
    }

    private static TreeMap<String, String> scan(KeyValueStore<Bytes, byte[]> store) {
        TreeMap<String, String> seen = new TreeMap<>();
        try (var it = store.all()) {
            it.forEachRemaining(kv -> seen.put(new String(kv.key.get(), StandardCharsets.UTF_8),
                    new String(kv.value, StandardCharsets.UTF_8)));
        }
        return seen;
    }

    /** Between 1 and 6 operations on 12 keys, applied to the model as the store must apply them. */
    private static String ops(Gen g, TreeMap<String, String> model) {
        List<String> ops = new ArrayList<>();
        int n = g.intIn(1, 6);
        for (int i = 0; i < n; i++) {
            String k = "k" + g.intIn(0, 11);
            String v = "v" + g.intIn(0, 999);
            switch (g.intIn(0, 4)) {
                case 0 -> {
                    ops.add("p " + k + " " + v);
                    model.put(k, v);
                }
                case 1 -> {
                    ops.add("i " + k + " " + v);
                    model.putIfAbsent(k, v);
                }
                case 2 -> {
                    ops.add("d " + k);
                    model.remove(k);
                }
                case 3 -> {
                    ops.add("p " + k + " -"); // a put of null deletes
                    model.remove(k);
                }
                default -> {
                    String k2 = "k" + g.intIn(0, 11);
                    ops.add("a " + k + " " + v + " " + k2 + " -");
                    model.put(k, v);
                    model.remove(k2);
                }
            }
        }
        return String.join(";", ops);
    }

    private static TreeMap<String, String> replay(List<KeyValue<byte[], byte[]>> changelog) {
        TreeMap<String, String> rebuilt = new TreeMap<>();
        for (KeyValue<Bytes, byte[]> c : JournalFormat.changes(changelog)) {
            String k = new String(c.key.get(), StandardCharsets.UTF_8);
            if (c.value == null) {
                rebuilt.remove(k);
            } else {
                rebuilt.put(k, new String(c.value, StandardCharsets.UTF_8));
            }
        }
        return rebuilt;
    }

    /** The changes in effect, as strings: {@code key=value}, or {@code key=null} for a delete. */
    private static List<String> changes(List<KeyValue<byte[], byte[]>> changelog) {
        return JournalFormat.changes(changelog).stream().map(kv -> Arrays.toString(kv.key.get()) + "="
                + (kv.value == null ? "null" : Arrays.toString(kv.value))).toList();
    }

    /** A commit that changed nothing writes nothing; a batch past the size limit is cut without waiting for it. */
    @Test
    void emptyCommitsWriteNothing_andLargeBatchesAreCut() throws Exception {
        try (TopologyTestDriver driver = driver(Files.createTempDirectory(Path.of("target"), "journal-store-"))) {
            TestInputTopic<String, String> in = driver.createInputTopic("ops", new StringSerializer(),
                    new StringSerializer());
            TestOutputTopic<Bytes, byte[]> log = driver.createOutputTopic(CHANGELOG, new BytesDeserializer(),
                    new ByteArrayDeserializer());
            in.pipeInput("k", "i a 1");
            in.pipeInput("k", "i a 2"); // present: nothing changes, nothing is logged
            assertThat(log.readKeyValuesToList()).hasSize(1);
            KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(STORE);
            assertThatThrownBy(() -> store.put(Bytes.wrap(new byte[0]), new byte[]{1}))
                    .hasMessageContaining("reserved");
            assertThat(store.get(Bytes.wrap(new byte[0]))).isNull();

            String big = "x".repeat(1000);
            StringBuilder ops = new StringBuilder();
            int puts = 3 * JournalStore.MAX_BATCH_BYTES / 1000;
            for (int i = 0; i < puts; i++) {
                ops.append(i == 0 ? "" : ";").append("p b").append(i).append(' ').append(big);
            }
            in.pipeInput("k", ops.toString());
            List<KeyValue<Bytes, byte[]>> written = log.readKeyValuesToList();
            assertThat(written).hasSizeBetween(3, 4);
            assertThat(written).allSatisfy(kv -> {
                assertThat(JournalFormat.isJournalKey(kv.key.get())).isTrue();
                assertThat(kv.value.length).isLessThanOrEqualTo(JournalStore.MAX_BATCH_BYTES + 1100);
            });
            assertThat(written.stream().map(kv -> kv.key).distinct()).hasSameSizeAs(written);
            List<KeyValue<byte[], byte[]>> raw = written.stream().map(kv -> KeyValue.pair(kv.key.get(), kv.value))
                    .toList();
            assertThat(changes(raw)).hasSize(puts);
        }
    }

    /** Per-key records written before the journal (an upgrade) restore as Streams' own logging would. */
    @Test
    void perKeyRecordsOfAnEarlierChangelog_restoreAsTheyAre() {
        byte[] fp = {1, 2, 3, 4, 5, 6, 7, 8};
        byte[] other = "url-seen.snapshot".getBytes(StandardCharsets.US_ASCII);
        JournalBuffer batch = new JournalBuffer();
        batch.append(fp, null);
        batch.append(other, new byte[]{9});
        List<KeyValue<byte[], byte[]>> log = List.of(KeyValue.pair(fp, new byte[]{1}), KeyValue.pair(other, null),
                KeyValue.pair(JournalFormat.key(7, 0).get(), batch.toByteArray()),
                KeyValue.pair(fp, new byte[]{1}));
        assertThat(changes(log)).containsExactly(Arrays.toString(fp) + "=[1]", Arrays.toString(other) + "=null",
                        Arrays.toString(fp) + "=null", Arrays.toString(other) + "=[9]",
                        Arrays.toString(fp) + "=[1]");
    }

    /** A damaged batch stops the restore with the reason instead of rebuilding a store with changes missing. */
    @Test
    void aDamagedBatch_failsTheRestoreWithItsReason() {
        JournalBuffer batch = new JournalBuffer();
        batch.append(new byte[]{1, 2}, new byte[]{3});
        byte[] good = batch.toByteArray();
        byte[] key = JournalFormat.key(1, 1).get();
        Map<String, byte[]> damaged = Map.of(
                "unknown version", concat(new byte[]{9}, Arrays.copyOfRange(good, 1, good.length)),
                "unknown op", concat(good, new byte[]{7}),
                "past the end", Arrays.copyOf(good, good.length - 1),
                "bad length", concat(good, new byte[]{1, (byte) 0x80}),
                "bad chunk end", new byte[]{JournalFormat.VERSION_CHUNK, 0, 7});
        damaged.forEach((reason, bytes) -> assertThatThrownBy(() ->
                changes(List.of(KeyValue.pair(key, bytes)))).as(reason)
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(reason));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
