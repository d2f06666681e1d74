package io.github.kcrawler.lab.dedup.bench;

import io.github.kcrawler.dedup.content.CountingBloomFilter;
import io.github.kcrawler.dedup.content.ImpCbFilter;
import io.github.kcrawler.dedup.store.RocksDbContentFingerprintDb;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Issue 7's {@code crawler bench imp-cbf}: seed 001's measurement (§3, Fig. 3) — dedup time of the IMP-CB filter
 * against the fingerprint-DB-only baseline at 0.5M, 1M, 1.5M and 2M items (and 10M), at the paper's duplicate ratio
 * of 7.8% (its State Grid pages) and at 30% (near the 29% near-duplicate share the paper cites). Both variants run on
 * {@link RocksDbContentFingerprintDb} with identical settings (WAL off, as Kafka Streams runs its stores), each in a
 * fresh directory, over the same precomputed stream, doing the same work per item: the baseline reads then puts
 * (new record or refCount + 1); IMP-CB puts, reading first only when all k counters are non-zero. The paper's
 * parameters: k = 8, m = 20·items.
 *
 * <p>Stream: 128-bit fingerprints. Item i is, with probability {@code duplicateRatio}, a copy of an earlier item chosen
 * uniformly among the i occurrences so far — preferential attachment (Yule–Simon), so a body already copied often is
 * copied again more often and duplicate-cluster sizes follow a power law, as mirrored pages and boilerplate bodies do;
 * otherwise it is a fresh random fingerprint. Duplicates are thus drawn from already-seen items only, and the
 * generator knows the true answer of every item. Both variants' per-item answers are checked against it: a
 * disagreement fails the run rather than reporting a time for wrong answers.
 *
 * <p>Timing covers the add loop only (not opening, rebuilding or closing the DB); runs alternate and repeat, the best
 * of each is reported (a shared machine only ever slows a run down).
 */
public final class ImpCbfBench {
    /**
     * @param sizes           stream lengths (items)
     * @param duplicateRatios probability that an item is a copy of an earlier one, each in [0, 1)
     * @param repeats         timed runs of each variant per (size, ratio); the best is reported
     * @param workDir         where the databases are created (fresh sub-directory per run, deleted afterwards)
     * @param seed            stream seed
     */
    public record Options(List<Integer> sizes, List<Double> duplicateRatios, int repeats, Path workDir, long seed) {
        public static final List<Integer> PAPER_SIZES = List.of(500_000, 1_000_000, 1_500_000, 2_000_000);
        public static final int LARGE_SIZE = 10_000_000;
        public static final double PAPER_DUPLICATE_RATIO = 0.078;
        public static final List<Double> DEFAULT_RATIOS = List.of(PAPER_DUPLICATE_RATIO, 0.30);
        public static final int DEFAULT_REPEATS = 2;
        public static final Path DEFAULT_WORK_DIR = Path.of("target", "bench-imp-cbf");
        public static final long DEFAULT_SEED = 20181219L;

        public Options {
            sizes = List.copyOf(Objects.requireNonNull(sizes, "sizes"));
            duplicateRatios = List.copyOf(Objects.requireNonNull(duplicateRatios, "duplicateRatios"));
            Objects.requireNonNull(workDir, "workDir");
            if (sizes.isEmpty() || duplicateRatios.isEmpty()) {
                throw new IllegalArgumentException("sizes and duplicate ratios must not be empty, were " + sizes
                        + " and " + duplicateRatios);
            }
            for (int n : sizes) {
                if (n < 1 || (long) n * CountingBloomFilter.DEFAULT_COUNTERS_PER_ITEM > CountingBloomFilter.MAX_COUNTERS) {
                    throw new IllegalArgumentException("item count must be in [1, 107374182], was " + n);
                }
            }
            for (double d : duplicateRatios) {
                if (!(d >= 0 && d < 1)) {
                    throw new IllegalArgumentException("duplicate ratio must be in [0, 1), was " + d);
                }
            }
            if (repeats < 1 || repeats > 100) {
                throw new IllegalArgumentException("repeats must be in 1..100, was " + repeats);
            }
        }

        /** The paper's sizes, plus 10M when {@code withLarge}, both ratios. */
        public static Options defaults(boolean withLarge) {
            List<Integer> sizes = new ArrayList<>(PAPER_SIZES);
            if (withLarge) {
                sizes.add(LARGE_SIZE);
            }
            return new Options(sizes, DEFAULT_RATIOS, DEFAULT_REPEATS, DEFAULT_WORK_DIR, DEFAULT_SEED);
        }

        /** The default sizes up to {@code maxItems} (at least the smallest). */
        public static List<Integer> sizesUpTo(int maxItems) {
            List<Integer> out = new ArrayList<>();
            for (int n : defaults(true).sizes()) {
                if (n <= maxItems) {
                    out.add(n);
                }
            }
            if (out.isEmpty()) {
                out.add(Math.max(1, maxItems));
            }
            return out;
        }
    }

    /** A generated stream: fingerprint halves and the true answer of each item. */
    record Stream128(long[] hi, long[] lo, BitSet duplicate, int n) {
    }

    private ImpCbfBench() {
    }

    /** Generates the stream described in the class comment. */
    static Stream128 generate(int n, double duplicateRatio, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long[] hi = new long[n];
        long[] lo = new long[n];
        BitSet dup = new BitSet(n);
        for (int i = 0; i < n; i++) {
            if (i > 0 && r.nextDouble() < duplicateRatio) {
                int j = r.nextInt(i);
                hi[i] = hi[j];
                lo[i] = lo[j];
                dup.set(i);
            } else {
                hi[i] = r.nextLong();
                lo[i] = r.nextLong();
            }
        }
        return new Stream128(hi, lo, dup, n);
    }

    public static ImpCbfResult run(Options o, PrintStream log) throws IOException {
        return run(o, log, partial -> { });
    }

    /**
     * Runs every (size, ratio), sizes up to 2M for all ratios first and larger ones last, and hands the summary so
     * far to {@code progress} after each, so a long run that is stopped still leaves its finished results.
     */
    public static ImpCbfResult run(Options o, PrintStream log, Consumer<ImpCbfResult> progress) throws IOException {
        List<ImpCbfResult.Row> results = new ArrayList<>();
        List<int[]> order = new ArrayList<>(); // {size, ratio index}
        for (boolean large : new boolean[] {false, true}) {
            for (int ri = 0; ri < o.duplicateRatios().size(); ri++) {
                for (int n : o.sizes()) {
                    if ((n > 2_000_000) == large) {
                        order.add(new int[] {n, ri});
                    }
                }
            }
        }
        for (int[] step : order) {
            results.add(runOne(o, step[0], o.duplicateRatios().get(step[1]), log));
            progress.accept(summary(o, results, results.size() == order.size()));
        }
        return summary(o, results, true);
    }

    private static ImpCbfResult summary(Options o, List<ImpCbfResult.Row> results, boolean complete) {
        Double speedupAt2M = null;
        Double speedupAt2M30 = null;
        for (ImpCbfResult.Row r : results) {
            if (r.items() == 2_000_000 && r.duplicateRatio() == Options.PAPER_DUPLICATE_RATIO) {
                speedupAt2M = r.speedup();
            }
            if (r.items() == 2_000_000 && r.duplicateRatio() == 0.30) {
                speedupAt2M30 = r.speedup();
            }
        }
        return new ImpCbfResult("imp-cbf",
                "seed 001 (IMP-CB Filter), Fig. 3: dedup time vs MD5-fingerprint-DB-only baseline", speedupAt2M,
                speedupAt2M30, CountingBloomFilter.DEFAULT_HASHES, CountingBloomFilter.DEFAULT_COUNTERS_PER_ITEM,
                "RocksDB (Kafka Streams defaults: 50 MiB block cache, 10-bit Bloom, 16 MiB memtables x3, "
                        + "no compression, universal compaction), WAL off, same settings for both variants",
                "128-bit random fingerprints; each item with probability = duplicate ratio a copy of an "
                        + "earlier occurrence chosen uniformly (preferential attachment), seed " + o.seed(),
                "add loop only, best of " + o.repeats() + " alternating runs per variant", o.repeats(),
                o.workDir().toAbsolutePath().toString(), List.copyOf(results), BenchReport.machine(), complete);
    }

    private static ImpCbfResult.Row runOne(Options o, int n, double ratio, PrintStream log) throws IOException {
        Stream128 s = generate(n, ratio, o.seed() ^ n ^ Double.doubleToLongBits(ratio));
        int trueDuplicates = s.duplicate().cardinality();
        log.printf("%,d items, duplicate ratio %.3f: %,d duplicates, %,d distinct%n", n, ratio, trueDuplicates,
                n - trueDuplicates);
        double bestBaseline = Double.MAX_VALUE;
        double bestImpCb = Double.MAX_VALUE;
        long baselineReads = 0;
        long baselineDuplicates = 0;
        ImpCbFilter impCb = null;
        long baselineDbBytes = 0;
        long impCbDbBytes = 0;
        for (int rep = 0; rep < o.repeats(); rep++) {
            Path dir = o.workDir().resolve("baseline-" + n + "-" + rep);
            UrlSeenThroughputBench.deleteRecursively(dir);
            BitSet answers = new BitSet(n);
            try (RocksDbContentFingerprintDb db = RocksDbContentFingerprintDb.open(dir, false)) {
                FingerprintDbOnlyDedup base = new FingerprintDbOnlyDedup(db);
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    if (base.add(s.hi()[i], s.lo()[i])) {
                        answers.set(i);
                    }
                }
                double sec = (System.nanoTime() - t0) / 1e9;
                bestBaseline = Math.min(bestBaseline, sec);
                baselineReads = base.dbReads();
                baselineDuplicates = base.duplicates();
                log.printf("  run %d: fingerprint DB only  %.3f s (%,.0f items/s)%n", rep + 1, sec, n / sec);
            }
            baselineDbBytes = directoryBytes(dir);
            UrlSeenThroughputBench.deleteRecursively(dir);
            check("fingerprint-DB-only", answers, s.duplicate());

            dir = o.workDir().resolve("impcb-" + n + "-" + rep);
            UrlSeenThroughputBench.deleteRecursively(dir);
            answers = new BitSet(n);
            try (RocksDbContentFingerprintDb db = RocksDbContentFingerprintDb.open(dir, false)) {
                ImpCbFilter f = ImpCbFilter.openForExpectedItems(db, n);
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    if (f.add(s.hi()[i], s.lo()[i]).isDuplicate()) {
                        answers.set(i);
                    }
                }
                double sec = (System.nanoTime() - t0) / 1e9;
                bestImpCb = Math.min(bestImpCb, sec);
                log.printf("  run %d: IMP-CB filter        %.3f s (%,.0f items/s, %,d DB reads avoided)%n", rep + 1,
                        sec, n / sec, f.dbReadsAvoided());
                impCb = f;
            }
            impCbDbBytes = directoryBytes(dir);
            UrlSeenThroughputBench.deleteRecursively(dir);
            check("IMP-CB", answers, s.duplicate());
        }
        if (baselineDuplicates != trueDuplicates || impCb.duplicates() != trueDuplicates) {
            throw new IllegalStateException("duplicate counts disagree: truth " + trueDuplicates + ", baseline "
                    + baselineDuplicates + ", IMP-CB " + impCb.duplicates());
        }
        ImpCbfResult.Row r = new ImpCbfResult.Row(n, ratio, trueDuplicates, n - trueDuplicates,
                BenchReport.round(bestBaseline), BenchReport.round(bestImpCb), BenchReport.round(n / bestBaseline),
                BenchReport.round(n / bestImpCb), BenchReport.round(bestBaseline / bestImpCb), true, baselineReads,
                impCb.dbReads(), impCb.dbReadsAvoided(), BenchReport.round(impCb.dbReadsAvoided() / (double) n),
                impCb.falsePositives(), impCb.memoryBytes(), impCb.counters(), impCb.saturatedPositions(),
                baselineDbBytes, impCbDbBytes);
        log.printf("  best: baseline %.3f s, IMP-CB %.3f s, speedup %.2fx%n", bestBaseline, bestImpCb,
                bestBaseline / bestImpCb);
        return r;
    }

    private static void check(String variant, BitSet answers, BitSet truth) {
        if (!answers.equals(truth)) {
            BitSet diff = (BitSet) answers.clone();
            diff.xor(truth);
            throw new IllegalStateException(variant + " answered " + diff.cardinality()
                    + " items wrongly, first at item " + diff.nextSetBit(0));
        }
    }

    private static long directoryBytes(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
