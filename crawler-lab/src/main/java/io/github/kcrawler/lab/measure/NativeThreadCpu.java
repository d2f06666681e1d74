package io.github.kcrawler.lab.measure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time of this process's threads that the JVM does not list, by their kernel name: RocksDB's flush and
 * compaction threads, which RocksDB names {@code rocksdb:low}, {@code rocksdb:high}, {@code rocksdb:bottom}, and
 * HotSpot's own threads (JIT compilers, GC workers; {@link ThreadGroups#NATIVE}). Read
 * from {@code /proc/self/task/TID/comm} and {@code .../stat} (fields 14 and 15, utime and stime, in the kernel's
 * USER_HZ ticks, which Linux fixes at 100 per second for user space); empty where there is no {@code /proc}.
 */
final class NativeThreadCpu {
    private static final Path TASKS = Path.of("/proc/self/task");
    private static final long NANOS_PER_TICK = 10_000_000L; // USER_HZ = 100

    private NativeThreadCpu() {
    }

    /** Thread id → CPU nanoseconds used, for every live thread whose kernel name starts with {@code prefix}. */
    static Map<Long, Long> byPrefix(String prefix) {
        return byPrefix(java.util.List.of(prefix));
    }

    /** Thread id → CPU nanoseconds used, for every live thread whose kernel name starts with one of {@code prefixes}. */
    static Map<Long, Long> byPrefix(java.util.List<String> prefixes) {
        Map<Long, Long> out = new HashMap<>();
        if (!Files.isDirectory(TASKS)) {
            return out;
        }
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                try {
                    String comm = Files.readString(task.resolve("comm"), StandardCharsets.US_ASCII).trim();
                    if (prefixes.stream().anyMatch(comm::startsWith)) {
                        long ticks = ticks(Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII));
                        if (ticks >= 0) {
                            out.put(Long.parseLong(task.getFileName().toString()), ticks * NANOS_PER_TICK);
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended while being read: it is not counted from here on
                }
            }
        } catch (IOException e) {
            // no task list: nothing counted
        }
        return out;
    }

    /**
     * utime + stime of one {@code /proc/.../stat} line, or -1 when it cannot be read. The name (field 2) is in
     * parentheses and may itself hold spaces and parentheses, so the fields are counted after the last ')'.
     */
    static long ticks(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return -1;
        }
        String[] f = stat.substring(close + 1).trim().split(" +");
        if (f.length < 13) {
            return -1; // f[0] is field 3 (state): utime is field 14 = f[11], stime field 15 = f[12]
        }
        try {
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** CPU each thread of {@code now} used since {@code then} (a thread not in {@code then} started after it). */
    static long usedSince(Map<Long, Long> then, Map<Long, Long> now) {
        long sum = 0;
        for (Map.Entry<Long, Long> e : now.entrySet()) {
            sum += Math.max(0, e.getValue() - then.getOrDefault(e.getKey(), 0L));
        }
        return sum;
    }
}
