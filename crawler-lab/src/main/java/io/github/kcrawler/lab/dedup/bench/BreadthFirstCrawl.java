package io.github.kcrawler.lab.dedup.bench;

import java.util.BitSet;

/**
 * A breadth-first crawl simulation over a {@link LinkGraph}, as in seed 000 §5.3: every outlink occurrence of every
 * crawled page is one URL-seen test, in crawl order, with its exact ground truth (was the target discovered before?).
 * The crawl follows the ground truth, not any approximate test, so every configuration under comparison sees the
 * same stream and differs only in how it answers. With {@code exhaustive}, when the frontier empties the crawl
 * restarts from the lowest undiscovered node, so the whole graph is covered (each restart seed is a test too).
 */
public final class BreadthFirstCrawl {
    /** Receives the tests in order. */
    @FunctionalInterface
    public interface Sink {
        void test(int node, boolean seenBefore);
    }

    /** Tests emitted, distinct nodes discovered, seeds used. */
    public record Stats(long tests, long distinct, long seeds) {
        /** The best hit rate any cache can reach on this stream: the share of tests that are repeats. */
        public double maxHitRate() {
            return tests == 0 ? 0.0 : (tests - distinct) / (double) tests;
        }
    }

    private BreadthFirstCrawl() {
    }

    public static Stats run(LinkGraph graph, int seed, boolean exhaustive, Sink sink) {
        int n = graph.numNodes();
        if (seed < 0 || seed >= n) {
            throw new IllegalArgumentException("seed node must be in [0, " + n + "), was " + seed);
        }
        BitSet discovered = new BitSet(n);
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        long tests = 0;
        long seeds = 0;
        int[] links = new int[64];
        int nextSeed = seed;
        while (nextSeed >= 0) {
            sink.test(nextSeed, false);
            tests++;
            seeds++;
            discovered.set(nextSeed);
            queue[tail++] = nextSeed;
            while (head < tail) {
                int page = queue[head++];
                int d = graph.outdegree(page);
                links = graph.outlinks(page, links);
                for (int i = 0; i < d; i++) {
                    int target = links[i];
                    boolean seen = discovered.get(target);
                    sink.test(target, seen);
                    tests++;
                    if (!seen) {
                        discovered.set(target);
                        queue[tail++] = target;
                    }
                }
            }
            nextSeed = exhaustive ? discovered.nextClearBit(0) : -1;
            if (nextSeed >= n) {
                nextSeed = -1;
            }
        }
        return new Stats(tests, tail, seeds);
    }
}
