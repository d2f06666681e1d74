package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.AdmittedUrls;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.RankScore;
import io.github.kcrawler.common.model.RankScoreBatch;
import io.github.kcrawler.common.time.ManualClock;
import io.github.kcrawler.kafka.embedded.SurvivingStoreSupplier;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.scheduler.politeness.FrontierBound;
import io.github.kcrawler.scheduler.politeness.Spill;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scheduler with a frontier bound of {@code max-pending} = B·H/2 = 16 URLs, fed ten times the bound's URL count
 * (170): the URLs over the bound wait in the pending store's spill (keys starting with {@link Spill#PREFIX}), no URL is
 * forgotten or dropped, a restart in the middle keeps the deferred ones, and every URL is requested exactly once, one
 * IP's requests T apart.
 */
class FrontierSpillTopologyTest {
    private static final long T = 200;
    private static final long TICK = 20;
    private static final int B = 4;
    private static final int H = 8;
    private static final int MAX_PENDING = B * H / 2;

    private final Path stateDir = Path.of("target", "ttd-state", UUID.randomUUID().toString());
    private final ManualClock clock = new ManualClock(SchedulerDriver.START);
    private SchedulerDriver d;

    private SchedulerConfig config() {
        return config(SchedulerConfig.Order.PRIORITY);
    }

    private SchedulerConfig config(SchedulerConfig.Order order) {
        KafkaSettings kafka = new KafkaSettings("127.0.0.1:1", "", 1, stateDir, Map.of());
        SchedulerConfig.Revisit r = SchedulerConfig.Revisit.defaults();
        return new SchedulerConfig(kafka, T, TICK, MAX_PENDING, 50, 1, 100, "127.0.0.1", 0,
                new SchedulerConfig.Wheel(order, B, H, 5 * T),
                new SchedulerConfig.Revisit(false, r.unitMs(), r.initialMs(), r.minMs(), r.maxMs(), r.bufferBytes()));
    }

    private void open(SurvivingStoreSupplier store) {
        open(store, SchedulerConfig.Order.PRIORITY);
    }

    private void open(SurvivingStoreSupplier store, SchedulerConfig.Order order) {
        d = SchedulerDriver.of(config(order), clock, store);
    }

    @AfterEach
    void close() {
        if (d != null) {
            d.close();
        }
    }

    private static String ip(int i) {
        return "10.0.0." + (i + 1);
    }

    /** Keys of the pending store: [pending, deferred]. */
    private long[] storeKeys() {
        KeyValueStore<String, PendingEntry> store = d.driver.getKeyValueStore(SchedulerTopology.PENDING_STORE);
        long[] counts = new long[2];
        try (KeyValueIterator<String, PendingEntry> it = store.all()) {
            while (it.hasNext()) {
                counts[it.next().key.charAt(0) == Spill.PREFIX ? 1 : 0]++;
            }
        }
        return counts;
    }

    private double spilled(String op) {
        return d.registry.get(SchedulerMetrics.SPILL).tag("op", op).counter().count();
    }

    @Test
    void tenTimesTheBound_waitsInTheSpill_survivesARestart_andIsRequestedExactlyOnce() {
        FrontierBound bound = config().frontierBound();
        assertThat(bound.urls()).isEqualTo(MAX_PENDING + 1L);
        assertThat(bound.wheelUrls()).isEqualTo(MAX_PENDING);
        int total = (int) (10 * bound.urls());
        int ips = 6;
        Map<String, String> ipOf = new HashMap<>();
        SurvivingStoreSupplier store = new SurvivingStoreSupplier(SchedulerTopology.PENDING_STORE);
        open(store);
        List<FetchRequest> all = new ArrayList<>();
        Map<String, List<Long>> notBefore = new HashMap<>();
        for (int n = 0; n < total; n++) {
            int i = n % 3 == 0 ? 0 : n % ips; // a third of the URLs on one IP: its residue fills, URLs wait
            String url = "http://h" + i + ".test/" + n;
            ipOf.put(url, ip(i));
            long fp = Fingerprints.url(url);
            d.scores.pipeInput(ip(i), RankScoreBatch.of(List.of(RankScore.of(url, fp, ip(i), n % 17))));
            d.admitted.pipeInput(ip(i), AdmittedUrls.of(1, List.of(new AdmittedUrls.Entry(url, ip(i), fp))));
            long[] keys = storeKeys();
            assertThat(keys[0]).as("URLs indexed in memory (pending keys)").isLessThanOrEqualTo(bound.urls());
            assertThat(keys[0] + keys[1]).as("every admitted URL is pending or deferred, none dropped")
                    .isEqualTo(n + 1 - all.size());
            assertThat(d.frontiers.deferred()).as("the spill's count agrees with the store").isEqualTo(keys[1]);
            assertThat(d.registry.get(SchedulerMetrics.SPILL + ".size").gauge().value()).isEqualTo(keys[1]);
            if (n % 10 == 9) {
                step(all, notBefore);
            }
            if (n == total / 2) { // a restart from what the store (its changelog) holds
                assertThat(storeKeys()[1]).as("URLs deferred before the restart").isPositive();
                d.close();
                open(store);
                // a restart forgets each IP's last release (documented: the fetcher's per-IP guard covers the gap),
                // so politeness in notBefore is checked within each run
                checkPoliteness(notBefore);
                notBefore.clear();
            }
        }
        assertThat(spilled("deferred")).isPositive();
        for (int round = 0; round < 2000 && all.size() < total; round++) {
            step(all, notBefore);
        }
        assertThat(d.forgets.readKeyValuesToList()).as("nothing forgotten").isEmpty();
        assertThat(all).hasSize(total);
        Set<String> urls = new HashSet<>();
        for (FetchRequest r : all) {
            assertThat(urls.add(r.url())).as("requested once: %s", r.url()).isTrue();
        }
        checkPoliteness(notBefore);
        assertThat(storeKeys()).containsExactly(0, 0);
        assertThat(d.frontiers.size()).isZero();
        assertThat(spilled("taken-back")).isPositive();
    }

    private static void checkPoliteness(Map<String, List<Long>> notBefore) {
        for (Map.Entry<String, List<Long>> e : notBefore.entrySet()) {
            List<Long> times = e.getValue();
            for (int j = 1; j < times.size(); j++) {
                assertThat(times.get(j) - times.get(j - 1)).as("%s request %d", e.getKey(), j)
                        .isGreaterThanOrEqualTo(T);
            }
        }
    }

    /** URLs deferred under order=priority are restored as pending when the scheduler restarts with another order. */
    @Test
    void deferredUrls_areRestoredAsPending_underAnotherOrder() {
        SurvivingStoreSupplier store = new SurvivingStoreSupplier(SchedulerTopology.PENDING_STORE);
        open(store);
        int total = 5 * MAX_PENDING;
        for (int n = 0; n < total; n++) {
            String url = "http://h" + (n % 5) + ".test/" + n;
            d.admitted.pipeInput(ip(n % 5), AdmittedUrls.of(1, List.of(new AdmittedUrls.Entry(url, ip(n % 5),
                    Fingerprints.url(url)))));
        }
        assertThat(storeKeys()[1]).isEqualTo(total - MAX_PENDING);
        d.close();
        open(store, SchedulerConfig.Order.FIFO);
        assertThat(storeKeys()).containsExactly(total, 0);
        List<FetchRequest> all = new ArrayList<>();
        for (int round = 0; round < 2000 && all.size() < total; round++) {
            step(all, new HashMap<>());
        }
        assertThat(all.stream().map(FetchRequest::url).distinct()).hasSize(total);
        assertThat(d.forgets.readKeyValuesToList()).isEmpty();
    }

    /** Advances one tick and reports every request's fetch at once, with its step. */
    private void step(List<FetchRequest> all, Map<String, List<Long>> notBefore) {
        d.advance(TICK);
        for (KeyValue<String, FetchRequest> kv : d.fetchAll()) {
            all.add(kv.value);
            notBefore.computeIfAbsent(kv.key, k -> new ArrayList<>()).add(kv.value.notBefore());
        }
    }
}
