package io.github.kcrawler.scheduler.processor;

import org.apache.kafka.streams.processor.TaskId;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The sizes of the frontiers of this instance's stream tasks, published by their processors after every change so
 * that the gauges, the health page and the demo's progress line can read them from other threads without touching
 * the (single-threaded) frontiers themselves.
 */
public final class LocalFrontiers {
    private final ConcurrentHashMap<TaskId, Slot> slots = new ConcurrentHashMap<>();

    Slot register(TaskId task) {
        Slot slot = new Slot();
        slots.put(task, slot);
        return slot;
    }

    void unregister(TaskId task, Slot slot) {
        slots.remove(task, slot);
    }

    /** URLs pending over all local tasks. */
    public long size() {
        long total = 0;
        for (Slot slot : slots.values()) {
            total += slot.size;
        }
        return total;
    }

    /** Of {@link #size()}, the URLs deferred to the frontiers' spills (on disk, not in memory). */
    public long deferred() {
        long total = 0;
        for (Slot slot : slots.values()) {
            total += slot.deferred;
        }
        return total;
    }

    /** IPs with pending URLs over all local tasks. */
    public long activeIps() {
        long total = 0;
        for (Slot slot : slots.values()) {
            total += slot.activeIps;
        }
        return total;
    }

    /** Local tasks currently owning a frontier. */
    public int tasks() {
        return slots.size();
    }

    /** One task's published sizes. */
    static final class Slot {
        private volatile long size;
        private volatile long activeIps;
        private volatile long deferred;

        void update(long newSize, long newActiveIps) {
            update(newSize, newActiveIps, 0);
        }

        /** @param newSize pending URLs, in memory and deferred; of them {@code newDeferred} deferred */
        void update(long newSize, long newActiveIps, long newDeferred) {
            size = newSize;
            activeIps = newActiveIps;
            deferred = newDeferred;
        }
    }
}
