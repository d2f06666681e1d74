package io.github.kcrawler.fetcher.guard;

/**
 * Where the guard (and the fetch pipeline) parks work until later: in production the Netty event loops, whose
 * timer wheel makes a wait cost one scheduled task and no thread; in tests a fake driven by a manual clock.
 * Kept free of Netty types so that only the {@code http} package imports Netty.
 */
public interface TaskScheduler {
    /** Runs the task after at least {@code delayMillis} (0 or less: as soon as possible, never inline). */
    void schedule(Runnable task, long delayMillis);

    /** Runs the task soon on a scheduler thread, never inline on the caller's stack. */
    default void execute(Runnable task) {
        schedule(task, 0);
    }
}
