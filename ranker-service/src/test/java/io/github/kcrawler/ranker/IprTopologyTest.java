package io.github.kcrawler.ranker;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.model.RankDelta;
import io.github.kcrawler.common.model.RankScore;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.service.StreamsDefaults;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.ranker.pagerank.IncrementalPageRank;
import io.github.kcrawler.ranker.pagerank.IprParams;
import io.github.kcrawler.ranker.processor.FingerprintKeys;
import io.github.kcrawler.ranker.processor.RankPage;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 5 item 4: the same fetch order through the partitioned stream processor (deltas keyed by the target's IP,
 * per-partition RocksDB stores, on Kafka's TopologyTestDriver which feeds {@code crawl.rank.deltas} back in as the
 * broker would) and through the single-process {@link IncrementalPageRank} gives the same score for every URL, and
 * every unfetched URL's last published score is that score.
 */
class IprTopologyTest {
    private static final int NODES = 600;
    private static final int HOSTS = 24;
    private static final int HUBS = 6;
    private final Topics topics = Topics.withPrefix("ipr.");
    private TopologyTestDriver driver;

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

    @ParameterizedTest
    @EnumSource(value = IprParams.CutOff.class, names = {"DL1", "VR", "AR"})
    void streamScores_equalSingleProcessScores_forTheSameFetchOrder(IprParams.CutOff cutOff) throws IOException {
        IprParams params = IprParams.defaults(cutOff);
        Path stateDir = Files.createTempDirectory(Files.createDirectories(Path.of("target", "test-state")), "ipr-");
        RankerConfig config = RankerConfig.of(new KafkaSettings("unused:9092", "ipr.", 4, stateDir, Map.of()))
                .withFlushMs(0);
        driver = new TopologyTestDriver(RankerTopology.buildIncrementalPageRank(topics, config,
                new SimpleMeterRegistry(), params),
                StreamsDefaults.properties(config.kafka(), RankerService.APPLICATION_ID, 1, config.commitMs()));
        TestInputTopic<String, LinkList> links = driver.createInputTopic(topics.links.name(), new StringSerializer(),
                JsonSerde.of(LinkList.class));
        TestOutputTopic<String, RankScore> scores = driver.createOutputTopic(topics.rankScores.name(),
                new StringDeserializer(), JsonSerde.of(RankScore.class));
        TestOutputTopic<String, RankDelta> deltas = driver.createOutputTopic(topics.rankDeltas.name(),
                new StringDeserializer(), JsonSerde.of(RankDelta.class));

        int[][] g = graph(42);
        List<Integer> order = new ArrayList<>();
        for (int p = 0; p < NODES; p++) {
            order.add(p);
        }
        // Half the hubs are fetched first (AR then passes their large later receipts on), half last with their
        // large scores (VR then passes their share on at fetched pages of small score); a quarter stays unfetched.
        java.util.Collections.shuffle(order.subList(HUBS, NODES), new Random(7));
        List<Integer> late = new ArrayList<>(order.subList(HUBS / 2, HUBS));
        order.subList(HUBS / 2, HUBS).clear();
        order = new ArrayList<>(order.subList(0, NODES * 3 / 4 - late.size()));
        order.addAll(late);

        IncrementalPageRank reference = new IncrementalPageRank(params, NODES);
        for (int p : order) {
            reference.fetch(p, g[p], IncrementalPageRank.ScoreListener.NONE);
            List<LinkList.Link> outlinks = new ArrayList<>();
            for (int q : g[p]) {
                outlinks.add(new LinkList.Link(url(q), Fingerprints.url(url(q)), ip(q)));
            }
            links.pipeInput(ip(p), new LinkList(LinkList.VERSION, url(p), Fingerprints.url(url(p)), outlinks));
        }

        Map<Long, Double> lastPublished = new HashMap<>();
        scores.readValuesToList().forEach(s -> lastPublished.put(s.fingerprint(), s.score()));
        List<RankDelta> allDeltas = deltas.readValuesToList();
        long deepDeltas = allDeltas.stream().filter(d -> d.depth() > 1).count();
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
        if (cutOff != IprParams.CutOff.DL1) {
            assertThat(deepDeltas).as("%s propagates beyond the direct outlinks", cutOff).isPositive();
        } else {
            assertThat(deepDeltas).isZero();
        }
    }
}
