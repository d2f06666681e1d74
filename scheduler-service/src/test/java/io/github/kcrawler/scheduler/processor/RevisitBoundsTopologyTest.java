package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.model.AdmittedUrls;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.time.ManualClock;
import io.github.kcrawler.scheduler.SchedulerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 20, defence in depth: a fetch result whose validators do not fit a SAT/L record (an older fetcher, another
 * producer) must not throw in the scheduler's revisit path — the repro was a 6,000-byte ETag that made
 * {@code BucketFileStore.schedule} throw on every replay. The page keeps its revisit state without the validators.
 */
class RevisitBoundsTopologyTest {
    private static final long T = 1000;
    private static final long TICK = 20;
    private static final long START = SchedulerDriver.START;

    private final Path stateDir = Path.of("target", "ttd-state", UUID.randomUUID().toString());
    private final ManualClock clock = new ManualClock(START);
    private SchedulerDriver d;

    private void open() {
        KafkaSettings kafka = new KafkaSettings("127.0.0.1:1", "", 1, stateDir, Map.of());
        SchedulerConfig config = new SchedulerConfig(kafka, T, TICK, 100, 1000, 1, 100, "127.0.0.1", 0,
                SchedulerConfig.Wheel.defaults(),
                SchedulerConfig.Revisit.defaults())
                .withRevisit(new SchedulerConfig.Revisit(true, 100, 500, 100, 10_000, 1 << 20));
        d = SchedulerDriver.of(config, clock);
    }

    @AfterEach
    void close() {
        if (d != null) {
            d.close();
        }
    }

    private double bounded(String fit) {
        var c = d.registry.find(MetricNames.SCHEDULER_REVISITS_BOUNDED).tags("fit", fit).counter();
        return c == null ? 0 : c.count();
    }

    private static FetchResult ok(String url, String etag, String lastModified) {
        return new FetchResult(FetchResult.VERSION, url, Fingerprints.url(url), 1, 0, FetchKind.NEW, 200,
                FetchOutcome.OK, START, 0, 1, "aa", 10, "text/html", null, etag, lastModified, 0, null);
    }

    @Test
    void aSixThousandByteEtagLosesItsValidatorsAndThePageIsStillRevisited() {
        open();
        d.admitted.pipeInput("10.0.0.1", AdmittedUrls.of(1, List.of(
                new AdmittedUrls.Entry("http://a.test/", "10.0.0.1", Fingerprints.url("http://a.test/")))));
        d.advance(T); // the wheel's first two steps (T/2 apart): one has the residue's parity
        assertThat(d.requests.readValuesToList()).hasSize(1);
        d.results.pipeInput("10.0.0.1", ok("http://a.test/", "\"" + "e".repeat(5998) + "\"",
                "Tue, 01 Dec 2026 00:00:00 GMT")); // threw IllegalArgumentException before issue 20
        assertThat(bounded("validators_dropped")).isEqualTo(1);
        d.advance(2_000); // due 500 ms after the result, then the next step of its residue
        List<FetchRequest> revisits = d.requests.readValuesToList();
        assertThat(revisits).hasSize(1);
        assertThat(revisits.get(0).kind()).isEqualTo(FetchKind.REVISIT);
        assertThat(revisits.get(0).url()).isEqualTo("http://a.test/");
        assertThat(revisits.get(0).etag()).as("sent once, in the memo").isNull();
        assertThat(revisits.get(0).lastModified()).as("sent once, in the memo").isNull();
        assertThat(revisits.get(0).revisit().lastModified()).as("a valid validator is kept (issue 22: each one "
                + "bounded alone)").isEqualTo("Tue, 01 Dec 2026 00:00:00 GMT");
        assertThat(revisits.get(0).revisit().etag()).as("an unconditional GET: a cut ETag is another validator")
                .isNull();
        assertThat(counterOf("first")).isEqualTo(1);
    }

    @Test
    void aPageWhoseUrlAloneDoesNotFitIsNotRevisitedAndTheOthersAre() {
        open();
        String huge = "http://b.test/" + "u".repeat(5000); // not from our fetcher: max-url-length is 2,048
        d.results.pipeInput("10.0.0.2", ok(huge, null, null));
        d.results.pipeInput("10.0.0.1", ok("http://a.test/", "\"v1\"", null));
        assertThat(bounded("too_large")).isEqualTo(1);
        assertThat(bounded("validators_dropped")).isZero();
        d.advance(2_000); // due 500 ms after the result, then the next step of its residue
        List<FetchRequest> revisits = d.requests.readValuesToList();
        assertThat(revisits).extracting(FetchRequest::url).containsExactly("http://a.test/");
        assertThat(revisits.get(0).etag()).isNull();
        assertThat(revisits.get(0).revisit().etag()).isEqualTo("\"v1\"");
    }

    private double counterOf(String outcome) {
        return d.registry.find(MetricNames.SCHEDULER_REVISITS).tags("outcome", outcome).counter().count();
    }
}
