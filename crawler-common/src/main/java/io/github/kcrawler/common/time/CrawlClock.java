package io.github.kcrawler.common.time;

/**
 * The clock every time-dependent algorithm takes (politeness, revisits, timeouts), so tests run on fake time.
 * Wall-clock epoch milliseconds; {@link #SYSTEM} in production, {@link ManualClock} in tests.
 */
@FunctionalInterface
public interface CrawlClock {
    CrawlClock SYSTEM = System::currentTimeMillis;

    long millis();
}
