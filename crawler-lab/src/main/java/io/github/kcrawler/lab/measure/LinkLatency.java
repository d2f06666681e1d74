package io.github.kcrawler.lab.measure;

import java.util.Arrays;

/**
 * How long a link takes through a crawl: for each fetched page v with an in-link from a page fetched before it, the
 * time from the first fetch of such a page u (the earliest moment the crawler could have known v) to v's own first
 * fetch. In the pipeline that span holds the linking page's result, URL-seen test, score and wait in the priority
 * pool and politeness wheel, and the fetcher's wait for {@code notBefore}; its low percentiles are the fastest a
 * link goes through, which the simulator's feedback delay stands for (BENCHMARKS.md, thirty-third session).
 *
 * <p>Self-links do not count; a page whose every fetched in-neighbour was fetched after it (a seed) has no latency.
 * Percentiles are nearest-rank over those pages. O(arcs + n log n) time, three {@code double}s per page.
 */
public final class LinkLatency {
    private LinkLatency() {
    }

    /**
     * Percentiles of the link latency.
     *
     * @param pages pages with a latency (fetched, with an in-link from a page fetched before them)
     * @param p1Ms  1st percentile, milliseconds (NaN when {@code pages} is 0, as the others)
     * @param p10Ms 10th percentile
     * @param p50Ms median
     */
    public record Summary(int pages, double p1Ms, double p10Ms, double p50Ms) {
    }

    /**
     * @param offsets CSR offsets of the link graph (node u's out-links are {@code targets[offsets[u] ..
     *                offsets[u + 1])})
     * @param targets CSR targets
     * @param order   page ids in first-fetch order ({@link FetchOrder#readTimed})
     * @param atMs    each of them's first fetch time, milliseconds, non-decreasing
     */
    public static Summary of(int[] offsets, int[] targets, int[] order, double[] atMs) {
        if (order.length != atMs.length) {
            throw new IllegalArgumentException("order and times differ in length: " + order.length + " vs "
                    + atMs.length);
        }
        int n = offsets.length - 1;
        double[] fetchedAt = new double[n];
        Arrays.fill(fetchedAt, Double.NaN);
        for (int i = 0; i < order.length; i++) {
            if (order[i] >= 0 && order[i] < n) {
                fetchedAt[order[i]] = atMs[i];
            }
        }
        double[] firstKnown = new double[n];
        Arrays.fill(firstKnown, Double.POSITIVE_INFINITY);
        for (int u = 0; u < n; u++) {
            double t = fetchedAt[u];
            if (Double.isNaN(t)) {
                continue;
            }
            for (int k = offsets[u]; k < offsets[u + 1]; k++) {
                int v = targets[k];
                if (v != u && t < firstKnown[v]) {
                    firstKnown[v] = t;
                }
            }
        }
        double[] latency = new double[n];
        int m = 0;
        for (int v = 0; v < n; v++) {
            if (!Double.isNaN(fetchedAt[v]) && firstKnown[v] <= fetchedAt[v]) {
                latency[m++] = fetchedAt[v] - firstKnown[v];
            }
        }
        Arrays.sort(latency, 0, m);
        return new Summary(m, percentile(latency, m, 1), percentile(latency, m, 10), percentile(latency, m, 50));
    }

    /** Nearest rank: the smallest value with at least {@code p} % of the values at or below it. */
    static double percentile(double[] sorted, int m, int p) {
        if (m == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * m);
        return sorted[Math.max(0, rank - 1)];
    }
}
