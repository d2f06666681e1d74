package io.github.kcrawler.lab.scheduler.revisit.bench;

import io.github.kcrawler.scheduler.revisit.BucketFileStore;
import io.github.kcrawler.scheduler.revisit.BucketStoreOptions;
import io.github.kcrawler.websim.IntervalDistribution;
import io.github.kcrawler.scheduler.revisit.RevisitQueue;
import io.github.kcrawler.scheduler.store.RocksDbTimeKeyedStore;
import io.github.kcrawler.scheduler.revisit.SatStore;
import io.github.kcrawler.scheduler.revisit.SatlBuckets;
import io.github.kcrawler.scheduler.revisit.SatlStore;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The benchmark of paper 003 (§4, Fig. 7 and Table 1): time per record of SAT/L, SAT and a time-keyed B-tree
 * (RocksDB here, Berkeley DB there) against the total buffer size.
 *
 * <p>Data (§4.1): N records of 200 bytes (paper: 1.5×10^7); a record's interval i ∈ [1, T] follows
 * Zipf, f(i) = N/H_T · i^−1 (eqs. (7)–(8)), or Peaked, f(i) = N/P_T · i/100² for i ≤ 100 and N/P_T · i^−1 beyond
 * (eqs. (9)–(10)); counts are rounded cumulatively so they sum to N exactly. The interval is kept in the record's
 * first 4 bytes; the updater keeps the record unchanged and its interval constant (§4.2).
 *
 * <p>Initial state (§4.1, Fig. 6(b), "started from this state"): for SAT and the B-tree, eq. (3) — a record of
 * interval i is due at a uniform time in 1…i; for SAT/L, eq. (5) — it lies in one of the ⌊i/τ(i)⌋ buckets
 * 1, 1+τ(i), 1+2τ(i), … (chosen uniformly), with its due time equal to that bucket. The state is loaded with a large
 * buffer, closed (flushing everything; RocksDB also compacted) and reopened with the buffer under test, so loading is
 * not measured.
 *
 * <p>Measured phase: {@code units} ticks (paper: 30); at each tick t every due record is read and rescheduled at
 * t + i. Reported: wall time per processed record, bytes written and read per record as counted by the store
 * (through its own file channels for SAT/SAT/L, RocksDB statistics for the baseline) and by the kernel for the whole
 * process ({@code /proc/self/io}, read_bytes/write_bytes: what reached the block layer). Buffers still in memory at
 * the end are not flushed inside the timing, for every store alike (RocksDB keeps its memtable).
 *
 * <p>Table 1 is computed, not measured: see {@link SatlTable1}.
 */
public final class SatlBench {
    public static final List<Long> PAPER_BUFFER_MIB = List.of(1L, 2L, 4L, 8L, 16L, 32L, 64L, 128L, 256L, 512L);

    /**
     * @param records         N
     * @param recordBytes     bytes per record (≥ 4; paper 200)
     * @param distributions   "zipf" and/or "peaked"
     * @param maxIntervals    values of T (paper 9,600 and 576,000)
     * @param bufferMiB       total buffer sizes to test, MiB
     * @param stores          "satl", "sat", "rocksdb"
     * @param units           time units processed (paper 30)
     * @param tolerance       SAT/L's e: {@code Long.MAX_VALUE} processes records at their bucket (paper Fig. 7),
     *                        0 is strict timing (paper Fig. 9)
     * @param workDir         where stores are created (a real disk, not tmpfs, for direct I/O)
     * @param directIo        O_DIRECT for bucket files; direct reads and flush/compaction I/O for RocksDB
     * @param loadBufferBytes buffer used while loading the initial state
     * @param seed            random seed
     */
    public record Options(long records, int recordBytes, List<String> distributions, List<Long> maxIntervals,
                          List<Long> bufferMiB, List<String> stores, int units, long tolerance, Path workDir,
                          boolean directIo, long loadBufferBytes, long seed) {
        public static final long DEFAULT_RECORDS = 15_000_000L;
        public static final int DEFAULT_RECORD_BYTES = 200;
        public static final int DEFAULT_UNITS = 30;

        public Options {
            if (records < 1 || records > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("records must be in [1, 2^31), was " + records);
            }
            if (recordBytes < 4 || recordBytes > BucketFileStore.MAX_RECORD_BYTES) {
                throw new IllegalArgumentException("record bytes must be in [4, " + BucketFileStore.MAX_RECORD_BYTES
                        + "], was " + recordBytes);
            }
            for (String d : distributions) {
                if (!d.equals("zipf") && !d.equals("peaked")) {
                    throw new IllegalArgumentException("distribution must be zipf or peaked, was " + d);
                }
            }
            for (String s : stores) {
                if (!s.equals("satl") && !s.equals("sat") && !s.equals("rocksdb")) {
                    throw new IllegalArgumentException("store must be satl, sat or rocksdb, was " + s);
                }
            }
            for (long t : maxIntervals) {
                if (t < 101) {
                    throw new IllegalArgumentException("T must be > 100 (Peaked turns at 100), was " + t);
                }
            }
            for (long b : bufferMiB) {
                if (b < 1) {
                    throw new IllegalArgumentException("buffer MiB must be >= 1, was " + b);
                }
            }
            if (units < 1) {
                throw new IllegalArgumentException("units must be >= 1, was " + units);
            }
            if (tolerance < 0) {
                throw new IllegalArgumentException("tolerance must be >= 0, was " + tolerance);
            }
            distributions = List.copyOf(distributions);
            maxIntervals = List.copyOf(maxIntervals);
            bufferMiB = List.copyOf(bufferMiB);
            stores = List.copyOf(stores);
        }

        /** The paper's set-up: N = 1.5×10^7, both distributions, T = 9,600 and 576,000, 1…512 MiB, 30 units. */
        public static Options defaults(Path workDir) {
            return new Options(DEFAULT_RECORDS, DEFAULT_RECORD_BYTES, List.of("zipf", "peaked"),
                    List.of(9_600L, 576_000L), PAPER_BUFFER_MIB, List.of("satl", "sat", "rocksdb"), DEFAULT_UNITS,
                    Long.MAX_VALUE, workDir, true, 256L << 20, 42);
        }
    }

    private SatlBench() {
    }

    // ------------------------------------------------------------------ distributions (eqs. (7)–(10))

    /** f(i) for i = 1…T (index 0 unused), rounded cumulatively to sum to exactly N ({@link IntervalDistribution}). */
    public static long[] intervalCounts(String distribution, long maxInterval, long records) {
        return IntervalDistribution.of(IntervalDistribution.Shape.parse(distribution), maxInterval).counts(records);
    }

    // ------------------------------------------------------------------ the run

    public static SatlResult run(Options o, PrintStream log) throws IOException {
        Map<String, SatlTable1.Row> table1 = SatlTable1.table1();
        List<SatlResult.Run> runs = new ArrayList<>();
        Files.createDirectories(o.workDir());
        for (String dist : o.distributions()) {
            for (long t : o.maxIntervals()) {
                long[] f = intervalCounts(dist, t, o.records());
                for (String store : o.stores()) {
                    for (long mib : o.bufferMiB()) {
                        runs.add(runOne(o, dist, t, f, store, mib << 20, log));
                    }
                }
            }
        }
        return new SatlResult("satl (paper 003, Fig. 7 and Table 1)", o.records(), o.recordBytes(), o.units(),
                o.tolerance() == Long.MAX_VALUE ? "unlimited" : o.tolerance(), o.directIo(),
                o.workDir().toAbsolutePath().toString(), table1, runs, speedup(runs, "peaked", 576_000, 1L << 20),
                speedups(runs), null);
    }

    /** RocksDB's time per record over SAT/L's on one workload and buffer; null when either did not run. */
    private static Double speedup(List<SatlResult.Run> runs, String dist, long t, long buffer) {
        Double satl = null;
        Double rocks = null;
        for (SatlResult.Run r : runs) {
            if (r.distribution().equals(dist) && r.maxInterval() == t && r.bufferBytes() == buffer) {
                if (r.store().equals("satl")) {
                    satl = r.nsPerRecord();
                } else if (r.store().equals("rocksdb")) {
                    rocks = r.nsPerRecord();
                }
            }
        }
        return satl == null || rocks == null || satl == 0 ? null : round(rocks / satl);
    }

    private static Map<String, Double> speedups(List<SatlResult.Run> runs) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (SatlResult.Run r : runs) {
            if (!r.store().equals("satl")) {
                continue;
            }
            Double s = speedup(runs, r.distribution(), r.maxInterval(), r.bufferBytes());
            if (s != null) {
                m.put(r.distribution() + "/" + r.maxInterval() + "/" + (r.bufferBytes() >> 20) + "MiB", s);
            }
        }
        return m;
    }

    private static SatlResult.Run runOne(Options o, String dist, long t, long[] f, String store, long buffer,
                                         PrintStream log) throws IOException {
        Path dir = o.workDir().resolve(store + "-" + dist + "-" + t + "-" + (buffer >> 20) + "m");
        deleteTree(dir);
        Files.createDirectories(dir);
        log.printf("satl bench: %s T=%d %s buffer=%d MiB: loading %,d records%n", dist, t, store, buffer >> 20,
                o.records());
        long loadStart = System.nanoTime();
        try (RevisitQueue q = open(o, store, dir, Math.max(buffer, o.loadBufferBytes()))) {
            load(o, q, store, f);
            if (q instanceof RocksDbTimeKeyedStore rocks) {
                rocks.compact();
            }
        }
        double loadSeconds = round((System.nanoTime() - loadStart) / 1e9);
        SatlResult.Run run;
        try (RevisitQueue q = open(o, store, dir, buffer)) {
            Integer bucketsAtStart = q instanceof BucketFileStore b ? b.bucketCount() : null;
            long w0 = q.bytesWritten();
            long r0 = q.bytesRead();
            long[] io0 = procIo();
            long[] processed = {0};
            List<Double> perUnitMs = new ArrayList<>();
            long start = System.nanoTime();
            for (long now = 1; now <= o.units(); now++) {
                long unitStart = System.nanoTime();
                final long tick = now;
                q.poll(now, (key, at, rec, len) -> {
                    int interval = ByteBuffer.wrap(rec, 0, 4).getInt(0);
                    byte[] copy = java.util.Arrays.copyOf(rec, len);
                    q.schedule(key, tick + interval, copy);
                    processed[0]++;
                });
                perUnitMs.add(round((System.nanoTime() - unitStart) / 1e6));
            }
            long elapsed = System.nanoTime() - start;
            long[] io1 = procIo();
            long n = Math.max(1, processed[0]);
            run = new SatlResult.Run(dist, t, store, buffer, loadSeconds, bucketsAtStart, processed[0],
                    round(elapsed / 1e9), round((double) elapsed / n), round((double) (q.bytesWritten() - w0) / n),
                    round((double) (q.bytesRead() - r0) / n),
                    io1[1] < 0 ? null : round((double) (io1[1] - io0[1]) / n),
                    io1[0] < 0 ? null : round((double) (io1[0] - io0[0]) / n),
                    q instanceof BucketFileStore b ? b.bucketCount() : null, perUnitMs);
            log.printf("  %,d records in %.2f s: %.0f ns/record, %.0f B written, %.0f B read per record%n",
                    processed[0], elapsed / 1e9, (double) elapsed / n, (double) (q.bytesWritten() - w0) / n,
                    (double) (q.bytesRead() - r0) / n);
        }
        deleteTree(dir);
        return run;
    }

    private static RevisitQueue open(Options o, String store, Path dir, long buffer) throws IOException {
        BucketStoreOptions bo = new BucketStoreOptions(buffer, o.tolerance(), o.directIo());
        return switch (store) {
            case "satl" -> SatlStore.open(dir, 0, bo);
            case "sat" -> SatStore.open(dir, 0, bo);
            case "rocksdb" -> RocksDbTimeKeyedStore.open(dir, 0, buffer, o.directIo());
            default -> throw new IllegalArgumentException(store);
        };
    }

    /** The paper's initial state: eq. (3) for SAT and the B-tree, eq. (5) for SAT/L (see the class comment). */
    static void load(Options o, RevisitQueue q, String store, long[] f) throws IOException {
        SplittableRandom rnd = new SplittableRandom(o.seed());
        byte[] rec = new byte[o.recordBytes()];
        for (int j = 4; j < rec.length; j++) {
            rec[j] = (byte) (j * 7);
        }
        long key = 0;
        for (int i = 1; i < f.length; i++) {
            ByteBuffer.wrap(rec).putInt(0, i);
            long tau = SatlBuckets.tau(i);
            long groups = Math.max(1, i / tau);
            for (long c = 0; c < f[i]; c++) {
                long k = mix(key++);
                if (q instanceof SatlStore satl) {
                    long bucket = 1 + rnd.nextLong(groups) * tau;
                    satl.scheduleInBucket(k, bucket, bucket, rec);
                } else {
                    q.schedule(k, 1 + rnd.nextLong(i), rec);
                }
            }
        }
    }

    /** SplitMix64 finaliser: record ids → well-spread 64-bit keys, like URL fingerprints. */
    static long mix(long z) {
        z += 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** read_bytes and write_bytes of this process from /proc/self/io, or -1 where unavailable. */
    static long[] procIo() {
        long[] io = {-1, -1};
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
                if (line.startsWith("read_bytes:")) {
                    io[0] = Long.parseLong(line.substring(11).trim());
                } else if (line.startsWith("write_bytes:")) {
                    io[1] = Long.parseLong(line.substring(12).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            return new long[]{-1, -1};
        }
        return io;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    static double round(double v) {
        if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) {
            return v;
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(6)).doubleValue();
    }
}
