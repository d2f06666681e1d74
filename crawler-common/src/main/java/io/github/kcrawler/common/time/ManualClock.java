package io.github.kcrawler.common.time;

import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when told to, for tests of time-dependent logic. Thread-safe. */
public final class ManualClock implements CrawlClock {
    private final AtomicLong now;

    public ManualClock(long startMillis) {
        this.now = new AtomicLong(startMillis);
    }

    @Override
    public long millis() {
        return now.get();
    }

    public long advance(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("a clock only moves forward, was asked to move " + millis + " ms");
        }
        return now.addAndGet(millis);
    }

    public void set(long millis) {
        now.set(millis);
    }
}
