package io.github.kcrawler.lab.demo;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The largest Java heap this process used while it ran, from two sources: the heap's used bytes read every
 * {@code periodMs} on a daemon thread, and the heap pools' used bytes just <em>before</em> each garbage collection
 * (from the JVM's GC notifications) — the true high-water marks, which a periodic sample can miss between two reads.
 * Also measures the heap after a full collection ({@link #usedAfterGc()}), for a baseline and an end figure that do
 * not depend on when the collector last ran. Heap only: RocksDB, Netty's direct buffers and thread stacks are off
 * heap and not counted.
 */
public final class HeapSampler implements AutoCloseable {
    private final AtomicLong max = new AtomicLong();
    private final Set<String> heapPools = new HashSet<>();
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener = this::onGc;
    private final Thread thread;
    private volatile boolean running = true;

    /** Starts sampling every {@code periodMs} (≥ 1) and listening to GC notifications. */
    public HeapSampler(long periodMs) {
        if (periodMs < 1) {
            throw new IllegalArgumentException("heap sampling period must be >= 1 ms, was " + periodMs);
        }
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPools.add(pool.getName());
            }
        }
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(listener, null, null);
                emitters.add(emitter);
            }
        }
        sample();
        thread = new Thread(() -> {
            while (running) {
                sample();
                try {
                    Thread.sleep(periodMs);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "demo-heap-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void sample() {
        long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        max.accumulateAndGet(used, Math::max);
    }

    private void onGc(Notification n, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            return;
        }
        GcInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData()).getGcInfo();
        long before = 0;
        for (Map.Entry<String, MemoryUsage> e : info.getMemoryUsageBeforeGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
                before += e.getValue().getUsed();
            }
        }
        max.accumulateAndGet(before, Math::max);
    }

    /** The largest heap use seen so far, bytes. */
    public long maxBytes() {
        sample();
        return max.get();
    }

    /**
     * Heap used right after a full collection, bytes: {@code System.gc()} twice (the second collects what the
     * first left to finalisation and reference processing), then the heap's used bytes.
     */
    public static long usedAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(listener);
            } catch (ListenerNotFoundException e) {
                // already gone
            }
        }
    }
}
