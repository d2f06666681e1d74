package io.github.kcrawler.ranker;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.model.RankDelta;
import io.github.kcrawler.common.model.RankDeltaBatch;
import io.github.kcrawler.common.model.RankScore;
import io.github.kcrawler.common.model.RankScoreBatch;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.service.StreamsDefaults;
import io.github.kcrawler.common.streams.JournalFormat;
import io.github.kcrawler.common.topic.KeyPartitioner;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.kafka.embedded.SurvivingStoreSupplier;
import io.github.kcrawler.ranker.pagerank.IncrementalPageRank;
import io.github.kcrawler.ranker.pagerank.IprParams;
import io.github.kcrawler.ranker.pagerank.IprRules;
import io.github.kcrawler.ranker.processor.FingerprintKeys;
import io.github.kcrawler.ranker.processor.RankPage;
import io.github.kcrawler.ranker.processor.RankPageCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.BytesDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 5 item 4 and issue 19: the same fetch order through the partitioned stream processor (receipts for the
 * task's own partition applied in place, the others as one batch per target partition on {@code crawl.rank.deltas},
 * fed back in by Kafka's TopologyTestDriver as the broker would, per-partition RocksDB stores) and through the
 * single-process {@link IncrementalPageRank} gives the same score for every URL, and every unfetched URL's last
 * published score is that score. The driver runs one task (partition 0), so with 4 partitions the receipts for
 * hosts of partitions 1–3 make the round trip through the topic and those of partition 0 stay in place.
 */
class IprTopologyTest {
    private static final int NODES = 600;
    private static final int HOSTS = 24;
    private static final int HUBS = 6;
    private final Topics topics = Topics.withPrefix("ipr.");
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private TopologyTestDriver driver;
    private TestInputTopic<String, FetchResult> results;
    private TestOutputTopic<String, RankScoreBatch> scores;
    private TestOutputTopic<String, RankDeltaBatch> deltas;

    @AfterEach
    void tearDown() {
        if (driver != null) {
            driver.close();
        }
    }

    private static String url(int node) {
        return "http://h" + (node % HOSTS) + ".test/p" + node;
    }

    private static String ip(int node) {
        return "10.0." + (node % HOSTS) / 8 + "." + (node % HOSTS);
    }

    /**
     * A random graph with site locality, duplicate links and self-links, as real pages have, and a few hubs that
     * collect a third of all links but link out little — so that VR and AR find receipts large enough to pass on.
     */
    private static int[][] graph(long seed) {
        Random r = new Random(seed);
        int[][] out = new int[NODES][];
        for (int p = 0; p < NODES; p++) {
            if (p < HUBS) {
                out[p] = new int[] {r.nextInt(NODES), r.nextInt(NODES)};
                continue;
            }
            int d = r.nextInt(14);
            out[p] = new int[d];
            for (int i = 0; i < d; i++) {
                int q = r.nextInt(4) == 0 ? r.nextInt(NODES) : (p - p % HOSTS + r.nextInt(HOSTS * 3)) % NODES;
                out[p][i] = r.nextInt(2) == 0 ? r.nextInt(HUBS) : r.nextInt(20) == 0 ? p : q;
            }
        }
        return out;
    }

    /**
     * The fetch order: half the hubs first (AR then passes their large later receipts on), half last with their
     * large scores (VR then passes their share on at fetched pages of small score); a quarter stays unfetched.
     */
    private static List<Integer> fetchOrder() {
        List<Integer> order = new ArrayList<>();
        for (int p = 0; p < NODES; p++) {
            order.add(p);
        }
        Collections.shuffle(order.subList(HUBS, NODES), new Random(7));
        List<Integer> late = new ArrayList<>(order.subList(HUBS / 2, HUBS));
        order.subList(HUBS / 2, HUBS).clear();
        order = new ArrayList<>(order.subList(0, NODES * 3 / 4 - late.size()));
        order.addAll(late);
        return order;
    }

    /** Page p's result as the fetcher writes it: an HTML page whose link graph travels in the result (issue 19). */
    private static FetchResult result(int p, int[] outlinks) {
        List<LinkList.Link> list = new ArrayList<>();
        for (int q : outlinks) {
            list.add(new LinkList.Link(url(q), Fingerprints.url(url(q)), ip(q)));
        }
        return new FetchResult(FetchResult.VERSION, url(p), Fingerprints.url(url(p)), 0, 1, FetchKind.NEW, 200,
                FetchOutcome.OK, 1, 0, 1, null, 100, "text/html", null, null, null, list.size(), null, null)
                .withLinks(list);
    }

    /** The paper's DL1, VR or AR (ranking {@code ipr-dl1}: fetched pages' scores kept, as the model keeps them). */
    private void open(IprParams params, int partitions, long flushMs, KeyValueBytesStoreSupplier pageStore) {
        open(RankerConfig.Ranking.IPR_DL1, params, partitions, flushMs, pageStore);
    }

    private void open(RankerConfig.Ranking ranking, IprParams params, int partitions, long flushMs,
                      KeyValueBytesStoreSupplier pageStore) {
        Path stateDir;
        try {
            stateDir = Files.createTempDirectory(Files.createDirectories(Path.of("target", "test-state")), "ipr-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        RankerConfig config = RankerConfig.of(new KafkaSettings("unused:9092", "ipr.", partitions, stateDir,
                Map.of())).withFlushMs(flushMs).withRanking(ranking);
        driver = new TopologyTestDriver(RankerTopology.buildIncrementalPageRank(topics, config, registry, params,
                pageStore), StreamsDefaults.properties(config.kafka(), RankerService.APPLICATION_ID, 1,
                config.commitMs()));
        results = driver.createInputTopic(topics.fetchResults.name(), new StringSerializer(),
                JsonSerde.of(FetchResult.class));
        scores = driver.createOutputTopic(topics.rankScores.name(), new StringDeserializer(),
                JsonSerde.of(RankScoreBatch.class));
        deltas = driver.createOutputTopic(topics.rankDeltas.name(), new StringDeserializer(),
                JsonSerde.of(RankDeltaBatch.class));
    }

    static Stream<Arguments> cutOffsAndPartitions() {
        List<Arguments> all = new ArrayList<>();
        for (IprParams.CutOff c : List.of(IprParams.CutOff.DL1, IprParams.CutOff.VR, IprParams.CutOff.AR)) {
            for (int partitions : new int[] {1, 4}) {
                all.add(Arguments.of(c, partitions));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}, {1} partitions")
    @MethodSource("cutOffsAndPartitions")
    void streamScores_equalSingleProcessScores_forTheSameFetchOrder(IprParams.CutOff cutOff, int partitions) {
        IprParams params = IprParams.defaults(cutOff);
        open(params, partitions, 0, Stores.persistentKeyValueStore(RankerTopology.PAGE_STORE));
        int[][] g = graph(42);
        IncrementalPageRank reference = new IncrementalPageRank(params, NODES);
        List<RankDeltaBatch> allDeltas = new ArrayList<>();
        long expectedRemote = 0;
        for (int p : fetchOrder()) {
            reference.fetch(p, g[p], IncrementalPageRank.ScoreListener.NONE);
            results.pipeInput(ip(p), result(p, g[p]));
            List<KeyValue<String, RankDeltaBatch>> written = deltas.readKeyValuesToList();
            written.forEach(kv -> allDeltas.add(kv.value));
            for (KeyValue<String, RankDeltaBatch> kv : written) {
                int partition = KeyPartitioner.partition(kv.key, partitions);
                assertThat(partition).as("no record for the task's own partition").isNotZero();
                assertThat(kv.value.deltas()).allSatisfy(d ->
                        assertThat(KeyPartitioner.partition(d.ip(), partitions)).isEqualTo(partition));
            }
            if (cutOff == IprParams.CutOff.DL1) {
                // One record per other partition among the page's distinct targets: ≤ P − 1 whatever its out-degree.
                Set<Integer> targets = new HashSet<>();
                Set<Integer> distinct = new HashSet<>();
                for (int q : g[p]) {
                    if (distinct.add(q)) {
                        int partition = KeyPartitioner.partition(ip(q), partitions);
                        targets.add(partition);
                        expectedRemote += partition == 0 ? 0 : 1;
                    }
                }
                targets.remove(0);
                assertThat(written).as("delta records of page %d", p).hasSize(targets.size())
                        .hasSizeLessThanOrEqualTo(partitions - 1);
            }
        }

        Map<Long, Double> lastPublished = new HashMap<>();
        scores.readValuesToList().forEach(b -> b.scores().forEach(s -> lastPublished.put(s.fingerprint(), s.score())));
        long deepDeltas = allDeltas.stream().flatMap(b -> b.deltas().stream()).filter(d -> d.depth() > 1).count();
        KeyValueStore<Bytes, RankPage> pages = driver.getKeyValueStore(RankerTopology.PAGE_STORE);
        int reached = 0;
        for (int node = 0; node < NODES; node++) {
            RankPage page = pages.get(FingerprintKeys.key(Fingerprints.url(url(node))));
            double expected = reference.score(node);
            if (page == null) {
                assertThat(expected).as("score of unreached node %d", node).isZero();
                continue;
            }
            reached++;
            assertThat(page.score()).as("score of node %d (%s)", node, cutOff).isEqualTo(expected);
            assertThat(page.fetched()).isEqualTo(reference.isFetched(node));
            assertThat(page.accumulated()).isEqualTo(reference.accumulated(node));
            if (!page.fetched() && expected > 0) {
                assertThat(lastPublished.get(Fingerprints.url(url(node)))).as("published score of %d", node)
                        .isEqualTo(expected);
            }
        }
        assertThat(reached).isGreaterThan(NODES * 3 / 4);
        assertThat(lastPublished).isNotEmpty();
        if (partitions == 1) {
            assertThat(allDeltas).as("one partition: everything in place").isEmpty();
        } else {
            assertThat(allDeltas).isNotEmpty();
        }
        if (cutOff == IprParams.CutOff.DL1) {
            // Exactly the receipts for other partitions travelled; those for the task's own were applied in place.
            assertThat(allDeltas.stream().mapToLong(b -> b.deltas().size()).sum()).isEqualTo(expectedRemote);
        }
        if (cutOff != IprParams.CutOff.DL1 && partitions > 1) {
            assertThat(deepDeltas).as("%s propagates beyond the direct outlinks", cutOff).isPositive();
        } else if (cutOff == IprParams.CutOff.DL1) {
            assertThat(deepDeltas).isZero();
        }
    }

    /**
     * Ours, {@code ipr-dl1-frontier}, against the paper's DL1 over the same fetches: the same delta records, the same
     * published scores (so the same crawl order) and the same score for every unfetched URL, while a fetched page
     * keeps the score it had at its fetch and the page-store changelog has no change of it after its fetch.
     */
    @ParameterizedTest(name = "{0} partitions")
    @ValueSource(ints = {1, 4})
    void dl1Frontier_publishesDl1sScores_andWritesNoFetchedPageAfterItsFetch(int partitions) {
        IprParams params = IprParams.defaults(IprParams.CutOff.DL1);
        int[][] g = graph(11);
        IncrementalPageRank reference = new IncrementalPageRank(params, NODES);
        Map<Integer, Double> scoreAtFetch = new HashMap<>();
        for (int p : fetchOrder()) {
            scoreAtFetch.put(p, IprRules.scoreAfterFetch(reference.score(p)));
            reference.fetch(p, g[p], IncrementalPageRank.ScoreListener.NONE);
        }
        Map<RankerConfig.Ranking, List<KeyValue<Bytes, RankPage>>> changelogs = new HashMap<>();
        Map<RankerConfig.Ranking, List<RankScoreBatch>> published = new HashMap<>();
        Map<RankerConfig.Ranking, List<RankDeltaBatch>> sent = new HashMap<>();
        for (RankerConfig.Ranking ranking : List.of(RankerConfig.Ranking.IPR_DL1,
                RankerConfig.Ranking.IPR_DL1_FRONTIER)) {
            open(ranking, params, partitions, 0, Stores.persistentKeyValueStore(RankerTopology.PAGE_STORE));
            TestOutputTopic<Bytes, byte[]> changelog = driver.createOutputTopic(
                    RankerTopology.internalTopics("ipr." + RankerService.APPLICATION_ID, null).get(0),
                    new BytesDeserializer(), new ByteArrayDeserializer());
            for (int p : fetchOrder()) {
                results.pipeInput(ip(p), result(p, g[p]));
            }
            KeyValueStore<Bytes, RankPage> pages = driver.getKeyValueStore(RankerTopology.PAGE_STORE);
            for (int node = 0; node < NODES; node++) {
                RankPage page = pages.get(FingerprintKeys.key(Fingerprints.url(url(node))));
                double expected = reference.isFetched(node) && ranking == RankerConfig.Ranking.IPR_DL1_FRONTIER
                        ? scoreAtFetch.get(node) : reference.score(node);
                assertThat(page == null ? 0.0 : page.score()).as("%s: node %d", ranking, node).isEqualTo(expected);
            }
            // the journal's batches, change by change
            changelogs.put(ranking, JournalFormat.changes(changelog.readKeyValuesToList().stream()
                    .map(kv -> KeyValue.pair(kv.key.get(), kv.value)).toList()).stream()
                    .map(kv -> KeyValue.pair(kv.key, RankPageCodec.SERDE.deserializer().deserialize(null, kv.value)))
                    .toList());
            published.put(ranking, scores.readValuesToList());
            sent.put(ranking, deltas.readValuesToList());
            driver.close();
            driver = null;
        }
        assertThat(published.get(RankerConfig.Ranking.IPR_DL1_FRONTIER)).as("same scores, same order")
                .isEqualTo(published.get(RankerConfig.Ranking.IPR_DL1)).isNotEmpty();
        assertThat(sent.get(RankerConfig.Ranking.IPR_DL1_FRONTIER)).isEqualTo(sent.get(RankerConfig.Ranking.IPR_DL1));
        assertThat(recordsAfterFetch(changelogs.get(RankerConfig.Ranking.IPR_DL1))).as("the paper's DL1").isPositive();
        assertThat(recordsAfterFetch(changelogs.get(RankerConfig.Ranking.IPR_DL1_FRONTIER))).as("ours").isZero();
        assertThat(changelogs.get(RankerConfig.Ranking.IPR_DL1).size()
                - changelogs.get(RankerConfig.Ranking.IPR_DL1_FRONTIER).size())
                .isEqualTo(recordsAfterFetch(changelogs.get(RankerConfig.Ranking.IPR_DL1)));
    }

    @Test
    void dl1Frontier_isRefused_withACutOffThatPropagatesFromFetchedPages() {
        for (IprParams.CutOff c : List.of(IprParams.CutOff.VR, IprParams.CutOff.AR)) {
            assertThatThrownBy(() -> open(RankerConfig.Ranking.IPR_DL1_FRONTIER, IprParams.defaults(c), 4, 0,
                    Stores.persistentKeyValueStore(RankerTopology.PAGE_STORE)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs the DL1 cut-off");
        }
    }

    /** Changelog records of a page after the record that shows it fetched. */
    private static long recordsAfterFetch(List<KeyValue<Bytes, RankPage>> changelog) {
        Set<Bytes> fetched = new HashSet<>();
        long after = 0;
        for (KeyValue<Bytes, RankPage> kv : changelog) {
            after += fetched.contains(kv.key) ? 1 : 0;
            if (kv.value != null && kv.value.fetched()) {
                fetched.add(kv.key);
            }
        }
        return after;
    }

    @Test
    void aFlush_writesAtMostOneScoreRecordPerPartition_withTheLatestScoreOfEveryChangedUnfetchedUrl() {
        IprParams params = IprParams.defaults(IprParams.CutOff.DL1);
        open(params, 4, 1_000, Stores.persistentKeyValueStore(RankerTopology.PAGE_STORE));
        int[][] g = graph(3);
        IncrementalPageRank reference = new IncrementalPageRank(params, NODES);
        List<Integer> order = fetchOrder().subList(0, 200);
        for (int p : order) {
            reference.fetch(p, g[p], IncrementalPageRank.ScoreListener.NONE);
            results.pipeInput(ip(p), result(p, g[p]));
        }
        assertThat(scores.isEmpty()).as("nothing before the flush").isTrue();

        driver.advanceWallClockTime(Duration.ofMillis(1_000));
        List<KeyValue<String, RankScoreBatch>> flushed = scores.readKeyValuesToList();
        assertThat(flushed).hasSizeLessThanOrEqualTo(4);
        Map<Integer, Integer> recordsPerPartition = new HashMap<>();
        Map<String, Double> published = new HashMap<>();
        for (KeyValue<String, RankScoreBatch> kv : flushed) {
            int partition = KeyPartitioner.partition(kv.key, 4);
            recordsPerPartition.merge(partition, 1, Integer::sum);
            for (RankScore s : kv.value.scores()) {
                assertThat(KeyPartitioner.partition(s.ip(), 4)).isEqualTo(partition);
                assertThat(published.put(s.url(), s.score())).as("%s published once", s.url()).isNull();
            }
        }
        assertThat(recordsPerPartition.values()).containsOnly(1);
        Map<String, Double> expected = new HashMap<>();
        for (int node = 0; node < NODES; node++) {
            if (!reference.isFetched(node) && reference.score(node) > 0) {
                expected.put(url(node), reference.score(node));
            }
        }
        assertThat(published).isEqualTo(expected);
        assertThat(recordsPerPartition).hasSize((int) expected.keySet().stream()
                .map(u -> KeyPartitioner.partition(ip(Integer.parseInt(u.substring(u.indexOf("/p") + 2))), 4))
                .distinct().count());

        driver.advanceWallClockTime(Duration.ofMillis(1_000));
        assertThat(scores.isEmpty()).as("nothing changed since").isTrue();
    }

    @Test
    void scoresChangedAndCommittedButNotYetFlushed_arePublishedAfterARestart_once() {
        IprParams params = IprParams.defaults(IprParams.CutOff.DL1);
        SurvivingStoreSupplier store = new SurvivingStoreSupplier(RankerTopology.PAGE_STORE);
        int[][] g = graph(5);
        IncrementalPageRank reference = new IncrementalPageRank(params, NODES);
        List<Integer> order = fetchOrder();
        open(params, 4, 60_000, store);
        for (int p : order.subList(0, 100)) {
            reference.fetch(p, g[p], IncrementalPageRank.ScoreListener.NONE);
            results.pipeInput(ip(p), result(p, g[p]));
        }
        driver.advanceWallClockTime(Duration.ofMillis(60_000));
        Map<String, Double> published = new HashMap<>();
        scores.readValuesToList().forEach(b -> b.scores().forEach(s -> published.put(s.url(), s.score())));
        assertThat(published).as("the first flush").isNotEmpty();
        // More changes, committed with their input (the driver commits after every record), then the process stops
        // before the next flush: what it knew in memory about them is gone.
        for (int p : order.subList(100, 200)) {
            reference.fetch(p, g[p], IncrementalPageRank.ScoreListener.NONE);
            results.pipeInput(ip(p), result(p, g[p]));
        }
        assertThat(scores.isEmpty()).isTrue();
        driver.close();
        driver = null;

        open(params, 4, 60_000, store);
        driver.advanceWallClockTime(Duration.ofMillis(60_000));
        Map<String, Double> afterRestart = new HashMap<>();
        scores.readValuesToList().forEach(b -> b.scores().forEach(s ->
                assertThat(afterRestart.put(s.url(), s.score())).as("%s once", s.url()).isNull()));
        published.putAll(afterRestart);
        Map<String, Double> expected = new HashMap<>();
        Set<String> changedAfterFirstFlush = new HashSet<>();
        for (int p : order.subList(100, 200)) {
            for (int q : g[p]) {
                changedAfterFirstFlush.add(url(q));
            }
        }
        for (int node = 0; node < NODES; node++) {
            if (!reference.isFetched(node) && reference.score(node) > 0) {
                expected.put(url(node), reference.score(node));
            }
        }
        Set<String> fetchedSince = new HashSet<>(published.keySet());
        fetchedSince.removeAll(expected.keySet());
        assertThat(fetchedSince).as("published in the first flush, fetched since")
                .allSatisfy(u -> assertThat(reference.isFetched(Integer.parseInt(u.substring(u.indexOf("/p") + 2))))
                        .isTrue());
        published.keySet().retainAll(expected.keySet());
        assertThat(published).as("every unfetched URL's latest score").isEqualTo(expected);
        assertThat(afterRestart.keySet()).as("republished: only what changed after the last flush")
                .isSubsetOf(changedAfterFirstFlush);
        driver.close();
        driver = null;

        open(params, 4, 60_000, store);
        driver.advanceWallClockTime(Duration.ofMillis(60_000));
        assertThat(scores.isEmpty()).as("after a flush, a restart publishes nothing again").isTrue();
    }
}
