package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.model.AdmittedUrls;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.ForgetUrl;
import io.github.kcrawler.common.model.RankScore;
import io.github.kcrawler.common.model.RankScoreBatch;
import io.github.kcrawler.common.time.ManualClock;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.kafka.embedded.SurvivingStoreSupplier;
import io.github.kcrawler.scheduler.SchedulerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The scheduler topology under TopologyTestDriver ({@link SchedulerDriver}: the wall clock and the scheduler's clock
 * moved together).
 */
class SchedulerTopologyTest {
    private static final long T = 1000;
    private static final long TICK = 20;
    private static final long START = SchedulerDriver.START;
    private static final Topics TOPICS = SchedulerDriver.TOPICS;

    private final Path stateDir = Path.of("target", "ttd-state", UUID.randomUUID().toString());
    private final ManualClock clock = new ManualClock(START);
    private SchedulerDriver d;
    /** Admissions one URL a record, as a group of one whose entry takes the record key as its IP. */
    private final Admissions admitted = new Admissions();

    /** Paper 004's wheel at its defaults (B = H = 1024, pipelined: steps of T/2, released 250 ms ahead). */
    private SchedulerConfig config(int maxPending) {
        KafkaSettings kafka = new KafkaSettings("127.0.0.1:1", "", 1, stateDir, Map.of());
        return new SchedulerConfig(kafka, T, TICK, maxPending, 1000, 1, 100, "127.0.0.1", 0,
                SchedulerConfig.Wheel.defaults(), SchedulerConfig.Revisit.defaults());
    }

    /** Opens a driver on the service's own topology (pending URLs in RocksDB under the state directory). */
    private void open(SchedulerConfig config) {
        d = SchedulerDriver.of(config, clock);
    }

    /** Opens a driver whose pending store keeps its contents across drivers, as a changelog restore would. */
    private LocalFrontiers open(SchedulerConfig config, SurvivingStoreSupplier store) {
        d = SchedulerDriver.of(config, clock, store);
        return d.frontiers;
    }

    @AfterEach
    void close() {
        if (d != null) {
            d.close();
        }
    }

    private static AdmittedUrls.Entry url(String url) {
        return new AdmittedUrls.Entry(url, null, Fingerprints.url(url));
    }

    private final class Admissions {
        void pipeInput(String key, AdmittedUrls.Entry entry) {
            d.admitted.pipeInput(key, AdmittedUrls.of(1, List.of(entry)));
        }

        void pipeInput(String key, AdmittedUrls batch) {
            d.admitted.pipeInput(key, batch);
        }
    }

    private double counter(String name, String... tags) {
        return d.counter(name, tags);
    }

    private void advance(long millis) {
        d.advance(millis);
    }

    private static FetchResult fetched(String url, int status, String hash, String etag) {
        FetchOutcome outcome = status == 200 ? FetchOutcome.OK : status == 304 ? FetchOutcome.NOT_MODIFIED
                : FetchOutcome.HTTP_ERROR;
        return new FetchResult(FetchResult.VERSION, url, Fingerprints.url(url), 1, 0, FetchKind.NEW, status, outcome,
                START, 0, 1, hash, 10, "text/html", null, etag, "Tue, 01 Dec 2026 00:00:00 GMT", 0, null);
    }

    /** What the fetcher does: the result of a request carries the request's kind and revisit state back. */
    static FetchResult echo(FetchResult f, FetchRequest req) {
        return new FetchResult(f.v(), f.url(), f.fingerprint(), f.depth(), req.step(), req.kind(), f.status(),
                f.outcome(), f.fetchedAt(), f.dnsMillis(), f.fetchMillis(), f.contentHash(), f.length(),
                f.contentType(), f.redirectTarget(), f.etag(), f.lastModified(), f.outlinks(), f.error(),
                req.revisit());
    }

    /** Issue 6: a fetched page comes back as a conditional revisit when due, through the same frontier. */
    @Test
    void fetchedPage_isRevisitedWithItsValidators_andAGonePageIsNot() {
        SchedulerConfig c = config(100).withRevisit(new SchedulerConfig.Revisit(true, 100, 500, 100, 10_000,
                1 << 20));
        open(c);
        admitted.pipeInput("10.0.0.1", url("http://a.test/"));
        admitted.pipeInput("10.0.0.2", url("http://b.test/"));
        advance(T);
        assertThat(d.requests.readValuesToList()).extracting(FetchRequest::kind).containsExactly(FetchKind.NEW,
                FetchKind.NEW);
        d.results.pipeInput("10.0.0.1", fetched("http://a.test/", 200, "aa", "\"v1\""));
        d.results.pipeInput("10.0.0.2", fetched("http://b.test/", 200, "bb", "\"w1\""));
        advance(400);
        assertThat(d.requests.isEmpty()).as("not due before the initial interval").isTrue();
        d.results.pipeInput("10.0.0.2", fetched("http://b.test/", 410, null, null)); // b is gone
        advance(1_500); // due after 500 ms; then released at the next step of its residue
        List<FetchRequest> revisits = d.requests.readValuesToList();
        assertThat(revisits).hasSize(1);
        FetchRequest r = revisits.get(0);
        assertThat(r.url()).isEqualTo("http://a.test/");
        assertThat(r.kind()).isEqualTo(FetchKind.REVISIT);
        // the validators are sent once, in the memo (the request's own fields stay null)
        assertThat(r.etag()).isNull();
        assertThat(r.lastModified()).isNull();
        assertThat(r.revisit().etag()).isEqualTo("\"v1\"");
        assertThat(r.revisit().lastModified()).isEqualTo("Tue, 01 Dec 2026 00:00:00 GMT");
        assertThat(counter(MetricNames.SCHEDULER_REVISITS, "outcome", "first")).isEqualTo(2);
        assertThat(counter(MetricNames.SCHEDULER_REVISITS, "outcome", "gone")).isEqualTo(1);
        var early = d.registry.find(MetricNames.SCHEDULER_REVISIT_EARLY_FRACTION).summary();
        assertThat(early.count()).as("each due revisit is measured").isEqualTo(1);
        assertThat(early.totalAmount()).as("5 units ahead SAT/L's resolution is 1 unit: on time").isZero();

        assertThat(r.revisit()).as("the state travels with the request (issue 22)").isNotNull();
        assertThat(r.revisit().visits()).isZero();
        assertThat(r.revisit().contentHash()).isEqualTo("aa");
        FetchResult notModified = fetched("http://a.test/", 304, null, null);
        d.results.pipeInput("10.0.0.1", echo(notModified, r)); // unchanged; the fetcher echoes the state
        assertThat(counter(MetricNames.SCHEDULER_REVISITS, "outcome", "unchanged")).isEqualTo(1);
        advance(2_000);
        assertThat(d.requests.isEmpty()).as("never seen to change: the next interval is the maximum").isTrue();
    }

    @Test
    void shouldReleaseAnAdmittedUrlAsAFetchRequestAtTheFirstStepOfItsResidue() {
        open(config(100));
        long fingerprint = Fingerprints.url("http://a.test/");
        admitted.pipeInput("10.0.0.1", AdmittedUrls.of(2, List.of(new AdmittedUrls.Entry("http://a.test/", "10.0.0.1",
                fingerprint))));
        assertThat(d.service.frontierSize()).isEqualTo(1);
        assertThat(d.service.activeIps()).isEqualTo(1);
        advance(T); // steps at notBefore START + T/2 and START + T, each released 250 ms ahead: one has its parity
        KeyValue<String, FetchRequest> out = d.requests.readKeyValue();
        assertThat(out.key).isEqualTo("10.0.0.1");
        assertThat(out.value.url()).isEqualTo("http://a.test/");
        assertThat(out.value.fingerprint()).isEqualTo(fingerprint);
        assertThat(out.value.depth()).isEqualTo(2);
        assertThat(out.value.kind()).isEqualTo(FetchKind.NEW);
        assertThat(out.value.notBefore()).isIn(START + T / 2, START + T);
        assertThat(out.value.v()).isEqualTo(FetchRequest.VERSION);
        assertThat(d.service.frontierSize()).isZero();
        assertThat(d.service.released()).isEqualTo(1);
        assertThat(d.registry.get(MetricNames.FRONTIER_SIZE).gauge().value()).isZero();
    }

    @Test
    void shouldKeepAtLeastTBetweenRequestsForOneIp() {
        open(config(100));
        for (int i = 0; i < 4; i++) {
            admitted.pipeInput("10.0.0.1", url("http://a.test/" + i));
        }
        admitted.pipeInput("10.0.0.2", url("http://b.test/"));
        advance(T);
        List<KeyValue<String, FetchRequest>> first = d.requests.readKeyValuesToList();
        assertThat(first).extracting(kv -> kv.key).as("one per IP in two steps")
                .containsExactlyInAnyOrder("10.0.0.1", "10.0.0.2");
        assertThat(d.registry.get(MetricNames.SCHEDULER_ACTIVE_IPS).gauge().value()).isEqualTo(1);
        advance(4 * T);
        List<FetchRequest> a = new ArrayList<>();
        first.stream().filter(kv -> kv.key.equals("10.0.0.1")).forEach(kv -> a.add(kv.value));
        a.addAll(d.requests.readValuesToList());
        assertThat(a).extracting(FetchRequest::url).containsExactly("http://a.test/0", "http://a.test/1",
                "http://a.test/2", "http://a.test/3");
        for (int i = 1; i < a.size(); i++) {
            assertThat(a.get(i).notBefore() - a.get(i - 1).notBefore()).as("notBefore of request %d", i)
                    .isGreaterThanOrEqualTo(T);
        }
    }

    /** One score as the ranker now publishes it: an entry of a batch (host 10.0.0.1, as the tests key it). */
    private static RankScoreBatch scoreBatch(String url, long fingerprint, double score) {
        return RankScoreBatch.of(List.of(RankScore.of(url, fingerprint, "10.0.0.1", score)));
    }

    @Test
    void shouldReleaseTheBestScoredUrlFirstUsingScoresThatArriveBeforeOrAfterAdmission() {
        open(config(100));
        AdmittedUrls.Entry low = url("http://a.test/low");
        AdmittedUrls.Entry high = url("http://a.test/high");
        AdmittedUrls.Entry early = url("http://a.test/early");
        AdmittedUrls.Entry plain = url("http://a.test/plain");
        d.scores.pipeInput("10.0.0.1", scoreBatch(early.url(), early.fingerprint(), 0.5));
        admitted.pipeInput("10.0.0.1", plain);
        admitted.pipeInput("10.0.0.1", low);
        admitted.pipeInput("10.0.0.1", high);
        admitted.pipeInput("10.0.0.1", early);
        d.scores.pipeInput("10.0.0.1", scoreBatch(high.url(), high.fingerprint(), 0.9));
        d.scores.pipeInput("10.0.0.1", scoreBatch(low.url(), low.fingerprint(), -0.2));
        advance(4 * T);
        assertThat(d.requests.readValuesToList()).extracting(FetchRequest::url)
                .containsExactly(high.url(), early.url(), plain.url(), low.url());
    }

    /**
     * Thirty-fourth session ({@code LinkShare}): an admitted URL starts at its record's link share, or at the ranker's
     * score if that came first and is larger; the ranker's later score replaces it; a share that cannot be used is
     * counted and its URL admitted at 0. A first-fetch request carries the URL's score at its release.
     */
    @Test
    void shouldAdmitUrlsAtTheirLinkShare_untilTheRankerScoresThem_andSendTheScoreWithTheRequest() {
        open(config(100));
        AdmittedUrls.Entry small = url("http://a.test/small");
        AdmittedUrls.Entry big = url("http://a.test/big");
        AdmittedUrls.Entry early = url("http://a.test/early");
        AdmittedUrls.Entry rescored = url("http://a.test/rescored");
        AdmittedUrls.Entry bad = url("http://a.test/bad");
        d.scores.pipeInput("10.0.0.1", scoreBatch(early.url(), early.fingerprint(), 0.9));
        admitted.pipeInput("10.0.0.1", AdmittedUrls.of(1, List.of(small), 0.2));
        admitted.pipeInput("10.0.0.1", AdmittedUrls.of(1, List.of(big), 0.6));
        admitted.pipeInput("10.0.0.1", AdmittedUrls.of(1, List.of(early), 0.3));
        admitted.pipeInput("10.0.0.1", AdmittedUrls.of(1, List.of(rescored), 0.5));
        admitted.pipeInput("10.0.0.1", AdmittedUrls.of(1, List.of(bad), -1.0));
        d.scores.pipeInput("10.0.0.1", scoreBatch(rescored.url(), rescored.fingerprint(), 0.1));
        advance(8 * T); // one request per T for the one IP; five may be in flight without a result
        assertThat(d.requests.readValuesToList()).extracting(FetchRequest::url, FetchRequest::score).containsExactly(
                tuple(early.url(), 0.9), tuple(big.url(), 0.6), tuple(small.url(), 0.2), tuple(rescored.url(), 0.1),
                tuple(bad.url(), 0.0));
        assertThat(counter(MetricNames.BAD_RECORDS, "topic", TOPICS.admitted.name(), "reason", "invalid-amount"))
                .isEqualTo(1);
    }

    @Test
    void shouldApplyEachEntryOfAScoreBatch_countingBadEntriesAndTheOldSingleScoreFormat() {
        open(config(100));
        AdmittedUrls.Entry low = url("http://a.test/low");
        AdmittedUrls.Entry mid = url("http://a.test/mid");
        AdmittedUrls.Entry high = url("http://a.test/high");
        admitted.pipeInput("10.0.0.1", low);
        admitted.pipeInput("10.0.0.1", mid);
        admitted.pipeInput("10.0.0.1", high);
        d.scores.pipeInput("10.0.0.1", RankScoreBatch.of(List.of(
                RankScore.of(low.url(), low.fingerprint(), "10.0.0.1", 0.1),
                RankScore.of(high.url(), 12345, "10.0.0.1", 0.0), // wrong fingerprint: counted, the rest is used
                RankScore.of(high.url(), high.fingerprint(), "10.0.0.1", 0.9),
                RankScore.of(mid.url(), mid.fingerprint(), "10.0.0.1", 0.5))));
        TestInputTopic<String, String> rawScores = d.driver.createInputTopic(TOPICS.rankScores.name(),
                new StringSerializer(), new StringSerializer());
        rawScores.pipeInput("10.0.0.1", "{\"v\":1,\"url\":\"" + low.url() + "\",\"fingerprint\":"
                + low.fingerprint() + ",\"score\":99.0}"); // format 1: one score per record
        rawScores.pipeInput("10.0.0.1", "{\"v\":2,\"scores\":null}");
        advance(4 * T);
        assertThat(d.requests.readValuesToList()).extracting(FetchRequest::url)
                .containsExactly(high.url(), mid.url(), low.url());
        String topic = TOPICS.rankScores.name();
        assertThat(counter(MetricNames.BAD_RECORDS, "topic", topic, "reason", "fingerprint-mismatch")).isEqualTo(1);
        assertThat(counter(MetricNames.BAD_RECORDS, "topic", topic, "reason", "unsupported-version")).isEqualTo(1);
        assertThat(counter(MetricNames.BAD_RECORDS, "topic", topic, "reason", "malformed")).isEqualTo(1);
    }

    /** Paper 004's wheel as published (FIFO) refuses a URL whose residue is full: dropped and forgotten. */
    @Test
    void shouldDropAndForgetUrlsTheWheelRefuses() {
        SchedulerConfig.Wheel tiny = new SchedulerConfig.Wheel(SchedulerConfig.Order.FIFO, 2, 2, T); // B/2 = 1
        open(config(100).withWheel(tiny));
        admitted.pipeInput("10.0.0.1", url("http://a.test/1"));
        admitted.pipeInput("10.0.0.1", url("http://a.test/2")); // its residue holds a/1: refused
        admitted.pipeInput("10.0.0.1", url("http://a.test/1")); // still pending: duplicate, no forget
        List<KeyValue<String, ForgetUrl>> forgotten = d.forgets.readKeyValuesToList();
        assertThat(forgotten).extracting(kv -> kv.key).containsExactly("10.0.0.1");
        assertThat(forgotten).extracting(kv -> kv.value.url()).containsExactly("http://a.test/2");
        assertThat(forgotten).extracting(kv -> kv.value.reason()).containsOnly("frontier-full");
        assertThat(forgotten.get(0).value.fingerprint()).isEqualTo(url("http://a.test/2").fingerprint());
        assertThat(counter(MetricNames.SCHEDULER_DROPPED, "reason", "ip-full")).isEqualTo(1);
        assertThat(counter(MetricNames.SCHEDULER_DROPPED, "reason", "duplicate")).isEqualTo(1);
        assertThat(d.service.frontierSize()).isEqualTo(1);
        advance(2 * T);
        assertThat(d.requests.readValuesToList()).extracting(FetchRequest::url).containsExactly("http://a.test/1");
    }

    /** Issue 19: one admitted record holds several IPs of the partition; each entry is admitted under its own IP. */
    @Test
    void shouldAdmitEachEntryOfABatchAsALoneAdmissionUnderItsOwnIp() {
        open(config(100));
        admitted.pipeInput("10.0.0.1", AdmittedUrls.of(1, List.of(entry("http://a.test/1", "10.0.0.1"),
                entry("http://a.test/2", "10.0.0.1"),
                entry("http://b.test/1", "10.0.0.2"),
                new AdmittedUrls.Entry(null, "10.0.0.2", 1), // unusable: counted, the rest of the record is used
                new AdmittedUrls.Entry("http://b.test/x", "10.0.0.2", 42), // fingerprint mismatch
                new AdmittedUrls.Entry("http://b.test/y", "y".repeat(500), Fingerprints.url("http://b.test/y")),
                entry("http://c.test/1", "10.0.0.3"),
                entry("http://b.test/1", "10.0.0.2")))); // still pending: duplicate, no forget
        assertThat(d.service.frontierSize()).isEqualTo(4);
        assertThat(d.service.activeIps()).isEqualTo(3);
        assertThat(d.forgets.isEmpty()).isTrue();
        String topic = TOPICS.admitted.name();
        assertThat(counter(MetricNames.BAD_RECORDS, "topic", topic, "reason", "blank-url")).isEqualTo(1);
        assertThat(counter(MetricNames.BAD_RECORDS, "topic", topic, "reason", "fingerprint-mismatch")).isEqualTo(1);
        assertThat(counter(MetricNames.BAD_RECORDS, "topic", topic, "reason", "missing-key")).isEqualTo(1);
        assertThat(counter(MetricNames.SCHEDULER_DROPPED, "reason", "duplicate")).isEqualTo(1);
        advance(3 * T);
        List<KeyValue<String, FetchRequest>> out = d.requests.readKeyValuesToList();
        assertThat(out).extracting(kv -> kv.key + " " + kv.value.url()).containsExactlyInAnyOrder(
                "10.0.0.1 http://a.test/1", "10.0.0.1 http://a.test/2", "10.0.0.2 http://b.test/1",
                "10.0.0.3 http://c.test/1");
        assertThat(out).allSatisfy(kv -> assertThat(kv.value.depth()).isEqualTo(1));
    }

    /** An admitted record of format 1 (one URL, keyed by its IP), as written before issue 19, is still admitted. */
    @Test
    void shouldAdmitAFormatOneRecord() {
        open(config(100));
        d.rawAdmitted.pipeInput("10.0.0.7", ("{\"v\":1,\"url\":\"http://old.test/\",\"depth\":4,\"fingerprint\":"
                + Fingerprints.url("http://old.test/") + "}").getBytes(StandardCharsets.UTF_8));
        advance(T);
        KeyValue<String, FetchRequest> out = d.requests.readKeyValue();
        assertThat(out.key).isEqualTo("10.0.0.7");
        assertThat(out.value.url()).isEqualTo("http://old.test/");
        assertThat(out.value.depth()).isEqualTo(4);
    }

    private static AdmittedUrls.Entry entry(String url, String ip) {
        return new AdmittedUrls.Entry(url, ip, Fingerprints.url(url));
    }

    @Test
    void shouldCountAndSkipRecordsItCannotUse() {
        open(config(100));
        String admittedTopic = TOPICS.admitted.name();
        d.rawAdmitted.pipeInput("10.0.0.1", "{not json".getBytes(StandardCharsets.UTF_8));
        d.rawAdmitted.pipeInput("10.0.0.1", (byte[]) null);
        admitted.pipeInput((String) null, url("http://a.test/no-key"));
        admitted.pipeInput("x".repeat(500), url("http://a.test/long-key"));
        admitted.pipeInput("10.0.0.1", new AdmittedUrls.Entry(null, null, 1));
        admitted.pipeInput("10.0.0.1", AdmittedUrls.of(-1, List.of(url("http://a.test/neg"))));
        admitted.pipeInput("10.0.0.1", new AdmittedUrls.Entry("http://a.test/other", null, 12345));
        admitted.pipeInput("10.0.0.1", new AdmittedUrls(99, 0, List.of(url("http://a.test/future"))));
        d.scores.pipeInput("10.0.0.1", scoreBatch("http://a.test/", Fingerprints.url("http://a.test/"), Double.NaN));
        d.scores.pipeInput("10.0.0.1", scoreBatch("http://a.test/", 7, 0.5));
        d.results.pipeInput("", fetchResult("http://a.test/", START));
        admitted.pipeInput("10.0.0.1", url("http://a.test/ok"));
        assertThat(counter(MetricNames.BAD_RECORDS, "topic", admittedTopic, "reason", "malformed")).isEqualTo(1);
        assertThat(counter(MetricNames.BAD_RECORDS, "topic", admittedTopic, "reason", "null-value")).isEqualTo(1);
        assertThat(counter(MetricNames.BAD_RECORDS, "topic", admittedTopic, "reason", "missing-key")).isEqualTo(2);
        assertThat(counter(MetricNames.BAD_RECORDS, "topic", admittedTopic, "reason", "blank-url")).isEqualTo(1);
        assertThat(counter(MetricNames.BAD_RECORDS, "topic", admittedTopic, "reason", "negative-depth")).isEqualTo(1);
        assertThat(counter(MetricNames.BAD_RECORDS, "topic", admittedTopic, "reason", "fingerprint-mismatch"))
                .isEqualTo(1);
        assertThat(counter(MetricNames.BAD_RECORDS, "topic", admittedTopic, "reason", "unsupported-version"))
                .isEqualTo(1);
        String scoresTopic = TOPICS.rankScores.name();
        assertThat(counter(MetricNames.BAD_RECORDS, "topic", scoresTopic, "reason", "invalid-amount")).isEqualTo(1);
        assertThat(counter(MetricNames.BAD_RECORDS, "topic", scoresTopic, "reason", "fingerprint-mismatch"))
                .isEqualTo(1);
        assertThat(counter(MetricNames.BAD_RECORDS, "topic", TOPICS.fetchResults.name(), "reason", "missing-key"))
                .isEqualTo(1);
        assertThat(d.registry.find(MetricNames.BAD_RECORDS).tags("topic", SchedulerTopology.PENDING_STORE).counters())
                .as("registered up front").isNotEmpty();
        advance(T);
        assertThat(d.requests.readValuesToList()).extracting(FetchRequest::url).containsExactly("http://a.test/ok");
    }

    @Test
    void shouldReleasePendingUrlsAfterARestartFromTheStoredState() {
        SchedulerConfig config = config(100);
        SurvivingStoreSupplier store = new SurvivingStoreSupplier(SchedulerTopology.PENDING_STORE);
        open(config, store);
        for (int i = 0; i < 3; i++) {
            for (String ip : List.of("10.0.0.1", "10.0.0.2")) {
                admitted.pipeInput(ip, url("http://" + ip + "/" + i));
            }
        }
        AdmittedUrls.Entry best = url("http://10.0.0.1/1");
        d.scores.pipeInput("10.0.0.1", scoreBatch(best.url(), best.fingerprint(), 1));
        advance(T); // two steps: one request per IP
        List<FetchRequest> before = d.requests.readValuesToList();
        assertThat(before).extracting(FetchRequest::url).containsExactlyInAnyOrder(best.url(), "http://10.0.0.2/0");
        d.close();
        d = null;
        assertThat(store.entries()).as("released URLs left the store, pending ones stayed").isEqualTo(4);

        LocalFrontiers restarted = open(config, store);
        assertThat(restarted.size()).isEqualTo(4);
        assertThat(restarted.activeIps()).isEqualTo(2);
        advance(3 * T);
        List<FetchRequest> after = d.requests.readValuesToList();
        assertThat(after).extracting(FetchRequest::url).containsExactlyInAnyOrder("http://10.0.0.1/0",
                "http://10.0.0.1/2", "http://10.0.0.2/1", "http://10.0.0.2/2");
        assertThat(after.stream().filter(r -> r.url().startsWith("http://10.0.0.1/")).map(FetchRequest::url))
                .as("FIFO among equal scores survives the restart").containsExactly("http://10.0.0.1/0",
                        "http://10.0.0.1/2");
        assertThat(store.entries()).isZero();
    }

    /**
     * A restart restores each pending URL with the score it was admitted with: one that arrived before the admission
     * (the score cache) is stored with it; one that arrived after reorders the live frontier only (SchedulerProcessor,
     * "Store writes").
     */
    @Test
    void shouldRestoreAPendingUrlWithTheScoreItWasAdmittedWith() {
        SchedulerConfig config = config(100);
        SurvivingStoreSupplier store = new SurvivingStoreSupplier(SchedulerTopology.PENDING_STORE);
        open(config, store);
        AdmittedUrls.Entry first = url("http://a.test/first");
        AdmittedUrls.Entry second = url("http://a.test/second");
        admitted.pipeInput("10.0.0.1", first);
        d.scores.pipeInput("10.0.0.1", scoreBatch(second.url(), second.fingerprint(), 0.8)); // before its admission
        admitted.pipeInput("10.0.0.1", second);
        d.scores.pipeInput("10.0.0.1", scoreBatch(first.url(), first.fingerprint(), 0.9)); // after: not stored
        assertThat(store.puts()).as("one put per admission, none per score").isEqualTo(2);
        d.close();
        d = null;

        open(config, store);
        advance(2 * T);
        assertThat(d.requests.readValuesToList()).extracting(FetchRequest::url).containsExactly(second.url(),
                first.url());
    }

    private static FetchResult fetchResult(String url, long fetchedAt) {
        return new FetchResult(FetchResult.VERSION, url, Fingerprints.url(url), 1, 0, FetchKind.NEW, 200,
                FetchOutcome.OK, fetchedAt, 1, 5, null, 10, "text/html", null, null, null, 0, null);
    }
}
