package io.github.kcrawler.lab.dedup.bench;

import io.github.kcrawler.dedup.membership.FingerprintFilter;
import io.github.kcrawler.dedup.membership.LruFingerprintCache;
import io.github.kcrawler.dedup.membership.OptimalP;
import io.github.kcrawler.dedup.membership.StableBloomFilter;
import io.github.kcrawler.dedup.membership.StableBloomFilterLight;
import io.github.kcrawler.dedup.membership.UrlSeenTiers;
import io.github.kcrawler.dedup.store.HashFingerprintSet;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * One run of seed 000's §5 experiment on one test stream: many cache configurations answer the same breadth-first
 * crawl stream side by side (in chunks, configurations in parallel), each compared with the exact ground truth.
 * Only the two in-memory tiers are simulated ({@link UrlSeenTiers#probe}); a miss is where the store would be
 * asked. Per configuration: hit rate (LRU hits + filter positives, the paper's definition), true hit rate (without
 * false positives), false positives (a new URL answered "seen"), false negatives (a seen URL missed by both caches,
 * i.e. a storage hit), and memory as the paper counts it (LRU 20 B/entry, filter d bits/counter) and as measured
 * (the arrays actually allocated).
 */
final class UrlSeenExperiment {
    private static final int CHUNK = 1 << 16;

    /** One configuration under test and its counts. */
    static final class Config {
        final String series;
        final int lruSize;
        final long counters;
        final int k;
        final double fpr;
        final int bits;
        final UrlSeenTiers test;
        long falsePositives;
        long falseNegatives;

        Config(String series, int lruSize, long counters, int k, double fpr, int bits, FingerprintFilter filter) {
            this.series = series;
            this.lruSize = lruSize;
            this.counters = counters;
            this.k = k;
            this.fpr = fpr;
            this.bits = bits;
            this.test = new UrlSeenTiers(lruSize, filter, new HashFingerprintSet());
        }

        void consume(long[] fps, boolean[] seen, int n) {
            for (int i = 0; i < n; i++) {
                int answer = test.probe(fps[i]);
                if (seen[i]) {
                    if (answer == UrlSeenTiers.MISS) {
                        falseNegatives++;
                    }
                } else if (answer != UrlSeenTiers.MISS) {
                    falsePositives++;
                }
            }
        }

        double hitRate() {
            return test.hitRate();
        }

        long paperMemoryBytes() {
            return 20L * lruSize + counters * bits / 8;
        }

        long measuredMemoryBytes() {
            return test.memoryBytes();
        }

        double trueHitRate() {
            return BenchReport.round((test.lruHits() + test.sbflPositives() - falsePositives)
                    / (double) Math.max(1, test.tests()));
        }

        /** This LRU-alone configuration's figures. */
        UrlSeenMemoryResult.LruPoint lruPoint() {
            assert counters == 0 : "an LRU alone has no filter";
            return new UrlSeenMemoryResult.LruPoint(lruSize, counters, BenchReport.round(hitRate()), trueHitRate(),
                    test.lruHits(), test.sbflPositives(), falsePositives, falseNegatives, paperMemoryBytes(),
                    measuredMemoryBytes());
        }

        /** This filter configuration's figures, and the LRU alone it equals in hit rate with the reductions. */
        UrlSeenMemoryResult.FilterPoint filterPoint(Double equivalentLruSize, Double reduction,
                Double reductionMeasured, Double reductionTrueHitRate) {
            assert counters > 0 : "a filter configuration has counters";
            return new UrlSeenMemoryResult.FilterPoint(lruSize, counters, k, fpr,
                    BenchReport.round(OptimalP.of(counters, k, fpr, (1 << bits) - 1)), BenchReport.round(hitRate()),
                    trueHitRate(), test.lruHits(), test.sbflPositives(), falsePositives, falseNegatives,
                    paperMemoryBytes(), measuredMemoryBytes(), equivalentLruSize, reduction, reductionMeasured,
                    reductionTrueHitRate);
        }
    }

    final List<Config> configs = new ArrayList<>();
    final int lruMinLog2;
    final int lruFixed;
    final int bits;

    /**
     * The paper's grid, shifted by {@code lruMinLog2} (paper: 18): LRU alone at 2^a .. 2^(a+6), plus
     * {@code lruExtraSteps} larger sizes so that more of the method's points have an LRU-alone equivalent to compare
     * with; LRU fixed at 2^(a+2) with SBFL m = 2^(a+6) .. 2^(a+12) for (k = 4, FPR = 1%) and (k = 8, FPR = 0.001%);
     * optionally the SBF at (k = 4, 1%) with the same sizes, for the paper's Fig. 6/7 comparison.
     */
    UrlSeenExperiment(int lruMinLog2, int lruExtraSteps, int bits, boolean withSbf, long seed) {
        this.lruMinLog2 = lruMinLog2;
        this.bits = bits;
        this.lruFixed = 1 << (lruMinLog2 + 2);
        int max = (1 << bits) - 1;
        for (int a = lruMinLog2; a <= lruMinLog2 + 6 + lruExtraSteps; a++) {
            configs.add(new Config("lruOnly", 1 << a, 0, 0, 0, bits, FingerprintFilter.disabled()));
        }
        for (int b = lruMinLog2 + 6; b <= lruMinLog2 + 12; b++) {
            long m = 1L << b;
            configs.add(new Config("sbflK4", lruFixed, m, 4, 0.01, bits,
                    new StableBloomFilterLight(m, 4, OptimalP.of(m, 4, 0.01, max), bits,
                            StableBloomFilterLight.Decrement.SWAR)));
            configs.add(new Config("sbflK8", lruFixed, m, 8, 1e-5, bits,
                    new StableBloomFilterLight(m, 8, OptimalP.of(m, 8, 1e-5, max), bits,
                            StableBloomFilterLight.Decrement.SWAR)));
            if (withSbf) {
                configs.add(new Config("sbfK4", lruFixed, m, 4, 0.01, bits,
                        new StableBloomFilter(m, 4, OptimalP.of(m, 4, 0.01, max), bits, seed + b)));
            }
        }
    }

    /** Crawls {@code graph} breadth-first and feeds every test to every configuration. */
    BreadthFirstCrawl.Stats run(LinkGraph graph, int seedNode, PrintStream log) {
        long[] fps = new long[CHUNK];
        boolean[] seen = new boolean[CHUNK];
        int[] fill = {0};
        long[] reported = {0};
        long start = System.nanoTime();
        BreadthFirstCrawl.Stats stats = BreadthFirstCrawl.run(graph, seedNode, true, (node, wasSeen) -> {
            int i = fill[0];
            fps[i] = UrlSeenThroughputBench.fingerprint(node);
            seen[i] = wasSeen;
            if (++i == CHUNK) {
                dispatch(fps, seen, CHUNK);
                i = 0;
                reported[0] += CHUNK;
                if ((reported[0] & ((1L << 24) - 1)) == 0) {
                    log.printf("  %,d tests (%.0f s)%n", reported[0], (System.nanoTime() - start) / 1e9);
                }
            }
            fill[0] = i;
        });
        dispatch(fps, seen, fill[0]);
        return stats;
    }

    private void dispatch(long[] fps, boolean[] seen, int n) {
        configs.parallelStream().forEach(c -> c.consume(fps, seen, n));
    }

    List<Config> series(String name) {
        List<Config> out = new ArrayList<>();
        for (Config c : configs) {
            if (c.series.equals(name)) {
                out.add(c);
            }
        }
        return out;
    }

    static long lruMemoryMeasured(int size) {
        return LruFingerprintCache.memoryBytesFor(size);
    }
}
