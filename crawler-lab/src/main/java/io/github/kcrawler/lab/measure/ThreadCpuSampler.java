package io.github.kcrawler.lab.measure;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * CPU time of this process between {@link #start} and {@link #stop}, per thread group ({@link ThreadGroups}).
 *
 * <p>Every {@code periodMillis} it reads the CPU time of every live thread ({@code ThreadMXBean.getThreadCpuTime})
 * and keeps the last value seen per thread id, so a thread that dies keeps what it had used at the last sample (it
 * loses at most one period of CPU). A thread alive at {@link #start} counts from its CPU time then; a later one
 * from zero. A thread's group is decided by its name when first seen. The process total comes from
 * {@code OperatingSystemMXBean.getProcessCpuTime}. The threads the JVM does not list — RocksDB's
 * ({@link ThreadGroups#ROCKSDB}), the JIT compilers ({@link ThreadGroups#JIT}) and the GC workers
 * ({@link ThreadGroups#GC}) — are read from {@code /proc} at start and stop ({@link NativeThreadCpu}; these pools
 * live as long as the process, though HotSpot may stop an idle compiler thread, whose CPU then falls to
 * {@code jvm}). What the process total holds beyond all of them — the VM thread, other native threads, and the CPU
 * of Java threads that died between samples — is {@link ThreadGroups#JVM}.
 */
public final class ThreadCpuSampler implements AutoCloseable {
    private final ThreadGroups groups;
    private final long periodMillis;
    private final java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final LongSupplier processCpuNanos;
    /** thread id → {baseline, last} CPU nanoseconds. */
    private final Map<Long, long[]> cpu = new HashMap<>();
    private final Map<Long, String> groupOf = new HashMap<>();
    private ScheduledExecutorService executor;
    private long processStart;
    /** Per native group ({@link ThreadGroups#NATIVE}): its threads' CPU at start and at stop. */
    private Map<String, Map<Long, Long>> nativeStart = Map.of();
    private Map<String, Map<Long, Long>> nativeEnd;
    private long processEnd = -1;

    public ThreadCpuSampler(ThreadGroups groups, long periodMillis) {
        if (periodMillis < 10) {
            throw new IllegalArgumentException("sample period must be >= 10 ms, was " + periodMillis);
        }
        this.groups = groups;
        this.periodMillis = periodMillis;
        this.processCpuNanos = processCpu();
        if (threads.isThreadCpuTimeSupported() && !threads.isThreadCpuTimeEnabled()) {
            threads.setThreadCpuTimeEnabled(true);
        }
    }

    /** {@code OperatingSystemMXBean.getProcessCpuTime}, or -1 where the JVM does not offer it. */
    static LongSupplier processCpu() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun::getProcessCpuTime;
        }
        return () -> -1;
    }

    /** Takes the baseline now and samples every period on a daemon thread until {@link #stop}. */
    public synchronized void start() {
        if (executor != null) {
            throw new IllegalStateException("already started");
        }
        processStart = processCpuNanos.getAsLong();
        nativeStart = nativeThreads();
        sample(true);
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "measure-thread-cpu");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleAtFixedRate(() -> sample(false), periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    /** Stops sampling after one last sample; the figures are then fixed. */
    public synchronized void stop() {
        if (executor == null) {
            return;
        }
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sample(false);
        nativeEnd = nativeThreads();
        processEnd = processCpuNanos.getAsLong();
    }

    @Override
    public void close() {
        stop();
    }

    private synchronized void sample(boolean baseline) {
        long[] ids = threads.getAllThreadIds();
        for (long id : ids) {
            long t = threads.getThreadCpuTime(id);
            if (t < 0) {
                continue; // died since getAllThreadIds, or not measurable
            }
            long[] v = cpu.get(id);
            if (v == null) {
                ThreadInfo info = threads.getThreadInfo(id);
                if (info == null) {
                    continue;
                }
                groupOf.put(id, groups.of(info.getThreadName()));
                cpu.put(id, new long[] {baseline ? t : 0, t});
            } else {
                v[1] = Math.max(v[1], t);
            }
        }
    }

    /** The names of the threads seen per group, for checking the name rules ({@code --debug} logs them). */
    public synchronized Map<String, java.util.SortedSet<String>> namesByGroup() {
        Map<String, java.util.SortedSet<String>> out = new java.util.TreeMap<>();
        for (long id : cpu.keySet()) {
            ThreadInfo info = threads.getThreadInfo(id);
            String name = info == null ? "(ended) #" + id : info.getThreadName();
            out.computeIfAbsent(groupOf.get(id), g -> new java.util.TreeSet<>()).add(name);
        }
        return out;
    }

    /** CPU nanoseconds per group since {@link #start}, every group of {@link ThreadGroups#ALL}, and {@code total}. */
    public synchronized Map<String, Long> cpuNanos() {
        Map<Long, Long> used = new HashMap<>();
        cpu.forEach((id, v) -> used.put(id, v[1] - v[0]));
        long end = processEnd >= 0 ? processEnd : processCpuNanos.getAsLong();
        Map<String, Map<Long, Long>> now = nativeEnd != null ? nativeEnd : nativeThreads();
        Map<String, Long> nativeNanos = new LinkedHashMap<>();
        for (String g : ThreadGroups.NATIVE.keySet()) {
            nativeNanos.put(g, NativeThreadCpu.usedSince(nativeStart.getOrDefault(g, Map.of()), now.get(g)));
        }
        return byGroup(used, groupOf::get, nativeNanos, processStart < 0 || end < 0 ? -1 : end - processStart);
    }

    private static Map<String, Map<Long, Long>> nativeThreads() {
        Map<String, Map<Long, Long>> out = new HashMap<>();
        ThreadGroups.NATIVE.forEach((group, prefixes) -> out.put(group, NativeThreadCpu.byPrefix(prefixes)));
        return out;
    }

    /**
     * Sums per-thread CPU into groups: every group of {@link ThreadGroups#ALL} (zero when empty), each native group
     * its entry of {@code nativeNanos}, {@code jvm} = {@code processNanos} minus the threads' sum (the native ones
     * included, at least 0), and {@code total} = the larger of {@code processNanos} and the threads' sum. With
     * {@code processNanos} &lt; 0 (unknown), {@code jvm} is 0.
     */
    static Map<String, Long> byGroup(Map<Long, Long> perThread, java.util.function.Function<Long, String> group,
                                     Map<String, Long> nativeNanos, long processNanos) {
        Map<String, Long> out = new LinkedHashMap<>();
        out.put("total", 0L);
        for (String g : ThreadGroups.ALL) {
            out.put(g, 0L);
        }
        long threadsSum = 0;
        for (Map.Entry<String, Long> e : nativeNanos.entrySet()) {
            out.put(e.getKey(), e.getValue());
            threadsSum += e.getValue();
        }
        for (Map.Entry<Long, Long> e : perThread.entrySet()) {
            out.merge(group.apply(e.getKey()), e.getValue(), Long::sum);
            threadsSum += e.getValue();
        }
        long jvm = processNanos < 0 ? 0 : Math.max(0, processNanos - threadsSum);
        out.put(ThreadGroups.JVM, jvm);
        out.put("total", threadsSum + jvm);
        return out;
    }

    /** Milliseconds per page for each entry of {@code nanos}, in its order. */
    public static Map<String, Double> msPerPage(Map<String, Long> nanos, long pages) {
        Map<String, Double> out = new LinkedHashMap<>();
        ToLongFunction<String> get = nanos::get;
        for (String k : nanos.keySet()) {
            out.put(k, pages > 0 ? get.applyAsLong(k) / 1e6 / pages : 0);
        }
        return out;
    }
}
