package io.github.kcrawler.lab.soak;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The verdict on constructed series: 15 minutes, samples every 10 s, 1-minute windows, 3-minute warm-up. */
class FlatnessTest {
    private static final double END = 900;
    private static final double WARMUP = 180;
    private static final long MIB = 1 << 20;

    /** Cumulative counts of a rate r(t) pages/s, integrated per second. */
    private static List<Flatness.Sample> samples(DoubleUnaryOperator rate) {
        List<Flatness.Sample> out = new ArrayList<>();
        double count = 0;
        for (int t = 0; t <= END; t++) {
            if (t % 10 == 0) {
                out.add(new Flatness.Sample(t, Math.round(count)));
            }
            count += rate.applyAsDouble(t);
        }
        return out;
    }

    /** A G1-like sawtooth: one GC every 2 s, heap after GC climbing 200→300 MiB and dropping every 60 s, plus drift. */
    private static List<Flatness.HeapPoint> heap(double driftMibPerMinute) {
        List<Flatness.HeapPoint> out = new ArrayList<>();
        for (double t = 1; t < END; t += 2) {
            double mib = 200 + 100 * ((t % 60) / 60) + driftMibPerMinute * t / 60;
            out.add(new Flatness.HeapPoint(t, (long) (mib * MIB)));
        }
        return out;
    }

    @Test
    void steadyRateAndSawtoothHeap_isFlat() {
        // slow start (warm-up), then 400 pages/s with a ±5 % wobble
        Flatness.Verdict v = Flatness.judge(samples(t -> t < 120 ? t * 3 : 400 * (1 + 0.05 * Math.sin(t / 30.0))),
                heap(0), WARMUP, END, 60, 0.10);

        assertThat(v.windows()).hasSize(12);
        assertThat(v.windows().get(0).fromSeconds()).isEqualTo(WARMUP);
        assertThat(v.meanRate()).isCloseTo(400, within(10.0));
        assertThat(v.maxRateDeviation()).isLessThan(0.06).isGreaterThan(0.01);
        assertThat(v.rateFlat()).isTrue();
        // the sawtooth's phase at the quarter boundaries moves both figures a little, far inside 10 %
        assertThat(Math.abs(v.heap().trend())).isLessThan(0.05);
        assertThat(Math.abs(v.heap().quarterChange())).isLessThan(0.05);
        assertThat(v.heap().minBytes()).isGreaterThanOrEqualTo(200 * MIB);
        assertThat(v.heap().maxBytes()).isLessThanOrEqualTo(300 * MIB);
        assertThat(v.heapFlat()).isTrue();
        assertThat(v.flat()).isTrue();
        assertThat(v.reasons()).isEmpty();
    }

    @Test
    void rateDecliningAfterWarmup_isNotFlat_andNamesTheDeviation() {
        // 400 pages/s falling linearly to 280 pages/s at the end: the last windows are ~15 % under the mean
        Flatness.Verdict v = Flatness.judge(samples(t -> 400 - 120 * t / END), heap(0), WARMUP, END, 60, 0.10);

        assertThat(v.rateFlat()).isFalse();
        assertThat(v.maxRateDeviation()).isGreaterThan(0.10).isLessThan(0.25);
        assertThat(v.windows().get(11).deviation()).isNegative();
        assertThat(v.heapFlat()).isTrue();
        assertThat(v.flat()).isFalse();
        assertThat(v.reasons()).singleElement().asString().contains("rate window deviates");
    }

    @Test
    void oneSlowWindow_isNotFlat() {
        // a 60 s stall to half speed (e.g. a long compaction) in minute 10
        Flatness.Verdict v = Flatness.judge(samples(t -> t >= 600 && t < 660 ? 200 : 400), heap(0), WARMUP, END, 60,
                0.10);

        assertThat(v.rateFlat()).isFalse();
        assertThat(v.windows().stream().filter(w -> w.deviation() < -0.4)).hasSize(1);
    }

    @Test
    void heapLeak_isNotFlat_byTrendAndByQuarters() {
        // +8 MiB per minute: ~96 MiB over the 12 judged minutes on a ~300 MiB mean
        Flatness.Verdict v = Flatness.judge(samples(t -> 400), heap(8), WARMUP, END, 60, 0.10);

        assertThat(v.rateFlat()).isTrue();
        assertThat(v.heap().slopeBytesPerSecond()).isCloseTo(8.0 * MIB / 60, within(0.15 * 8 * MIB / 60));
        assertThat(v.heap().trend()).isGreaterThan(0.10);
        assertThat(v.heap().quarterChange()).isGreaterThan(0.10);
        assertThat(v.heapFlat()).isFalse();
        assertThat(v.flat()).isFalse();
        assertThat(v.reasons()).hasSize(2);
    }

    @Test
    void fallingHeap_isNoUpwardTrend_butTheQuartersMustStillAgree() {
        Flatness.Verdict slight = Flatness.judge(samples(t -> 400), heap(-1), WARMUP, END, 60, 0.10);
        assertThat(slight.heap().trend()).isNegative();
        assertThat(slight.heapFlat()).isTrue();

        Flatness.Verdict steep = Flatness.judge(samples(t -> 400), heap(-10), WARMUP, END, 60, 0.10);
        assertThat(steep.heapFlat()).isFalse();
        assertThat(steep.reasons()).singleElement().asString().contains("last quarter");
    }

    @Test
    void tooFewCollectionsOrWindows_isNotFlat_withTheReason() {
        Flatness.Verdict noGc = Flatness.judge(samples(t -> 400), List.of(new Flatness.HeapPoint(500, MIB)), WARMUP,
                END, 60, 0.10);
        assertThat(noGc.heapFlat()).isFalse();
        assertThat(noGc.reasons()).singleElement().asString().contains("too few collections");

        Flatness.Verdict shortRun = Flatness.judge(samples(t -> 400), heap(0), 25, 100, 60, 0.10);
        assertThat(shortRun.windows()).hasSize(1);
        assertThat(shortRun.rateFlat()).isFalse();
        assertThat(shortRun.reasons()).first().asString().contains("only 1 whole 60 s rate windows");

        Flatness.Verdict stalled = Flatness.judge(samples(t -> t < 100 ? 50 : 0), heap(0), WARMUP, END, 60, 0.10);
        assertThat(stalled.rateFlat()).isFalse();
        assertThat(stalled.reasons()).first().asString().contains("no pages");
    }

    @Test
    void countAt_interpolatesBetweenSamples() {
        List<Flatness.Sample> s = List.of(new Flatness.Sample(0, 0), new Flatness.Sample(10, 100),
                new Flatness.Sample(20, 300));
        assertThat(Flatness.countAt(s, 15)).isEqualTo(200.0);
        assertThat(Flatness.countAt(s, 10)).isEqualTo(100.0);
        assertThat(Flatness.countAt(s, 25)).isNaN();
    }

    @Test
    void rejectsAWarmupLongerThanAQuarterAndBadParameters() {
        assertThatThrownBy(() -> Flatness.judge(List.of(), List.of(), 300, END, 60, 0.1))
                .hasMessageContaining("at most a quarter").hasMessageContaining("300");
        assertThatThrownBy(() -> Flatness.judge(List.of(), List.of(), 0, END, 0, 0.1))
                .hasMessageContaining("window 0");
    }

    /** A forced full GC each minute whose heap after GC (the live set) grows by {@code mibPerMinute}. */
    private static List<Flatness.HeapPoint> liveSet(double mibPerMinute) {
        List<Flatness.HeapPoint> out = new ArrayList<>();
        for (double t = 60; t < END; t += 60) {
            out.add(new Flatness.HeapPoint(t, (long) ((180 + mibPerMinute * t / 60) * MIB)));
        }
        return out;
    }

    @Test
    void aGrowingLiveSet_isNotFlat_evenUnderAFlatHeapAfterEveryGc() {
        Flatness.Verdict v = Flatness.judge(samples(t -> 400), heap(0), liveSet(3), WARMUP, END, 60, 0.10);

        assertThat(v.heap().flat()).isTrue();
        assertThat(v.liveSet().measured()).isTrue();
        assertThat(v.liveSet().points()).isEqualTo(12);
        assertThat(v.liveSet().slopeBytesPerSecond()).isCloseTo(3.0 * MIB / 60, within(1e-6 * MIB));
        assertThat(v.liveSet().flat()).isFalse();
        assertThat(v.heapFlat()).isFalse();
        assertThat(v.flat()).isFalse();
        assertThat(v.reasons()).anySatisfy(r -> assertThat(r).startsWith("live set trends upward"));
    }

    @Test
    void aFlatLiveSetDoesNotExcuseAHeapAfterEveryGcThatGrows() {
        Flatness.Verdict v = Flatness.judge(samples(t -> 400), heap(8), liveSet(0), WARMUP, END, 60, 0.10);

        assertThat(v.liveSet().flat()).isTrue();
        assertThat(v.liveSet().trend()).isZero();
        assertThat(v.heap().flat()).isFalse();
        assertThat(v.flat()).isFalse();
        assertThat(v.reasons()).allSatisfy(r -> assertThat(r).contains("heap after GC"));
    }

    @Test
    void forcedCollectionsThatNeverHappened_areReported_andNoneAskedFor_isNotMeasured() {
        Flatness.Verdict missing = Flatness.judge(samples(t -> 400), heap(0), List.of(), WARMUP, END, 60, 0.10);
        assertThat(missing.flat()).isFalse();
        assertThat(missing.reasons()).singleElement().asString()
                .contains("too few forced full collections to judge the live set");

        Flatness.Verdict none = Flatness.judge(samples(t -> 400), heap(0), WARMUP, END, 60, 0.10);
        assertThat(none.liveSet().measured()).isFalse();
        assertThat(none.flat()).isTrue();
    }
}
