package io.github.kcrawler.websim;

import static io.github.kcrawler.websim.TestHttp.getPage;
import static io.github.kcrawler.websim.TestHttp.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.handler.codec.DateFormatter;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Pages that change on their deterministic schedules, served on a fake clock. */
class ChangingPagesTest {

    private static final long UNIT_MS = 1_000;
    private static final AtomicLong NOW = new AtomicLong(ChangeSchedule.EPOCH_MS + 1_000_000_000L);
    private static final InstantSource FAKE = () -> Instant.ofEpochMilli(NOW.get());
    private static WebSim sim;

    @BeforeAll
    static void start() throws Exception {
        sim = WebSim.start(WebSimConfig.builder().generate(300).seed(5).ips(4).ioThreads(1)
                .changeModel(ChangeModel.ZIPF).changeUnitMs(UNIT_MS).changeMaxInterval(60).timeSource(FAKE).build());
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    @Test
    void etagAndBodyChangeExactlyAtTheVersionBoundary() {
        ChangeSchedule changes = sim.changes();
        for (int page = 0; page < 20; page++) {
            long v = changes.version(page, NOW.get());
            long boundary = changes.versionStartMillis(page, v + 1);
            NOW.set(boundary - 1);
            HttpResponse<byte[]> before = getPage(sim, page);
            NOW.set(boundary);
            HttpResponse<byte[]> at = getPage(sim, page);
            String etagBefore = before.headers().firstValue("etag").orElseThrow();
            String etagAt = at.headers().firstValue("etag").orElseThrow();
            assertThat(etagAt).as("page %d", page).isNotEqualTo(etagBefore);
            assertThat(text(before)).contains("revision " + v + "<");
            assertThat(text(at)).contains("revision " + (v + 1) + "<");
            assertThat(DateFormatter.parseHttpDate(at.headers().firstValue("last-modified").orElseThrow()).getTime())
                    .isEqualTo(boundary / 1000 * 1000);
            // nothing changes inside a version: just before the next boundary the page is the same
            NOW.set(changes.versionStartMillis(page, v + 2) - 1);
            HttpResponse<byte[]> late = getPage(sim, page);
            assertThat(late.headers().firstValue("etag")).hasValue(etagAt);
            assertThat(late.body()).isEqualTo(at.body());
            NOW.addAndGet(1 + 12_345);
        }
    }

    @Test
    void conditionalRequestsAre304UntilThePageChangesThen200() {
        ChangeSchedule changes = sim.changes();
        int page = 7;
        long v = changes.version(page, NOW.get());
        NOW.set(changes.versionStartMillis(page, v) + 1);
        HttpResponse<byte[]> first = getPage(sim, page);
        String etag = first.headers().firstValue("etag").orElseThrow();
        String lastModified = first.headers().firstValue("last-modified").orElseThrow();
        WebSimStats s0 = sim.stats();

        NOW.set(changes.versionStartMillis(page, v + 1) - 1);
        assertThat(getPage(sim, page, "If-None-Match", etag).statusCode()).isEqualTo(304);
        assertThat(getPage(sim, page, "If-Modified-Since", lastModified).statusCode()).isEqualTo(304);
        long lm = DateFormatter.parseHttpDate(lastModified).getTime();
        assertThat(getPage(sim, page, "If-Modified-Since", DateFormatter.format(new Date(lm + 1000))).statusCode())
                .isEqualTo(304);
        assertThat(getPage(sim, page, "If-None-Match", "\"somebody-else\"").statusCode()).isEqualTo(200);

        NOW.set(changes.versionStartMillis(page, v + 1));
        HttpResponse<byte[]> changed = getPage(sim, page, "If-None-Match", etag);
        assertThat(changed.statusCode()).isEqualTo(200);
        assertThat(text(changed)).contains("revision " + (v + 1) + "<");
        assertThat(getPage(sim, page, "If-Modified-Since", lastModified).statusCode()).isEqualTo(200);
        assertThat(getPage(sim, page, "If-None-Match", changed.headers().firstValue("etag").orElseThrow())
                .statusCode()).isEqualTo(304);

        WebSimStats s1 = sim.stats();
        assertThat(s1.conditionalNotModified() - s0.conditionalNotModified()).isEqualTo(4);
        assertThat(s1.conditionalOk() - s0.conditionalOk()).isEqualTo(3);
        assertThat(s1.conditionalChanged() - s0.conditionalChanged()).isEqualTo(2); // not the foreign tag
        assertThat(s1.toJson()).contains("\"conditionalChanged\":");
    }

    @Test
    void versionFollowsTheFormulaAndPhasesSpreadChanges() {
        ChangeSchedule changes = sim.changes();
        long t = NOW.get();
        int distinctPhaseSeconds = 0;
        for (int page = 0; page < 300; page++) {
            long interval = changes.intervalMs(page);
            long phase = changes.phaseMs(page);
            assertThat(interval).isBetween(UNIT_MS, 60 * UNIT_MS);
            assertThat(phase).isBetween(0L, interval - 1);
            assertThat(changes.version(page, t))
                    .isEqualTo(Math.floorDiv(t - ChangeSchedule.EPOCH_MS + phase, interval));
            long v = changes.version(page, t);
            assertThat(changes.versionStartMillis(page, v)).isLessThanOrEqualTo(t);
            assertThat(changes.nextChangeMillis(page, t)).isGreaterThan(t).isEqualTo(changes.versionStartMillis(page,
                    v + 1));
            distinctPhaseSeconds += phase % UNIT_MS != 0 ? 1 : 0;
        }
        assertThat(distinctPhaseSeconds).isGreaterThan(250);
    }

    @Test
    void zipfIntervalsFollowTheRankFrequencyLaw() {
        int pages = 200_000;
        int t = 1_000;
        ChangeSchedule changes = ChangeSchedule.of(WebSimConfig.builder().seed(9).changeModel(ChangeModel.ZIPF)
                .changeMaxInterval(t).build());
        long[] count = new long[t + 1];
        for (int p = 0; p < pages; p++) {
            count[changes.intervalUnits(p)]++;
        }
        IntervalDistribution zipf = IntervalDistribution.of(IntervalDistribution.Shape.ZIPF, t);
        for (int i = 1; i <= 10; i++) {
            double expected = pages * zipf.probability(i);
            // f(i) = N / (H_T · i); 5 sigma of a binomial count
            assertThat((double) count[i]).as("f(%d)", i)
                    .isBetween(expected - 5 * Math.sqrt(expected), expected + 5 * Math.sqrt(expected));
        }
        // rank-frequency over the tail: the pages in 100…999 are N/H_T · Σ 1/i ≈ N/H_T · ln 10
        long decade = 0;
        for (int i = 100; i < 1000; i++) {
            decade += count[i];
        }
        double expectedDecade = pages * (zipf.cumulative(999) - zipf.cumulative(99));
        assertThat((double) decade).isCloseTo(expectedDecade, org.assertj.core.data.Percentage.withPercentage(3));
        assertThat((double) count[1] / count[10]).isCloseTo(10.0, org.assertj.core.data.Offset.offset(1.0));
    }

    @Test
    void peakedIntervalsRiseToOneHundredThenFall() {
        int pages = 200_000;
        ChangeSchedule changes = ChangeSchedule.of(WebSimConfig.builder().seed(9).changeModel(ChangeModel.PEAKED)
                .changeMaxInterval(9_600).build());
        long[] count = new long[9_601];
        for (int p = 0; p < pages; p++) {
            count[changes.intervalUnits(p)]++;
        }
        IntervalDistribution peaked = IntervalDistribution.of(IntervalDistribution.Shape.PEAKED, 9_600);
        long low = 0;
        long mid = 0;
        for (int i = 1; i <= 50; i++) {
            low += count[i];
        }
        for (int i = 51; i <= 150; i++) {
            mid += count[i];
        }
        double expectedLow = pages * peaked.cumulative(50);
        double expectedMid = pages * (peaked.cumulative(150) - peaked.cumulative(50));
        assertThat((double) low).isBetween(expectedLow - 5 * Math.sqrt(expectedLow),
                expectedLow + 5 * Math.sqrt(expectedLow));
        assertThat((double) mid).isBetween(expectedMid - 5 * Math.sqrt(expectedMid),
                expectedMid + 5 * Math.sqrt(expectedMid));
        assertThat(mid).isGreaterThan(2 * low);
    }

    @Test
    void staticPagesNeverChange() {
        ChangeSchedule none = ChangeSchedule.of(WebSimConfig.defaults());
        assertThat(none.changing()).isFalse();
        assertThat(none.version(3, 0)).isZero();
        assertThat(none.version(3, Long.MAX_VALUE / 2)).isZero();
        assertThat(none.nextChangeMillis(3, 0)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void changeSettingsAreValidatedByName() {
        assertThatThrownBy(() -> WebSimConfig.builder().changeUnitMs(999).build())
                .hasMessageContaining("changeUnitMs").hasMessageContaining("999");
        assertThatThrownBy(() -> WebSimConfig.builder().changeMaxInterval(0).build())
                .hasMessageContaining("changeMaxInterval").hasMessageContaining("0");
        assertThatThrownBy(() -> WebSimConfig.builder().changeModel(null).build())
                .hasMessageContaining("changeModel");
        assertThatThrownBy(() -> WebSimConfig.builder().timeSource(null).build())
                .hasMessageContaining("timeSource");
    }
}
