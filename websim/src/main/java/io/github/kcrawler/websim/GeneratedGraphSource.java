package io.github.kcrawler.websim;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A synthetic web graph shaped like a crawl, for demos and tests that need no data files. It is generated over the
 * hosts of a {@link SiteLayout} (consecutive id runs), so "intra-host" means the same thing to the graph and to the
 * server. Deterministic: the same layout and seed give the same links.
 *
 * <p>Shape, per page p of host h = [s, e):
 * <ul>
 *   <li>The home page s links to the next few pages of its host and has a larger out-degree; a few percent of
 *   other pages are dangling (no links).</li>
 *   <li>Other pages link to p + 1 (a "next" link, inside the host) and, half the time, back to the home page.</li>
 *   <li>Out-degrees are discrete Pareto (alpha 1.6), so a few pages have hundreds of links.</li>
 *   <li>The remaining links stay in the host with probability 0.8; cross-host links go half to the home page of
 *   the host of a uniformly drawn page (big hosts attract more links: heavy-tailed in-degree) and half to a
 *   uniformly drawn page.</li>
 * </ul>
 * Home pages chain hosts together and "next" links chain pages inside a host, so almost every page is reachable
 * from page 0; tests use {@link #reachableFrom(int[], int)} for the exact set. Links are sorted, without duplicates
 * or self-loops.
 */
public final class GeneratedGraphSource extends CsrGraph {

    /** Mean out-degree aimed at (before de-duplication), similar to real web crawls. */
    public static final double DEFAULT_MEAN_OUTDEGREE = 8.0;

    private final long seed;

    private GeneratedGraphSource(long seed, int[] offsets, int[] targets) {
        super(offsets, targets);
        this.seed = seed;
    }

    /** Generates a graph over the pages and hosts of {@code layout}, with {@code layout.seed()}. */
    public static GeneratedGraphSource generate(SiteLayout layout) {
        return generate(layout, layout.seed(), DEFAULT_MEAN_OUTDEGREE);
    }

    public static GeneratedGraphSource generate(SiteLayout layout, long seed, double meanOutdegree) {
        if (!(meanOutdegree >= 1.0 && meanOutdegree <= 1000.0)) {
            throw new IllegalArgumentException("meanOutdegree must be in [1, 1000], was " + meanOutdegree);
        }
        int n = layout.numPages();
        SplittableRandom rnd = new SplittableRandom(Mix.hash(seed, 0x67726170L));
        double alpha = 1.6;
        double xmin = meanOutdegree * (alpha - 1) / alpha;
        int cap = Math.max(1, Math.min(n - 1, 500));
        int[] offsets = new int[n + 1];
        int[] targets = new int[(int) Math.min(Integer.MAX_VALUE - 8L, (long) (n * meanOutdegree * 1.2) + 16)];
        int[] links = new int[cap + 16];
        int pos = 0;
        for (int host = 0; host < layout.numHosts(); host++) {
            int start = layout.hostStart(host);
            int end = layout.hostEnd(host);
            for (int p = start; p < end; p++) {
                int count = pageLinks(rnd, layout, p, start, end, xmin, alpha, cap, links);
                if (pos + count > targets.length) {
                    targets = Arrays.copyOf(targets, (int) Math.min(Integer.MAX_VALUE - 8L, targets.length * 2L));
                }
                System.arraycopy(links, 0, targets, pos, count);
                pos += count;
                offsets[p + 1] = pos;
            }
        }
        return new GeneratedGraphSource(seed, offsets, Arrays.copyOf(targets, pos));
    }

    /** Fills {@code out} with the sorted distinct outlinks of page p; returns how many. */
    private static int pageLinks(SplittableRandom rnd, SiteLayout layout, int p, int start, int end, double xmin,
            double alpha, int cap, int[] out) {
        int n = layout.numPages();
        boolean home = p == start;
        int degree = Mix.pareto(rnd.nextDouble(), xmin, alpha, cap);
        int count = 0;
        if (home) {
            degree = Math.min(cap, degree + 4);
            for (int q = p + 1; q < Math.min(end, p + 4); q++) {
                out[count++] = q;
            }
        } else {
            if (rnd.nextDouble() < 0.04) {
                return 0;
            }
            if (p + 1 < end) {
                out[count++] = p + 1;
            }
            if (rnd.nextBoolean()) {
                out[count++] = start;
            }
        }
        int len = end - start;
        while (count < degree && count < out.length) {
            int target;
            if (len > 1 && rnd.nextDouble() < 0.8) {
                target = start + rnd.nextInt(len);
            } else if (rnd.nextBoolean()) {
                target = layout.hostStart(layout.hostOf(rnd.nextInt(n)));
            } else {
                target = rnd.nextInt(n);
            }
            out[count++] = target;
        }
        Arrays.sort(out, 0, count);
        int distinct = 0;
        for (int i = 0; i < count; i++) {
            int t = out[i];
            if (t != p && (distinct == 0 || out[distinct - 1] != t)) {
                out[distinct++] = t;
            }
        }
        return distinct;
    }

    public long seed() {
        return seed;
    }

    @Override
    public String description() {
        return "generated graph (seed " + seed + ")";
    }
}
