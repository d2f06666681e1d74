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

        void update(long newSize, long newActiveIps) {
            size = newSize;
            activeIps = newActiveIps;
        }
    }
}
