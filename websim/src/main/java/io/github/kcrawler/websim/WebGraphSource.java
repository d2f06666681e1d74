package io.github.kcrawler.websim;

import java.util.BitSet;
import java.util.function.IntPredicate;

/**
 * The link structure behind the simulated web: pages are dense ids {@code 0 .. numPages()-1} and each page has an
 * ordered list of outlinks (successor ids, ascending). Implementations are immutable and safe to read from any
 * number of threads, because the HTTP server renders pages on all of its event-loop threads at once.
 *
 * <p>The breadth-first helpers tell tests and demos which pages a correct crawler must end up with, independently
 * of the crawler's own bookkeeping.
 */
public interface WebGraphSource {

    /** Depth value meaning "no depth limit" for {@link #reachableFrom(int[], int)}. */
    int UNLIMITED_DEPTH = Integer.MAX_VALUE;

    int numPages();

    long numArcs();

    int outdegree(int page);

    /** The {@code index}-th outlink of {@code page} ({@code 0 <= index < outdegree(page)}). */
    int outlink(int page, int index);

    /** A fresh copy of the outlinks of {@code page}, ascending. */
    default int[] outlinks(int page) {
        int d = outdegree(page);
        int[] out = new int[d];
        for (int i = 0; i < d; i++) {
            out[i] = outlink(page, i);
        }
        return out;
    }

    /** Short human-readable description (where the graph came from), for logs and stats. */
    String description();

    /**
     * Pages reachable from {@code seeds} by following at most {@code maxDepth} links (seeds are at depth 0;
     * {@link #UNLIMITED_DEPTH} for no limit).
     */
    default BitSet reachableFrom(int[] seeds, int maxDepth) {
        return reachableFrom(seeds, maxDepth, page -> true);
    }

    /**
     * Like {@link #reachableFrom(int[], int)}, but a page for which {@code fetchable} is false is neither included
     * nor expanded — the set a crawler that obeys robots.txt fetches when {@code fetchable} is "not disallowed".
     */
    default BitSet reachableFrom(int[] seeds, int maxDepth, IntPredicate fetchable) {
        if (maxDepth < 0) {
            throw new IllegalArgumentException("maxDepth must be >= 0, was " + maxDepth);
        }
        int n = numPages();
        BitSet seen = new BitSet(n);
        int[] queue = new int[Math.max(16, Math.min(n, 1 << 16))];
        int head = 0;
        int tail = 0;
        for (int s : seeds) {
            if (s < 0 || s >= n) {
                throw new IllegalArgumentException("seed page " + s + " is outside [0, " + n + ")");
            }
            if (!seen.get(s) && fetchable.test(s)) {
                seen.set(s);
                queue = ensure(queue, tail);
                queue[tail++] = s;
            }
        }
        int depth = 0;
        while (head < tail && depth < maxDepth) {
            int levelEnd = tail;
            while (head < levelEnd) {
                int page = queue[head++];
                int d = outdegree(page);
                for (int i = 0; i < d; i++) {
                    int t = outlink(page, i);
                    if (!seen.get(t) && fetchable.test(t)) {
                        seen.set(t);
                        queue = ensure(queue, tail);
                        queue[tail++] = t;
                    }
                }
            }
            depth++;
        }
        return seen;
    }

    private static int[] ensure(int[] queue, int size) {
        if (size < queue.length) {
            return queue;
        }
        int[] bigger = new int[(int) Math.min(Integer.MAX_VALUE - 8L, queue.length * 2L)];
        System.arraycopy(queue, 0, bigger, 0, size);
        return bigger;
    }
}
