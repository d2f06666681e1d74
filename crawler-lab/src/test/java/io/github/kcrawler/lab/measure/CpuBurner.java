package io.github.kcrawler.lab.measure;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;

/**
 * A named test thread that burns a set amount of its own CPU time (by its own clock, so a loaded machine only makes
 * it take longer), then stays alive until {@link #close}, so its CPU can be read while it lives.
 */
final class CpuBurner implements AutoCloseable {
    private final Thread thread;
    private final CountDownLatch burnt = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile long burntNanos;

    private CpuBurner(String name, long cpuNanos) {
        thread = new Thread(() -> {
            long start = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            long used = 0;
            long x = 0;
            while (used < cpuNanos) {
                for (int i = 0; i < 10_000; i++) {
                    x += System.nanoTime() % 7;
                }
                used = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - start;
            }
            burntNanos = used + (x == 42 ? 1 : 0);
            burnt.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, name);
        thread.setDaemon(true);
    }

    /** Starts a thread named {@code name} and returns once it has used {@code cpuNanos} of CPU. */
    static CpuBurner burn(String name, long cpuNanos) throws InterruptedException {
        CpuBurner b = new CpuBurner(name, cpuNanos);
        b.thread.start();
        b.burnt.await();
        return b;
    }

    /** The CPU the thread used, by its own clock. */
    long burntNanos() {
        return burntNanos;
    }

    /** Lets the thread end and waits for it. */
    @Override
    public void close() throws InterruptedException {
        release.countDown();
        thread.join();
    }
}
