package io.github.kcrawler.lab.dedup.bench;

import io.github.kcrawler.lab.chart.SvgChart;
import io.github.kcrawler.lab.dedup.bench.UrlSeenExperiment.Config;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Seed 000's experiment (§5, Figs. 5–10), issue 3's {@code crawler simulate --experiment url-seen}: memory of an LRU
 * alone against LRU + SBFL at equal hit rate, on the URL-seen stream of a breadth-first crawl (every link occurrence
 * a test), with exact ground truth. The paper used a 538 M-host graph (4.16×10^9 links), LRU alone at 2^18..2^24,
 * LRU fixed at 2^20 + SBFL m = 2^24..2^30, and found up to 63% less memory for k = 4, FPR = 1% (LRU at 20 B/entry,
 * SBFL at 2 bits/counter), while k = 8, FPR = 0.001% helped only at low hit rates.
 *
 * <p>Sizes are the paper's grid shifted down to the stream: {@code a = 18 − round(log2(4.16×10^9 / tests))} unless
 * given; LRU alone is also measured at a few sizes beyond the paper's range ({@code lruExtraSteps}), so that the
 * method's larger configurations have an equivalent too. The LRU-alone size reaching a given hit rate is found by
 * linear interpolation between the measured 2^n points, as in the paper; a configuration whose hit rate lies
 * outside the measured LRU-alone range has no reduction (reported as null). Reductions are given on the paper's accounting and on measured array sizes, and also at equal
 * <em>true</em> hit rate (false positives not counted as hits), the conservative reading. Two datasets: the given
 * graph (cnr-2000: 3.2 M tests, far smaller than the paper's) and a {@link SyntheticWebGraph} stream of ≥ 10^8 tests.
 */
public final class UrlSeenMemoryBench {
    private static final double PAPER_LINKS = 4.155528923e9;

    /**
     * @param graph           a real graph (may be null: synthetic only)
     * @param seedNode        crawl start in {@code graph}
     * @param graphScaleLog2  a for the graph, or −1 for automatic
     * @param synthetic       also run the synthetic stream
     * @param syntheticTests  approximate length of the synthetic stream
     * @param syntheticScaleLog2 a for the synthetic stream, or −1 for automatic
     * @param lruExtraSteps   LRU-alone sizes measured beyond the paper's 2^(a+6), 0..6 (more comparable points)
     * @param counterBits     SBFL counter bits (paper: 2)
     * @param withSbf         also run the SBF at k = 4, FPR = 1% (paper Figs. 6/7)
     * @param plotBasename    where to write {@code BASENAME-DATASET.svg}, or null
     * @param seed            seed of the synthetic graph and of the SBF's generator
     */
    public record Options(LinkGraph graph, int seedNode, int graphScaleLog2, boolean synthetic, long syntheticTests,
            int syntheticScaleLog2, int lruExtraSteps, int counterBits, boolean withSbf, Path plotBasename,
            long seed) {
        public static final long DEFAULT_SYNTHETIC_TESTS = 100_000_000L;
        public static final long DEFAULT_SEED = 20090101L;
        public static final int DEFAULT_LRU_EXTRA_STEPS = 4;

        public Options {
            if (graph == null && !synthetic) {
                throw new IllegalArgumentException("give a graph or enable the synthetic stream");
            }
            if (graph != null && (seedNode < 0 || seedNode >= graph.numNodes())) {
                throw new IllegalArgumentException("seed node must be in [0, " + graph.numNodes() + "), was "
                        + seedNode);
            }
            for (int a : new int[] {graphScaleLog2, syntheticScaleLog2}) {
                if (a != -1 && (a < 2 || a > 20)) {
                    throw new IllegalArgumentException("scale log2 must be -1 (auto) or in 2..20, was " + a);
                }
            }
            if (synthetic && (syntheticTests < 1_000_000L || syntheticTests > 2_000_000_000L)) {
                throw new IllegalArgumentException("synthetic tests must be in [10^6, 2×10^9], was " + syntheticTests);
            }
            if (lruExtraSteps < 0 || lruExtraSteps > 6) {
                throw new IllegalArgumentException("LRU extra steps must be in 0..6, was " + lruExtraSteps);
            }
            if (counterBits != 1 && counterBits != 2 && counterBits != 4 && counterBits != 8) {
                throw new IllegalArgumentException("counter bits must be 1, 2, 4 or 8, was " + counterBits);
            }
        }

        public static Options defaults(LinkGraph graph) {
            return new Options(graph, 0, -1, true, DEFAULT_SYNTHETIC_TESTS, -1, DEFAULT_LRU_EXTRA_STEPS, 2, true, null,
                    DEFAULT_SEED);
        }
    }

    private UrlSeenMemoryBench() {
    }

    public static UrlSeenMemoryResult run(Options o, PrintStream log) throws IOException {
        Map<String, UrlSeenMemoryResult.Dataset> datasets = new LinkedHashMap<>();
        UrlSeenMemoryResult.Dataset first = null;
        if (o.graph() != null) {
            long tests = BreadthFirstCrawl.run(o.graph(), o.seedNode(), true, (n, s) -> { }).tests();
            int a = o.graphScaleLog2() > 0 ? o.graphScaleLog2() : autoScale(tests);
            first = dataset("graph", o.graph(), o.seedNode(), a, o, log);
            datasets.put("graph", first);
        }
        Double syntheticK4 = Double.NaN; // NaN: no synthetic stream, left out of the summary
        Double syntheticK8 = Double.NaN;
        if (o.synthetic()) {
            SyntheticWebGraph g = syntheticFor(o.syntheticTests(), o.seed());
            int a = o.syntheticScaleLog2() > 0 ? o.syntheticScaleLog2() : autoScale(o.syntheticTests());
            UrlSeenMemoryResult.Dataset d = dataset("synthetic", g, 0, a, o, log);
            datasets.put("synthetic", d);
            syntheticK4 = d.memoryReductionK4();
            syntheticK8 = d.memoryReductionK8();
            if (first == null) {
                first = d;
            }
        }
        return new UrlSeenMemoryResult(first.memoryReductionK4(), first.memoryReductionK8(), syntheticK4, syntheticK8,
                0.63, datasets, BenchReport.machine());
    }

    /** The paper's grid shifted by the ratio of its 4.16×10^9 links to this stream's tests. */
    static int autoScale(long tests) {
        long shift = Math.round(Math.log(PAPER_LINKS / tests) / Math.log(2));
        return (int) Math.max(2, Math.min(20, 18 - shift));
    }

    static SyntheticWebGraph syntheticFor(long tests, long seed) {
        SyntheticWebGraph probe = SyntheticWebGraph.generate(1_000_000, 40, 10, seed);
        long links = 0;
        for (int i = 0; i < 200_000; i++) {
            links += probe.outdegree(i);
        }
        double mean = links / 200_000.0;
        int pages = (int) Math.min(Integer.MAX_VALUE - 8L, Math.max(1000, Math.round(tests / mean)));
        return SyntheticWebGraph.generate(pages, 40, 10, seed);
    }

    private static UrlSeenMemoryResult.Dataset dataset(String name, LinkGraph graph, int seedNode, int a, Options o,
            PrintStream log) throws IOException {
        log.printf("%s: %s, LRU alone 2^%d..2^%d, LRU 2^%d + SBFL 2^%d..2^%d%n", name, graph.description(), a,
                a + 6 + o.lruExtraSteps(), a + 2, a + 6, a + 12);
        UrlSeenExperiment e = new UrlSeenExperiment(a, o.lruExtraSteps(), o.counterBits(), o.withSbf(), o.seed());
        long start = System.nanoTime();
        BreadthFirstCrawl.Stats stats = e.run(graph, seedNode, log);
        double seconds = (System.nanoTime() - start) / 1e9;
        List<Config> lru = e.series("lruOnly");
        List<Config> k4 = e.series("sbflK4");
        List<Config> k8 = e.series("sbflK8");
        List<Config> sbf = e.series("sbfK4");
        for (Config c : e.configs) {
            log.printf("  %-8s LRU %,10d  m %,13d  hit %.4f  FP %,10d  FN %,11d  mem %,12d B%n", c.series, c.lruSize,
                    c.counters, c.hitRate(), c.falsePositives, c.falseNegatives, c.paperMemoryBytes());
        }
        Double reductionK4 = best(k4, lru, Accounting.PAPER);
        Double reductionK8 = best(k8, lru, Accounting.PAPER);
        log.printf("  %s: memory reduction k=4 %s, k=8 %s (%.0f s)%n", name, reductionK4, reductionK8, seconds);
        String plot = null;
        if (o.plotBasename() != null) {
            Path file = Path.of(o.plotBasename() + "-" + name + ".svg");
            List<SvgChart.Series> series = new ArrayList<>();
            series.add(curve("LRU alone", lru));
            series.add(curve("LRU+SBFL k=4, 1%", k4));
            series.add(curve("LRU+SBFL k=8, 0.001%", k8));
            SvgChart.write(file, "URL-seen hit rate vs memory at equal hit rate (seed 000, Figs. 9/10)\n"
                    + graph.description() + ", breadth-first, " + stats.tests() + " tests",
                    "memory (paper accounting: LRU 20 B/entry, SBFL " + o.counterBits() + " bits/counter)",
                    "hit rate", series, true, false);
            plot = file.toString();
        }
        List<UrlSeenMemoryResult.LruPoint> lruPoints = new ArrayList<>();
        for (Config c : lru) {
            lruPoints.add(c.lruPoint());
        }
        return new UrlSeenMemoryResult.Dataset(graph.description(), stats.tests(), stats.distinct(),
                BenchReport.round(stats.maxHitRate()), a, e.lruFixed, BenchReport.round(seconds), lruPoints,
                points(k4, lru), reductionK4, best(k4, lru, Accounting.MEASURED), best(k4, lru, Accounting.TRUE_HITS),
                points(k8, lru), reductionK8, best(k8, lru, Accounting.MEASURED), best(k8, lru, Accounting.TRUE_HITS),
                sbf.isEmpty() ? null : points(sbf, lru), plot);
    }

    private static SvgChart.Series curve(String label, List<Config> cs) {
        double[] x = new double[cs.size()];
        double[] y = new double[cs.size()];
        for (int i = 0; i < cs.size(); i++) {
            x[i] = cs.get(i).paperMemoryBytes();
            y[i] = cs.get(i).hitRate();
        }
        return new SvgChart.Series(label, x, y, true);
    }

    enum Accounting { PAPER, MEASURED, TRUE_HITS }

    /** Each filter configuration's figures and the LRU alone it equals in hit rate, with the reductions. */
    private static List<UrlSeenMemoryResult.FilterPoint> points(List<Config> cs, List<Config> lru) {
        List<UrlSeenMemoryResult.FilterPoint> out = new ArrayList<>();
        for (Config c : cs) {
            double size = lruSizeAt(lru, c.hitRate());
            out.add(c.filterPoint(Double.isNaN(size) ? null : BenchReport.round(size),
                    reduction(c, lru, Accounting.PAPER), reduction(c, lru, Accounting.MEASURED),
                    reduction(c, lru, Accounting.TRUE_HITS)));
        }
        return out;
    }

    /** The largest reduction over the series, or null if no configuration falls inside the LRU-alone range. */
    private static Double best(List<Config> cs, List<Config> lru, Accounting accounting) {
        Double best = null;
        for (Config c : cs) {
            Double r = reduction(c, lru, accounting);
            if (r != null && (best == null || r > best)) {
                best = r;
            }
        }
        return best;
    }

    /** 1 − memory(c) / memory(LRU alone at c's hit rate); null outside the measured LRU-alone range. */
    static Double reduction(Config c, List<Config> lru, Accounting accounting) {
        double hit = accounting == Accounting.TRUE_HITS
                ? (c.test.lruHits() + c.test.sbflPositives() - c.falsePositives) / (double) Math.max(1, c.test.tests())
                : c.hitRate();
        double size = lruSizeAt(lru, hit);
        if (Double.isNaN(size)) {
            return null;
        }
        double lruBytes;
        double ownBytes;
        if (accounting == Accounting.MEASURED) {
            lruBytes = UrlSeenExperiment.lruMemoryMeasured((int) Math.round(size));
            ownBytes = c.measuredMemoryBytes();
        } else {
            lruBytes = 20.0 * size;
            ownBytes = c.paperMemoryBytes();
        }
        return BenchReport.round(1.0 - ownBytes / lruBytes);
    }

    /** LRU-alone size at hit rate {@code h} by linear interpolation between measured points; NaN outside. */
    static double lruSizeAt(List<Config> lru, double h) {
        double[] sizes = new double[lru.size()];
        double[] hits = new double[lru.size()];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = lru.get(i).lruSize;
            hits[i] = lru.get(i).hitRate();
        }
        return interpolate(sizes, hits, h);
    }

    /**
     * The size at which the curve (sizes ascending, hit rates non-decreasing) reaches hit rate {@code h}, linearly
     * interpolated between the two bracketing points (the first bracket wins on plateaus); NaN outside the curve.
     */
    static double interpolate(double[] sizes, double[] hitRates, double h) {
        for (int i = 0; i + 1 < sizes.length; i++) {
            double h0 = hitRates[i];
            double h1 = hitRates[i + 1];
            if (h >= h0 && h <= h1) {
                return h1 == h0 ? sizes[i] : sizes[i] + (h - h0) / (h1 - h0) * (sizes[i + 1] - sizes[i]);
            }
        }
        return Double.NaN;
    }
}
