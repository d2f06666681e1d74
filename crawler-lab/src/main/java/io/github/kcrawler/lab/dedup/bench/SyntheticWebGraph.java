package io.github.kcrawler.lab.dedup.bench;

import io.github.kcrawler.common.fingerprint.Fingerprints;

/**
 * A generated web graph for URL-seen streams too large to store (≥ 10^8 link occurrences): the links of a page are
 * recomputed from a hash of its id whenever they are asked for, so only the host table is held (a few MB).
 * It exists because cnr-2000 (3.2 M links) is far smaller than the paper's 4.16×10^9-link host graph.
 *
 * <p>Shape, chosen for the locality that makes URL caching work (Broder et al. 2003: popular URLs and
 * co-occurring links): pages sit in hosts of heavy-tailed size (Pareto α = 1.3, consecutive ids); host popularity is
 * Zipf (s = 1) over a seeded random ranking; out-degree is Pareto (α = 2.2, capped at 300, 5% dangling). Each link is
 * <ul>
 *   <li>25% navigation: one of the first 64 pages of the own host, log-uniformly (the home page most often);</li>
 *   <li>40% local: a page a geometric distance (mean 8) before or after, within the host;</li>
 *   <li>20% popular: one of the first 16 pages of a Zipf-drawn host;</li>
 *   <li>15% deep: a uniform page of a Zipf-drawn host.</li>
 * </ul>
 * Deterministic for a seed. The parameters are not fitted to any crawl; the benchmark reports them with its results.
 */
public final class SyntheticWebGraph implements LinkGraph {
    private static final int MAX_DEGREE = 300;

    private final int n;
    private final long seed;
    private final double degreeScale;
    private final int[] hostStart;
    private final double[] hostCdf;
    private final int[] hostByRank;

    private SyntheticWebGraph(int n, long seed, double degreeScale, int[] hostStart, double[] hostCdf,
            int[] hostByRank) {
        this.n = n;
        this.seed = seed;
        this.degreeScale = degreeScale;
        this.hostStart = hostStart;
        this.hostCdf = hostCdf;
        this.hostByRank = hostByRank;
    }

    /**
     * @param pages         nodes, ≥ 1000
     * @param meanHostSize  mean pages per host (≥ 2)
     * @param meanOutdegree mean links per page before capping (≥ 1)
     */
    public static SyntheticWebGraph generate(int pages, double meanHostSize, double meanOutdegree, long seed) {
        if (pages < 1000) {
            throw new IllegalArgumentException("pages must be >= 1000, was " + pages);
        }
        if (!(meanHostSize >= 2 && meanHostSize <= pages / 10.0)) {
            throw new IllegalArgumentException("meanHostSize must be in [2, pages/10], was " + meanHostSize);
        }
        if (!(meanOutdegree >= 1 && meanOutdegree <= 100)) {
            throw new IllegalArgumentException("meanOutdegree must be in [1, 100], was " + meanOutdegree);
        }
        long state = seed;
        double hostXmin = meanHostSize * (1.3 - 1) / 1.3;
        int maxHost = Math.max(2, pages / 20);
        int[] starts = new int[Math.max(16, (int) (2 * pages / meanHostSize))];
        int hosts = 0;
        int at = 0;
        while (at < pages) {
            state += 0x9E3779B97F4A7C15L;
            double u = unit(Fingerprints.fmix64(state));
            int size = (int) Math.min(maxHost, Math.max(1, Math.floor(hostXmin / Math.pow(u, 1 / 1.3))));
            if (hosts == starts.length) {
                starts = java.util.Arrays.copyOf(starts, hosts * 2);
            }
            starts[hosts++] = at;
            at = (int) Math.min(pages, (long) at + size);
        }
        int[] hostStart = java.util.Arrays.copyOf(starts, hosts + 1);
        hostStart[hosts] = pages;
        int[] byRank = new int[hosts];
        for (int i = 0; i < hosts; i++) {
            byRank[i] = i;
        }
        for (int i = hosts - 1; i > 0; i--) { // seeded Fisher-Yates: popularity independent of position
            state += 0x9E3779B97F4A7C15L;
            int j = (int) ((Fingerprints.fmix64(state) >>> 33) % (i + 1));
            int t = byRank[i];
            byRank[i] = byRank[j];
            byRank[j] = t;
        }
        double[] cdf = new double[hosts];
        double total = 0;
        for (int r = 0; r < hosts; r++) {
            total += 1.0 / (r + 1);
            cdf[r] = total;
        }
        for (int r = 0; r < hosts; r++) {
            cdf[r] /= total;
        }
        double degreeXmin = meanOutdegree * (2.2 - 1) / 2.2;
        return new SyntheticWebGraph(pages, seed, degreeXmin, hostStart, cdf, byRank);
    }

    @Override
    public int numNodes() {
        return n;
    }

    public int numHosts() {
        return hostStart.length - 1;
    }

    @Override
    public int outdegree(int node) {
        long h = Fingerprints.fmix64(seed ^ (0x9E3779B97F4A7C15L * (node + 1L)));
        return degree(h);
    }

    private int degree(long h) {
        double u = unit(h);
        if (u < 0.05) {
            return 0;
        }
        return (int) Math.min(MAX_DEGREE, Math.floor(degreeScale / Math.pow((u - 0.05) / 0.95, 1 / 2.2)));
    }

    @Override
    public int outlink(int node, int index) {
        int[] links = outlinks(node, new int[MAX_DEGREE]);
        if (index < 0 || index >= outdegree(node)) {
            throw new IndexOutOfBoundsException("node " + node + " has no outlink #" + index);
        }
        return links[index];
    }

    @Override
    public int[] outlinks(int node, int[] buffer) {
        long state = Fingerprints.fmix64(seed ^ (0x9E3779B97F4A7C15L * (node + 1L)));
        int d = degree(state);
        int[] out = buffer.length >= d ? buffer : new int[MAX_DEGREE];
        int host = hostOf(node);
        int s = hostStart[host];
        int size = hostStart[host + 1] - s;
        for (int i = 0; i < d; i++) {
            state += 0x9E3779B97F4A7C15L;
            long r = Fingerprints.fmix64(state);
            double kind = unit(r);
            double u = unit(Long.rotateLeft(r, 29));
            int target;
            if (kind < 0.25) {
                target = s + logUniform(u, Math.min(size, 64));
            } else if (kind < 0.65) {
                int distance = 1 + (int) Math.min(size, Math.floor(Math.log(1 - u) / Math.log(1 - 1 / 8.0)));
                int offset = (r & 1) == 0 ? distance : -distance;
                target = s + Math.floorMod(node - s + offset, size);
            } else {
                int h2 = hostByRank[zipfRank(unit(Long.rotateLeft(r, 47)))];
                int s2 = hostStart[h2];
                int size2 = hostStart[h2 + 1] - s2;
                target = kind < 0.85 ? s2 + logUniform(u, Math.min(size2, 16)) : s2 + (int) (u * size2);
            }
            out[i] = target;
        }
        return out;
    }

    @Override
    public String description() {
        return "synthetic(" + n + " pages, " + numHosts() + " hosts, seed " + seed + ")";
    }

    private int hostOf(int node) {
        int i = java.util.Arrays.binarySearch(hostStart, node);
        return i >= 0 ? i : -i - 2;
    }

    private int zipfRank(double u) {
        int i = java.util.Arrays.binarySearch(hostCdf, u);
        int r = i >= 0 ? i : -i - 1;
        return Math.min(r, hostCdf.length - 1);
    }

    /** An index in [0, bound) with log-uniform density: small indices (the home page) are the most likely. */
    private static int logUniform(double u, int bound) {
        return Math.min(bound - 1, (int) Math.floor(Math.exp(u * Math.log(bound + 1.0))) - 1);
    }

    private static double unit(long bits) {
        return (bits >>> 11) * 0x1.0p-53;
    }
}
