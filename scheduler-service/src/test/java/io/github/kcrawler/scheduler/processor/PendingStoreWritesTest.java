package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.AdmittedUrls;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.RankScore;
import io.github.kcrawler.common.model.RankScoreBatch;
import io.github.kcrawler.common.streams.JournalFormat;
import io.github.kcrawler.common.streams.JournalSnapshots;
import io.github.kcrawler.common.time.ManualClock;
import io.github.kcrawler.kafka.embedded.SurvivingStoreSupplier;
import io.github.kcrawler.scheduler.SchedulerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.BytesDeserializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 19, record economy: the writes that reach the pending store (each one a record of its changelog), counted
 * per admitted URL. An admitted URL costs one put and, at its release, one delete; a score update writes nothing (it
 * reorders the frontier only), whether the URL waits in the priority pool or is placed in the wheel. A restart
 * restores every URL with its admission-time score, and the ranker's next score for it puts it back in its place.
 */
class PendingStoreWritesTest {
    private static final long T = 1000;
    private static final long TICK = 20;

    private final Path stateDir = Path.of("target", "ttd-state", UUID.randomUUID().toString());
    private final ManualClock clock = new ManualClock(SchedulerDriver.START);
    private SchedulerDriver d;

    private SchedulerConfig config(SchedulerConfig.Order order) {
        KafkaSettings kafka = new KafkaSettings("127.0.0.1:1", "", 1, stateDir, Map.of());
        SchedulerConfig.Revisit r = SchedulerConfig.Revisit.defaults();
        return new SchedulerConfig(kafka, T, TICK, 1000, 1000, 1, 100, "127.0.0.1", 0,
                SchedulerConfig.Wheel.defaults().withOrder(order),
                new SchedulerConfig.Revisit(false, r.unitMs(), r.initialMs(), r.minMs(), r.maxMs(), r.bufferBytes()));
    }

    /** The service's {@code journal-snapshot-*} settings reach the pending store's journal. */
    @Test
    void journalSnapshotSettings_reachThePendingStore() {
        SchedulerConfig base = config(SchedulerConfig.Order.PRIORITY);
        SchedulerConfig config = new SchedulerConfig(base.kafka(), base.politenessMs(), base.tickMs(), base.maxPending(),
                base.scoreCacheSize(), base.threads(), base.commitMs(), base.metricsHost(), base.metricsPort(),
                base.wheel(), base.revisit(), new JournalSnapshots(0, 0.1, 1));
        d = SchedulerDriver.of(config, clock);
        TestOutputTopic<Bytes, byte[]> log = d.driver.createOutputTopic(SchedulerConfig.APPLICATION_ID + "-"
                + SchedulerTopology.PENDING_STORE + "-changelog", new BytesDeserializer(), new ByteArrayDeserializer());
        admit(2, 3); // six commits, each snapshotting: one chunk of at most one entry a commit (1 byte per commit)
        List<byte[]> chunks = log.readValuesToList().stream()
                .filter(v -> v != null && v[0] == JournalFormat.VERSION_CHUNK).toList();
        assertThat(chunks).as("snapshot chunks, one per commit").hasSize(6);
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

    private static String url(int ip, int page) {
        return "http://h" + ip + ".test/" + page;
    }

    private void admit(int ips, int pages) {
        for (int page = 0; page < pages; page++) {
            for (int i = 0; i < ips; i++) {
                String u = url(i, page);
                d.admitted.pipeInput(ip(i), AdmittedUrls.of(1, List.of(
                        new AdmittedUrls.Entry(u, ip(i), Fingerprints.url(u)))));
            }
        }
    }

    private void score(int ips, int pages, double score) {
        for (int page = 0; page < pages; page++) {
            for (int i = 0; i < ips; i++) {
                String u = url(i, page);
                d.scores.pipeInput(ip(i), score(ip(i), u, Fingerprints.url(u), score + page));
            }
        }
    }

    /** Runs the crawl to its end, reporting every request's fetch with its step; returns the requests. */
    private List<FetchRequest> crawlToTheEnd(int expected) {
        List<FetchRequest> all = new ArrayList<>();
        for (int round = 0; round < 200 && all.size() < expected; round++) {
            d.advance(T / 2);
            d.fetchAll().forEach(kv -> all.add(kv.value));
        }
        return all;
    }

    @Test
    void wheel_writesOnePutAndOneDeletePerUrl_andNothingForScoresOfUrlsPlacedInTheWheel() {
        SurvivingStoreSupplier store = new SurvivingStoreSupplier(SchedulerTopology.PENDING_STORE);
        d = SchedulerDriver.of(config(SchedulerConfig.Order.PRIORITY), clock, store);
        int ips = 10;
        int pages = 5;
        admit(ips, pages);
        assertThat(store.puts()).isEqualTo(ips * pages);
        d.advance(T / 2); // the first step goes out (pacing-lead-ms before its notBefore); the rest enter the wheel
        for (int round = 1; round <= 3; round++) {
            score(ips, pages, round * 10.0); // 150 score records for URLs placed in the wheel
        }
        assertThat(store.puts()).as("no rewrite for a URL whose step is fixed").isEqualTo(ips * pages);

        List<FetchRequest> all = crawlToTheEnd(ips * pages);
        assertThat(all).hasSize(ips * pages);
        assertThat(all.stream().map(FetchRequest::url).distinct()).hasSize(ips * pages);
        for (int i = 0; i < ips; i++) { // pipelined pacing with results reported up to T/2 late: one request per T
            String host = "http://h" + i + ".test/";
            List<Long> times = all.stream().filter(r -> r.url().startsWith(host)).map(FetchRequest::notBefore)
                    .sorted().toList();
            assertThat(times).hasSize(pages);
            for (int j = 1; j < times.size(); j++) {
                assertThat(times.get(j) - times.get(j - 1)).as("%s request %d", host, j).isEqualTo(T);
            }
        }
        assertThat(store.entries()).isZero();
        assertThat(store.deletes()).isEqualTo(ips * pages);
        double writesPerUrl = (double) (store.puts() + store.deletes()) / (ips * pages);
        System.out.printf("pending store writes per admitted URL (priority wheel): %.2f%n", writesPerUrl);
        assertThat(writesPerUrl).isEqualTo(2.0);
    }

    @Test
    void wheel_neverRewritesAWaitingUrlForItsScore_andARestartRestoresItsAdmissionScoreUntilTheNextScore() {
        SurvivingStoreSupplier store = new SurvivingStoreSupplier(SchedulerTopology.PENDING_STORE);
        d = SchedulerDriver.of(config(SchedulerConfig.Order.PRIORITY), clock, store);
        String first = url(0, 0);
        String second = url(0, 1);
        String third = url(0, 2);
        d.admitted.pipeInput(ip(0), AdmittedUrls.of(1, List.of(
                new AdmittedUrls.Entry(first, ip(0), Fingerprints.url(first)))));
        d.admitted.pipeInput(ip(0), AdmittedUrls.of(1, List.of(
                new AdmittedUrls.Entry(second, ip(0), Fingerprints.url(second)))));
        d.admitted.pipeInput(ip(0), AdmittedUrls.of(1, List.of(
                new AdmittedUrls.Entry(third, ip(0), Fingerprints.url(third)))));
        assertThat(store.puts()).isEqualTo(3);
        for (double s : new double[] {0.8, 0.76, 3.0, 40.0}) { // bucket changes and a change within a bucket
            d.scores.pipeInput(ip(0), score(ip(0), third, Fingerprints.url(third), s));
        }
        d.scores.pipeInput(ip(0), score(ip(0), second, Fingerprints.url(second), 1.0));
        assertThat(store.puts()).as("a score reorders the pool only").isEqualTo(3);
        assertThat(store.deletes()).isZero();
        d.close();

        // a restart from what the changelog holds: every URL back, with the score it was admitted with (0 here);
        // the ranker's next score for the third puts it first again, the second's is still to come
        d = SchedulerDriver.of(config(SchedulerConfig.Order.PRIORITY), clock, store);
        d.scores.pipeInput(ip(0), score(ip(0), third, Fingerprints.url(third), 41.0));
        List<FetchRequest> all = crawlToTheEnd(3);
        assertThat(all).extracting(FetchRequest::url).containsExactly(third, first, second);
        assertThat(store.puts()).as("nor after the restart").isEqualTo(3);
        assertThat(store.entries()).isZero();
    }

    /** One score as the ranker publishes it: a batch of one entry. */
    private static RankScoreBatch score(String ip, String url, long fingerprint, double score) {
        return RankScoreBatch.of(List.of(RankScore.of(url, fingerprint, ip, score)));
    }
}
