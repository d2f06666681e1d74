package io.github.kcrawler.lab.dedup.bench;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.lab.baselines.dedup.ExactUrlSeen;
import io.github.kcrawler.dedup.membership.UrlSeenTiers;
import io.github.kcrawler.dedup.membership.UrlSeen;
import io.github.kcrawler.dedup.membership.UrlSeenTierConfig;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Issue 3's {@code crawler bench url-seen}: URL-seen tests per second of the tiered test (LRU → SBFL → RocksDB)
 * against RocksDB alone (with RocksDB's own Bloom filter), on a realistic stream — every link occurrence of a
 * breadth-first crawl of a real graph (cnr-2000) is one test, in crawl order. Both run on the same fingerprints into
 * their own fresh database ({@link RocksDbFingerprintSet}); the RocksDB-only answers are checked against the exact
 * ground truth, and the tiered answers are compared with them (they may differ only where the SBFL answered a false
 * positive, or later for the URL it skipped). Fingerprints are precomputed, so the timed loop is the test alone.
 * Runs alternate and repeat; the best of each is reported (a shared machine only ever slows a run down).
 */
public final class UrlSeenThroughputBench {
    /**
     * @param graph      the graph to crawl
     * @param seedNode   where the crawl starts
     * @param tiers      LRU and SBFL sizes of the tiered test
     * @param repeats    timed runs of each variant (best reported)
     * @param maxTests   cap on the stream length (memory: 12 bytes per test)
     * @param workDir    where the databases are created (each run in a fresh sub-directory, deleted afterwards)
     */
    public record Options(LinkGraph graph, int seedNode, UrlSeenTierConfig tiers, int repeats, int maxTests,
            Path workDir) {
        public static final int DEFAULT_REPEATS = 3;
        public static final int DEFAULT_MAX_TESTS = 50_000_000;
        public static final Path DEFAULT_WORK_DIR = Path.of("data", "bench-url-seen");

        public Options {
            Objects.requireNonNull(graph, "graph");
            Objects.requireNonNull(tiers, "tiers");
            Objects.requireNonNull(workDir, "workDir");
            if (seedNode < 0 || seedNode >= graph.numNodes()) {
                throw new IllegalArgumentException("seed node must be in [0, " + graph.numNodes() + "), was "
                        + seedNode);
            }
            if (repeats < 1 || repeats > 100) {
                throw new IllegalArgumentException("repeats must be in 1..100, was " + repeats);
            }
            if (maxTests < 1) {
                throw new IllegalArgumentException("maxTests must be >= 1, was " + maxTests);
            }
        }

        public static Options defaults(LinkGraph graph) {
            return new Options(graph, 0, UrlSeenTierConfig.defaults(), DEFAULT_REPEATS, DEFAULT_MAX_TESTS,
                    DEFAULT_WORK_DIR);
        }
    }

    private UrlSeenThroughputBench() {
    }

    /** The fingerprint standing for node {@code node}'s URL (the graph has no URL strings). */
    static long fingerprint(int node) {
        return Fingerprints.fmix64(0x9E3779B97F4A7C15L * (node + 1L));
    }

    public static UrlSeenResult run(Options o, PrintStream log) throws IOException {
        long[] stream = new long[Math.min(o.maxTests(), 1 << 20)];
        BitSet truthNew = new BitSet();
        int[] count = {0};
        long[][] holder = {stream};
        BreadthFirstCrawl.Stats stats = BreadthFirstCrawl.run(o.graph(), o.seedNode(), true, (node, seen) -> {
            int i = count[0];
            if (i >= o.maxTests()) {
                return;
            }
            if (i == holder[0].length) {
                holder[0] = java.util.Arrays.copyOf(holder[0], (int) Math.min(o.maxTests(), 2L * i));
            }
            holder[0][i] = fingerprint(node);
            if (!seen) {
                truthNew.set(i);
            }
            count[0] = i + 1;
        });
        stream = holder[0];
        int n = count[0];
        log.printf("stream: %,d tests (%,d distinct, best possible hit rate %.4f) from a BFS of %s%n", n,
                stats.distinct(), stats.maxHitRate(), o.graph().description());

        double bestTiered = 0;
        double bestRocks = 0;
        UrlSeenResult.Tiered tieredCounters = null;
        long differing = -1;
        boolean rocksExact = true;
        for (int rep = 0; rep < o.repeats(); rep++) {
            BitSet rocksAnswers = new BitSet(n);
            Path dir = o.workDir().resolve("rocksdb-only-" + rep);
            try (RocksDbFingerprintSet store = new RocksDbFingerprintSet(dir)) {
                double rate = timed(new ExactUrlSeen(store), stream, n, rocksAnswers);
                log.printf("run %d: RocksDB only  %,.0f tests/s%n", rep + 1, rate);
                bestRocks = Math.max(bestRocks, rate);
            } finally {
                deleteRecursively(dir);
            }
            rocksExact &= rocksAnswers.equals(truthNew);
            dir = o.workDir().resolve("tiered-" + rep);
            BitSet tieredAnswers = new BitSet(n);
            try (RocksDbFingerprintSet store = new RocksDbFingerprintSet(dir)) {
                UrlSeenTiers tiered = UrlSeenTiers.create(o.tiers(), store);
                double rate = timed(tiered, stream, n, tieredAnswers);
                log.printf("run %d: tiered        %,.0f tests/s (hit rate %.4f)%n", rep + 1, rate, tiered.hitRate());
                bestTiered = Math.max(bestTiered, rate);
                tieredCounters = counters(tiered);
            } finally {
                deleteRecursively(dir);
            }
            tieredAnswers.xor(rocksAnswers);
            differing = tieredAnswers.cardinality();
        }

        // store operations (gets + puts): what the caches save, independent of how fast this machine's RocksDB is
        long rocksOps = n + (long) truthNew.cardinality();
        long tieredOps = tieredCounters == null ? 0 : tieredCounters.storageLookups() + tieredCounters.newUrls();
        return new UrlSeenResult(o.graph().description(), n, stats.distinct(), BenchReport.round(stats.maxHitRate()),
                BenchReport.round(bestTiered), BenchReport.round(bestRocks), BenchReport.round(bestTiered / bestRocks),
                rocksOps, tieredOps, BenchReport.round(rocksOps / (double) Math.max(1, tieredOps)), rocksExact,
                differing, o.tiers().lruSize(), o.tiers().sbflCounters(), o.tiers().sbflHashes(), o.tiers().sbflFpr(),
                o.tiers().memoryBytes(), o.repeats(), tieredCounters, BenchReport.machine());
    }

    private static double timed(UrlSeen test, long[] stream, int n, BitSet answers) {
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            if (test.testAndAdd(stream[i])) {
                answers.set(i);
            }
        }
        return n / ((System.nanoTime() - start) / 1e9);
    }

    private static UrlSeenResult.Tiered counters(UrlSeenTiers t) {
        return new UrlSeenResult.Tiered(t.tests(), t.lruHits(), t.sbflPositives(), t.storageLookups(),
                t.storageHits(), t.newUrls(), BenchReport.round(t.hitRate()));
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }
}
