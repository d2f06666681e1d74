package io.github.kcrawler.fetcher.guard;

import io.github.kcrawler.common.time.ManualClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HostBackoffTest {
    private static final long T = 1_000;
    private final ManualClock clock = new ManualClock(1_700_000_000_000L);
    private final HostBackoff backoff = new HostBackoff(clock, T, 60_000, 3);

    @Test
    void throttlingDoublesTheDelayUpToTheCap() {
        assertThat(backoff.record("1.2.3.4", 429, false, null, 10)).isEqualTo(HostBackoff.Cause.THROTTLED);
        assertThat(backoff.intervalFor("1.2.3.4", T)).isEqualTo(T);
        backoff.record("1.2.3.4", 503, false, null, 10);
        assertThat(backoff.intervalFor("1.2.3.4", T)).isEqualTo(2 * T);
        for (int i = 0; i < 20; i++) {
            backoff.record("1.2.3.4", 429, false, null, 10);
        }
        assertThat(backoff.intervalFor("1.2.3.4", T)).isEqualTo(60_000);
    }

    @Test
    void retryAfterInSecondsOrAsADateIsHonouredAndClamped() {
        assertThat(backoff.record("a", 429, false, "7", 10)).isEqualTo(HostBackoff.Cause.RETRY_AFTER);
        assertThat(backoff.intervalFor("a", T)).isEqualTo(7_000);
        backoff.record("b", 503, false, "Tue, 14 Nov 2023 22:13:40 GMT", 10); // 20 s after the clock
        assertThat(backoff.intervalFor("b", T)).isEqualTo(20_000);
        backoff.record("c", 503, false, "99999999999999999999", 10);
        assertThat(backoff.intervalFor("c", T)).isEqualTo(60_000);
    }

    @Test
    void neverShorterThanTheBaseIntervalWhateverTheInput() {
        backoff.record("a", 429, false, "0", -5);
        backoff.record("a", 200, false, "-3", 0);
        assertThat(backoff.intervalFor("a", T)).isGreaterThanOrEqualTo(T);
        assertThat(backoff.intervalFor("a", 5_000)).isEqualTo(5_000); // a longer Crawl-delay wins
        assertThat(backoff.intervalFor("unknown", T)).isEqualTo(T);
    }

    @Test
    void errorsAndSlownessRaiseTheDelayAndGoodAnswersDecayIt() {
        assertThat(backoff.record("a", 0, true, null, 4_000)).isEqualTo(HostBackoff.Cause.SERVER_ERROR);
        assertThat(backoff.intervalFor("a", T)).isEqualTo(4_000);
        backoff.record("a", 500, false, null, 100);
        assertThat(backoff.intervalFor("a", T)).isEqualTo(6_000);
        backoff.record("a", 200, false, null, 100);
        assertThat(backoff.intervalFor("a", T)).isEqualTo(3_050);
        backoff.record("a", 200, false, null, 100);
        backoff.record("a", 200, false, null, 100);
        assertThat(backoff.intervalFor("a", T)).isEqualTo(T); // decayed below T: forgotten
        assertThat(backoff.size()).isZero();
        assertThat(backoff.record("slow", 200, false, null, 2_500)).isEqualTo(HostBackoff.Cause.SLOW);
        assertThat(backoff.intervalFor("slow", T)).isEqualTo(2_500);
    }

    @Test
    void memoryIsBounded() {
        for (int i = 0; i < 100; i++) {
            backoff.record("10.0.0." + i, 429, false, null, 0);
        }
        assertThat(backoff.size()).isEqualTo(3);
    }

    @Test
    void garbageRetryAfterIsIgnored() {
        for (String v : new String[] {"", " ", "soon", "1.5", "-1", "Mon, 99 Foo 2023", "x".repeat(10_000)}) {
            assertThat(HostBackoff.retryAfterMillis(v, 0)).as(v).isZero();
        }
    }
}
