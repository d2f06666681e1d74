package io.github.kcrawler.common.topic;

import io.github.kcrawler.common.model.AdmittedUrls;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.topic.UrlBatches.Keyed;
import io.github.kcrawler.common.topic.UrlBatches.Limits;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UrlBatchesTest {
    private static final JsonSerde<DiscoveredUrls> JSON = JsonSerde.of(DiscoveredUrls.class);

    /**
     * Random pages over random partition counts: at most one record per partition when no group is cut, every
     * entry exactly once and in its input order, every entry on its record key's partition as Kafka's own
     * partitioner computes it, and every record within the limits (checked on the real JSON bytes).
     */
    @Test
    void discovered_groupsByKafkaPartition_keepsEveryEntryOnce_andStaysWithinLimits() {
        long seed = Long.getLong("kcrawler.seed", System.nanoTime());
        System.out.println("UrlBatchesTest seed=" + seed + " (rerun with -Dkcrawler.seed=" + seed + ")");
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 300; round++) {
            int partitions = 1 + random.nextInt(16);
            int links = random.nextInt(random.nextBoolean() ? 50 : 3_000);
            int ips = 1 + random.nextInt(200);
            List<DiscoveredUrls.Entry> entries = new ArrayList<>(links);
            for (int i = 0; i < links; i++) {
                String ip = "10.0." + random.nextInt(ips) / 256 + "." + random.nextInt(ips) % 256;
                entries.add(new DiscoveredUrls.Entry("http://h" + i + ".test/" + "p".repeat(random.nextInt(300)), ip));
            }
            Limits limits = new Limits(1 + random.nextInt(2_000), Limits.MIN_BYTES + random.nextInt(200_000));
            List<Keyed<DiscoveredUrls>> out = UrlBatches.discovered(entries, partitions, "http://src.test/", 3,
                    77L, limits);
            String context = "seed " + seed + ", round " + round;
            boolean anyCut = false;
            Set<Integer> seenPartitions = new HashSet<>();
            List<DiscoveredUrls.Entry> back = new ArrayList<>();
            for (Keyed<DiscoveredUrls> k : out) {
                int p = kafkaPartition(k.key(), partitions);
                anyCut |= !seenPartitions.add(p);
                DiscoveredUrls d = k.value();
                assertThat(d.urls()).as(context).isNotEmpty().hasSizeLessThanOrEqualTo(limits.maxEntries());
                assertThat(d.depth()).isEqualTo(3);
                assertThat(d.source()).isEqualTo("http://src.test/");
                assertThat(d.discoveredAt()).isEqualTo(77L);
                assertThat(k.key()).isEqualTo(d.urls().get(0).ip());
                for (DiscoveredUrls.Entry e : d.urls()) {
                    assertThat(kafkaPartition(e.ip(), partitions)).as(context).isEqualTo(p);
                }
                int bytes = JSON.serialize("t", d).length;
                if (d.urls().size() > 1) {
                    assertThat(bytes).as(context).isLessThanOrEqualTo(limits.maxBytes());
                }
                back.addAll(d.urls());
            }
            if (!anyCut) {
                assertThat(out.size()).as(context).isLessThanOrEqualTo(partitions);
            }
            assertThat(back).as(context).containsExactlyInAnyOrderElementsOf(entries);
            for (int p = 0; p < partitions; p++) { // order within a partition is kept
                int part = p;
                assertThat(back.stream().filter(e -> kafkaPartition(e.ip(), partitions) == part).toList())
                        .isEqualTo(entries.stream().filter(e -> kafkaPartition(e.ip(), partitions) == part).toList());
            }
        }
    }

    @Test
    void discovered_pageOf100000Links_isCutUnderTheByteLimit() {
        List<DiscoveredUrls.Entry> entries = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            entries.add(new DiscoveredUrls.Entry("http://big.test/link/" + i + "/" + "x".repeat(200), "10.9.9.9"));
        }
        List<Keyed<DiscoveredUrls>> out = UrlBatches.discovered(entries, 4, "http://big.test/", 1, 0L,
                UrlBatches.DEFAULT_LIMITS);
        assertThat(out).hasSizeGreaterThan(1);
        assertThat(out).allSatisfy(k -> {
            assertThat(k.key()).isEqualTo("10.9.9.9");
            assertThat(JSON.serialize("t", k.value()).length).isLessThanOrEqualTo(256 * 1024);
        });
        assertThat(out.stream().mapToInt(k -> k.value().urls().size()).sum()).isEqualTo(100_000);
    }

    @Test
    void admitted_groupsLikeDiscovered() {
        List<AdmittedUrls.Entry> entries = List.of(new AdmittedUrls.Entry("http://a.test/", "10.0.0.1", 1),
                new AdmittedUrls.Entry("http://b.test/", "10.0.0.2", 2),
                new AdmittedUrls.Entry("http://c.test/", "10.0.0.1", 3));
        List<Keyed<AdmittedUrls>> out = UrlBatches.admitted(entries, 1, 4, new Limits(2, Limits.MIN_BYTES));
        assertThat(out).hasSize(2);
        assertThat(out.get(0).key()).isEqualTo("10.0.0.1");
        assertThat(out.get(0).value().urls()).extracting(AdmittedUrls.Entry::fingerprint).containsExactly(1L, 2L);
        assertThat(out.get(1).key()).isEqualTo("10.0.0.1");
        assertThat(out.get(1).value().depth()).isEqualTo(4);
        assertThat(UrlBatches.admitted(List.of(), 4, 0, UrlBatches.DEFAULT_LIMITS)).isEmpty();
    }

    @Test
    void entryWithoutIp_isTheCallersMistake() {
        assertThatThrownBy(() -> UrlBatches.discovered(List.of(new DiscoveredUrls.Entry("http://a/", null)), 4,
                null, 0, 0, UrlBatches.DEFAULT_LIMITS)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Limits(0, Limits.MIN_BYTES)).hasMessageContaining("was 0");
        assertThatThrownBy(() -> new Limits(1, 10)).hasMessageContaining("was 10");
    }

    @Test
    void jsonBytes_isAnUpperBoundOfTheEncodedString() {
        String s = "http://ä.test/\"q\\\u0001€";
        int encoded = JsonSerde.MAPPER.valueToTree(s).toString().getBytes(StandardCharsets.UTF_8).length - 2;
        assertThat(UrlBatches.jsonBytes(s)).isGreaterThanOrEqualTo(encoded);
    }

    private static int kafkaPartition(String key, int partitions) {
        return BuiltInPartitioner.partitionForKey(key.getBytes(StandardCharsets.UTF_8), partitions);
    }
}
