package io.github.kcrawler.fetcher.guard;

import io.github.kcrawler.common.time.ManualClock;

import java.util.PriorityQueue;

/** A {@link TaskScheduler} on a {@link ManualClock}: tasks run only when the test advances time. */
public final class FakeScheduler implements TaskScheduler {
    private record Task(long due, long seq, Runnable run) {
    }

    private final ManualClock clock;
    private final PriorityQueue<Task> tasks = new PriorityQueue<>((a, b) -> a.due != b.due
            ? Long.compare(a.due, b.due) : Long.compare(a.seq, b.seq));
    private long seq;

    public FakeScheduler(ManualClock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized void schedule(Runnable task, long delayMillis) {
        tasks.add(new Task(clock.millis() + Math.max(0, delayMillis), seq++, task));
    }

    /** Runs every task due now (including ones they schedule for now). */
    public void runDue() {
        while (true) {
            Task t;
            synchronized (this) {
                t = tasks.peek();
                if (t == null || t.due > clock.millis()) {
                    return;
                }
                tasks.poll();
            }
            t.run.run();
        }
    }

    /** Moves the clock to the next task's due time and runs what is due; false when nothing is scheduled. */
    public boolean step() {
        Task t;
        synchronized (this) {
            t = tasks.peek();
        }
        if (t == null) {
            return false;
        }
        if (t.due > clock.millis()) {
            clock.set(t.due);
        }
        runDue();
        return true;
    }

    public synchronized int pending() {
        return tasks.size();
    }
}
