package io.github.kcrawler.fetcher;

import io.github.kcrawler.fetcher.guard.TaskScheduler;

import java.util.ArrayDeque;

/**
 * Caps concurrent network fetches at {@code max-in-flight} (page and robots.txt requests alike). A fetch takes its
 * slot only after the per-IP guard has granted it, so requests waiting for politeness hold no slot and one busy
 * server cannot starve the others (no head-of-line blocking); the price is that a granted IP may wait briefly for
 * a slot, which only makes its interval longer. Waiters are served in arrival order; a freed slot is handed to the
 * next waiter on the scheduler, never on the releasing thread's stack.
 */
final class FetchSlots {
    private final int max;
    private final TaskScheduler scheduler;
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
    private int used;

    FetchSlots(int max, TaskScheduler scheduler) {
        if (max < 1) {
            throw new IllegalArgumentException("max fetch slots must be >= 1, was " + max);
        }
        this.max = max;
        this.scheduler = scheduler;
    }

    /** Runs {@code fetch} now if a slot is free (on this thread), else when one is released. */
    void acquire(Runnable fetch) {
        synchronized (this) {
            if (used >= max) {
                waiting.addLast(fetch);
                return;
            }
            used++;
        }
        fetch.run();
    }

    /** Gives a slot back (exactly once per acquired fetch); the next waiter inherits it. */
    void release() {
        Runnable next;
        synchronized (this) {
            next = waiting.pollFirst();
            if (next == null) {
                if (used == 0) {
                    throw new IllegalStateException("fetch slot released twice");
                }
                used--;
                return;
            }
        }
        scheduler.execute(next);
    }

    /** Fetches on the network now. */
    synchronized int active() {
        return used;
    }

    /** Fetches granted by the guard and waiting for a slot. */
    synchronized int queued() {
        return waiting.size();
    }
}
