package io.github.kcrawler.lab.simulate;

import io.github.kcrawler.lab.chart.SvgChart;
import io.github.kcrawler.scheduler.politeness.WheelOrder;
import io.github.kcrawler.ranker.pagerank.IncrementalPageRank;
import io.github.kcrawler.ranker.pagerank.PageRank;
import io.github.kcrawler.lab.ranker.simulate.LinkGraph;
import io.github.kcrawler.scheduler.wheel.PolitenessWheel;
import io.github.kcrawler.scheduler.politeness.PriorityFront;
import io.github.kcrawler.websim.SiteLayout;
import io.github.kcrawler.websim.WebSimConfig;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The experiments of paper 004 §4 ({@code ../shared/seeds/004_4207424cc682bc95.txt}; DESIGN §4.5) on a graph in
 * memory: crawl simulations in steps with the {@link PolitenessWheel}, measuring pages crawled, the share of the
 * PageRank collected and the URLs stored.
 *
 * <h2>Setting</h2>
 * <ul>
 *   <li><b>Graph and seeds.</b> As the paper: one seed (the smallest page id) from each of the {@code components}
 *   largest strongly connected components (iterative Tarjan), and the experiment graph is the subgraph the seeds
 *   reach. The paper took 1,024 components of uk-2006-05 (76M reached pages); scaled by pages that is one per 74,315
 *   pages, so the default is {@code max(4, round(1024·n/76,097,063))}: 4 on cnr-2000.</li>
 *   <li><b>PageRank.</b> Of the whole experiment graph (ranker's power iteration {@link PageRank#compute}, the one
 *   {@code BatchPageRank} runs, damping 0.85, L1 tolerance 1e-10); shares are of that total.</li>
 *   <li><b>Page → IP.</b> websim's {@link SiteLayout} (runs of consecutive ids per host, heavy-tailed host sizes,
 *   hosts hashed onto addresses 127.1.x.y); the IP key is the 32-bit IPv4 address, so {@code r = a mod H} as in the
 *   paper.</li>
 *   <li><b>Crawl.</b> Each step fetches the batch Next hands out (Algorithm 1); the outlinks of fetched pages go
 *   through an exact URL-seen set; a new URL is admitted and enqueued ({@code fifo}: the seed's scheduler as it is)
 *   or offered to a {@link PriorityFront} ({@code priority}); a URL dropped by the wheel or evicted by the pool
 *   is forgotten by the seen set, so it can be rediscovered. In priority mode, before each Next the pool feeds the
 *   wheel best first: up to H/2 URLs are enqueued, a URL whose residue is full waits in the pool (it is offered back
 *   after the feed), at most H polls per step. Scores: {@code ipr} = incremental PageRank DL1 (ranker's
 *   {@link IncrementalPageRank}, rescored on every change it reports) or {@code backlinks} = in-crawl back-link
 *   count. The crawl ends when wheel and pool are empty.</li>
 *   <li><b>Baselines.</b> {@code BFS}: one global FIFO, no politeness, never drops. {@code IRLbot}: per-IP FIFO
 *   queues, each step takes one URL from every IP with a pending URL, overflow is kept (exhaustive, like BEAST
 *   with budget 1 per IP and step). {@code OPT}: pages by descending true PageRank, links ignored.</li>
 *   <li><b>Stored URLs.</b> URLs waiting in the scheduler (wheel + pool; queue for BFS/IRLbot), sampled before each
 *   Next; the seen set is not counted (the paper's Fig. 6 counts the scheduler).</li>
 * </ul>
 *
 * <h2>Output</h2>
 * A JSON-ready map: per configuration {@code pagesCrawled}, {@code pageShare}, {@code prShare},
 * {@code peakStored}, {@code dropped}, {@code steps}; exp. (a) {@code varyB} (H fixed), exp. (b) {@code varyH}
 * (B fixed), exp. (c) {@code progress} with curves; {@code prShareAtTenthStorage}: the best PageRank share among
 * wheel configurations whose peak storage is at most a tenth of IRLbot's (paper: 80%). SVG versions of the paper's
 * Figures 2–6 go to {@code plotDir}.
 */
public final class SchedulerExperiment {

    /** uk-2006-05 as reached from the paper's 1,024 seeds. */
    static final long PAPER_GRAPH_PAGES = 76_097_063L;
    static final int PAPER_COMPONENTS = 1024;

    /** Scores of the priority front. */
    public enum Score { IPR, BACKLINKS }

    /**
     * Settings of a run; the constructor validates and names the bad value.
     *
     * @param graph           BVGraph basename (ignored by {@link #run(LinkGraph, long[], Options, PrintStream)})
     * @param components      seed components, 0 = scaled from the paper (see the class comment)
     * @param layoutSeed      websim layout seed
     * @param meanPagesPerHost websim's mean host size
     * @param ips             websim's address count
     * @param fixedH          H of exp. (a)
     * @param bValues         B values of exp. (a)
     * @param fixedB          B of exp. (b)
     * @param hValues         H values of exp. (b)
     * @param progress        (B, H) pairs of exp. (c)
     * @param score           score of the priority front
     * @param poolFraction    pool capacity as a fraction of B·H/2
     * @param damping         PageRank damping
     * @param curvePoints     samples per curve
     * @param plotDir         where the SVGs go, or null
     */
    public record Options(Path graph, int components, long layoutSeed, double meanPagesPerHost, int ips, int fixedH,
            int[] bValues, int fixedB, int[] hValues, int[][] progress, Score score, double poolFraction,
            double damping, int curvePoints, Path plotDir) {

        public static final int DEFAULT_FIXED_H = 128;
        public static final int DEFAULT_FIXED_B = 128;
        public static final int[] DEFAULT_B_VALUES = {4, 8, 16, 32, 64, 128, 256, 512};
        public static final int[] DEFAULT_H_VALUES = {8, 16, 32, 64, 128, 256, 512, 1024};
        public static final int[][] DEFAULT_PROGRESS = {{32, 32}, {64, 64}, {128, 128}};

        public Options {
            check(components >= 0, "components must be >= 0, was " + components);
            check(meanPagesPerHost >= 1, "meanPagesPerHost must be >= 1, was " + meanPagesPerHost);
            check(ips >= 1 && ips <= SiteLayout.MAX_IPS, "ips must be in [1, " + SiteLayout.MAX_IPS + "], was " + ips);
            checkH(fixedH);
            check(fixedB >= 2, "fixed B must be >= 2, was " + fixedB);
            for (int b : bValues) {
                check(b >= 2, "every B must be >= 2, was " + b);
            }
            for (int h : hValues) {
                checkH(h);
            }
            for (int[] bh : progress) {
                check(bh.length == 2, "a progress setting is B,H; was " + Arrays.toString(bh));
                check(bh[0] >= 2, "every B must be >= 2, was " + bh[0]);
                checkH(bh[1]);
            }
            check(score != null, "score must be given");
            check(poolFraction > 0 && poolFraction <= 16, "poolFraction must be in (0, 16], was " + poolFraction);
            check(damping > 0 && damping < 1, "damping must be in (0, 1), was " + damping);
            check(curvePoints >= 2, "curvePoints must be >= 2, was " + curvePoints);
        }

        private static void checkH(int h) {
            check(h >= 2 && h % 2 == 0, "every H must be even and >= 2, was " + h);
        }

        private static void check(boolean ok, String message) {
            if (!ok) {
                throw new IllegalArgumentException(message);
            }
        }

        /** The defaults for a graph. */
        public static Options defaults(Path graph) {
            return new Options(graph, 0, 1L, 20.0, SiteLayout.MAX_IPS, DEFAULT_FIXED_H, DEFAULT_B_VALUES,
                    DEFAULT_FIXED_B, DEFAULT_H_VALUES, DEFAULT_PROGRESS, Score.IPR, 1.0, 0.85, 400, null);
        }
    }

    private SchedulerExperiment() {
    }

    /** Loads the BVGraph, lays out websim's hosts and IPs over it and runs all three experiments. */
    public static SchedulerResult run(Options options, PrintStream log) throws IOException {
        if (options.graph() == null) {
            throw new IllegalArgumentException("a graph basename is required");
        }
        long t0 = System.nanoTime();
        LinkGraph graph = LinkGraph.load(options.graph());
        WebSimConfig config = WebSimConfig.builder().seed(options.layoutSeed())
                .meanPagesPerHost(options.meanPagesPerHost()).ips(options.ips()).build();
        SiteLayout layout = SiteLayout.build(graph.numNodes(), config);
        long[] ipKey = new long[graph.numNodes()];
        for (int p = 0; p < ipKey.length; p++) {
            ipKey[p] = ipv4(layout.ipIndexOfPage(p));
        }
        log.printf(Locale.ROOT, "loaded %s: %,d pages, %,d links, %,d hosts on %,d IPs (%d ms)%n", options.graph(),
                graph.numNodes(), graph.numArcs(), layout.numHosts(), layout.numIps(),
                (System.nanoTime() - t0) / 1_000_000);
        return run(graph, ipKey, options, log).withGraph(options.graph().toString(), new SchedulerResult.Layout(
                "websim SiteLayout", options.layoutSeed(), options.meanPagesPerHost(), layout.numHosts(),
                layout.numIps(), "IPv4 address 127.1.x.y as a 32-bit integer"));
    }

    /** IPv4 address of websim's address index {@code j}: 127.1.(j / 254).(j % 254 + 1). */
    static long ipv4(int j) {
        return (127L << 24) | (1L << 16) | ((long) (j / 254) << 8) | (j % 254 + 1);
    }

    /** Runs the experiments on a graph whose page p is served by the IP {@code ipKey[p]}. */
    public static SchedulerResult run(LinkGraph full, long[] ipKey, Options options, PrintStream log)
            throws IOException {
        if (ipKey.length != full.numNodes()) {
            throw new IllegalArgumentException("ipKey covers " + ipKey.length + " pages, graph has " + full.numNodes());
        }
        if (full.numNodes() == 0) {
            throw new IllegalArgumentException("the graph has no pages");
        }
        int components = options.components() > 0 ? options.components()
                : (int) Math.max(4, Math.round((double) PAPER_COMPONENTS * full.numNodes() / PAPER_GRAPH_PAGES));
        long t0 = System.nanoTime();
        int[][] compInfo = StronglyConnectedComponents.largestComponentSizes(full, components);
        int[] seedsFull = compInfo[1];
        BitSet reach = full.reachableFrom(seedsFull);
        Sub sub = Sub.of(full, reach, ipKey);
        int[] seeds = new int[seedsFull.length];
        for (int i = 0; i < seeds.length; i++) {
            seeds[i] = sub.newId[seedsFull[i]];
        }
        log.printf(Locale.ROOT, "seeds: %d pages, one per largest SCC (sizes %s); they reach %,d pages, %,d links "
                + "(%d ms)%n", seeds.length, Arrays.toString(compInfo[0]), sub.graph.numNodes(),
                sub.graph.numArcs(), (System.nanoTime() - t0) / 1_000_000);
        t0 = System.nanoTime();
        PageRank.Result truth = PageRank.compute(sub.graph.offsets(), sub.graph.targets(), options.damping(),
                PageRank.DEFAULT_TOLERANCE, PageRank.DEFAULT_MAX_ITERATIONS);
        double total = 0;
        for (double s : truth.scores()) {
            total += s;
        }
        double[] pr = truth.scores().clone();
        for (int i = 0; i < pr.length; i++) {
            pr[i] /= total;
        }
        log.printf(Locale.ROOT, "PageRank: %d iterations, last L1 change %.2e (%d ms)%n", truth.iterations(),
                truth.lastChange(), (System.nanoTime() - t0) / 1_000_000);

        SchedulerSimulator sim = new SchedulerSimulator(sub.graph, sub.ipKey, pr, seeds, options.curvePoints());
        String seedRule = "smallest page id of each of the " + components + " largest strongly connected components"
                + (options.components() > 0 ? "" : " (paper: 1,024 of 76,097,063 pages, scaled by pages, min 4)");
        SchedulerResult.PageRankSettings pagerank = new SchedulerResult.PageRankSettings(options.damping(),
                PageRank.DEFAULT_TOLERANCE, truth.iterations(), "the reached subgraph (the paper's experiment graph)");
        SchedulerResult.Priority priority = new SchedulerResult.Priority(options.score().name().toLowerCase(Locale.ROOT),
                "poolFraction * B*H/2", options.poolFraction(), "H/2 enqueued, at most H polls");

        SchedulerRun opt = sim.opt();
        SchedulerRun irl = sim.irlbot();
        SchedulerRun bfs = sim.bfs();
        log.printf(Locale.ROOT, "IRLbot-style: %,d pages, peak stored %,d, %,d steps; BFS peak stored %,d%n",
                irl.pagesCrawled, irl.peakStored, irl.steps, bfs.peakStored);
        SchedulerResult.Exhaustive exhaustive = new SchedulerResult.Exhaustive(irl.summary(false), bfs.summary(false));
        SchedulerResult.Run figure2 = opt.summary(true);

        Map<String, SchedulerRun> cache = new LinkedHashMap<>(); // the same (B, H, order) appears in several experiments
        WheelRuns cached = (b, h, order) -> cache.computeIfAbsent(b + "/" + h + "/" + order,
                k -> sim.wheel(b, h, order, options));
        List<SchedulerResult.Vary> varyB = new ArrayList<>();
        List<SchedulerRun[]> varyBRuns = new ArrayList<>();
        for (int b : options.bValues()) {
            SchedulerRun f = cached.apply(b, options.fixedH(), WheelOrder.FIFO);
            SchedulerRun p = cached.apply(b, options.fixedH(), WheelOrder.PRIORITY);
            varyBRuns.add(new SchedulerRun[] {f, p});
            varyB.add(new SchedulerResult.Vary(b, options.fixedH(), f.summary(false), p.summary(false)));
            logRun(log, f);
            logRun(log, p);
        }
        List<SchedulerResult.Vary> varyH = new ArrayList<>();
        List<SchedulerRun[]> varyHRuns = new ArrayList<>();
        for (int h : options.hValues()) {
            SchedulerRun f = cached.apply(options.fixedB(), h, WheelOrder.FIFO);
            SchedulerRun p = cached.apply(options.fixedB(), h, WheelOrder.PRIORITY);
            varyHRuns.add(new SchedulerRun[] {f, p});
            varyH.add(new SchedulerResult.Vary(options.fixedB(), h, f.summary(false), p.summary(false)));
            logRun(log, f);
            logRun(log, p);
        }
        List<SchedulerRun> progress = new ArrayList<>();
        for (int[] bh : options.progress()) {
            SchedulerRun f = cached.apply(bh[0], bh[1], WheelOrder.FIFO);
            SchedulerRun p = cached.apply(bh[0], bh[1], WheelOrder.PRIORITY);
            progress.add(f);
            progress.add(p);
            logRun(log, f);
            logRun(log, p);
        }
        Map<String, SchedulerResult.Run> prog = new LinkedHashMap<>();
        for (SchedulerRun r : progress) {
            prog.put(r.name, r.summary(true));
        }
        prog.put(bfs.name, bfs.summary(true));
        prog.put(irl.name, irl.summary(true));
        prog.put(opt.name, opt.summary(true));

        SchedulerRun best = null;
        for (SchedulerRun r : cache.values()) {
            if (r.peakStored * 10 <= irl.peakStored && (best == null || r.prShare > best.prShare)) {
                best = r;
            }
        }
        return new SchedulerResult(null, null, "scheduler", "004_4207424cc682bc95.txt", full.numNodes(),
                full.numArcs(), components, seedRule, compInfo[0], seedsFull, sub.graph.numNodes(),
                sub.graph.numArcs(), pagerank, priority, exhaustive, figure2, varyB, varyH, prog,
                best == null ? null : best.prShare,
                best == null ? "no wheel configuration stored <= 1/10 of IRLbot's peak"
                        : best.name + " (peak stored " + best.peakStored + " vs IRLbot " + irl.peakStored + ")",
                options.plotDir() != null
                        ? figures(options.plotDir(), options, opt, varyBRuns, varyHRuns, progress, bfs, irl) : null);
    }

    @FunctionalInterface
    private interface WheelRuns {
        SchedulerRun apply(int b, int h, WheelOrder order);
    }

    private static void logRun(PrintStream log, SchedulerRun r) {
        log.printf(Locale.ROOT, "%-28s pages %,9d  PR %.4f  peak stored %,9d  dropped %,9d  steps %,d%n", r.name,
                r.pagesCrawled, r.prShare, r.peakStored, r.dropped, r.steps);
    }

    private static List<String> figures(Path dir, Options o, SchedulerRun opt, List<SchedulerRun[]> varyB, List<SchedulerRun[]> varyH,
            List<SchedulerRun> progress, SchedulerRun bfs, SchedulerRun irl) throws IOException {
        List<String> files = new ArrayList<>();
        SvgChart.write(dir.resolve("fig2-pagerank-vs-min-pages.svg"),
                "Fig. 2: PageRank share vs the fewest pages that hold it", "pages (descending PageRank)",
                "PageRank share", List.of(new SvgChart.Series("OPT", opt.curveX(), opt.curvePr(), false)), true, false);
        files.add("fig2-pagerank-vs-min-pages.svg");
        files.add(paramFigure(dir, "fig3-vary-B.svg", "Fig. 3: B varied (H = " + o.fixedH() + ")", "B", varyB,
                o.bValues()));
        files.add(paramFigure(dir, "fig4-vary-H.svg", "Fig. 4: H varied (B = " + o.fixedB() + ")", "H", varyH,
                o.hValues()));
        List<SvgChart.Series> pr = new ArrayList<>();
        List<SvgChart.Series> stored = new ArrayList<>();
        for (SchedulerRun r : progress) {
            pr.add(new SvgChart.Series(r.name, r.curveX(), r.curvePr(), false));
            stored.add(new SvgChart.Series(r.name, r.curveX(), r.curveStored(), false));
        }
        for (SchedulerRun r : List.of(bfs, irl)) {
            pr.add(new SvgChart.Series(r.name, r.curveX(), r.curvePr(), false));
            stored.add(new SvgChart.Series(r.name, r.curveX(), r.curveStored(), false));
        }
        pr.add(new SvgChart.Series(opt.name, opt.curveX(), opt.curvePr(), false));
        SvgChart.write(dir.resolve("fig5-pagerank-vs-crawled.svg"), "Fig. 5: PageRank share collected vs pages crawled",
                "pages crawled", "PageRank share", pr, false, false);
        files.add("fig5-pagerank-vs-crawled.svg");
        SvgChart.write(dir.resolve("fig6-stored-vs-crawled.svg"), "Fig. 6: URLs stored by the scheduler vs pages crawled",
                "pages crawled", "URLs stored (log)", stored, false, true);
        files.add("fig6-stored-vs-crawled.svg");
        return files;
    }

    private static String paramFigure(Path dir, String file, String title, String param, List<SchedulerRun[]> runs,
            int[] values) throws IOException {
        double[] x = new double[values.length];
        double[][] ys = new double[4][values.length];
        for (int i = 0; i < values.length; i++) {
            x[i] = values[i];
            SchedulerRun f = runs.get(i)[0];
            SchedulerRun p = runs.get(i)[1];
            ys[0][i] = f.pageShare;
            ys[1][i] = f.prShare;
            ys[2][i] = p.pageShare;
            ys[3][i] = p.prShare;
        }
        SvgChart.write(dir.resolve(file), title, param + " (log scale)", "share of pages / of PageRank", List.of(
                new SvgChart.Series("fifo: pages crawled", x, ys[0], true),
                new SvgChart.Series("fifo: PageRank sum", x, ys[1], true),
                new SvgChart.Series("priority: pages crawled", x, ys[2], true),
                new SvgChart.Series("priority: PageRank sum", x, ys[3], true)), true, false);
        return file;
    }

    // ---------------------------------------------------------------------------------------------------------
    // graph preparation

    /** The subgraph induced by the reached pages, renumbered in id order, with its IP keys. */
    private record Sub(LinkGraph graph, long[] ipKey, int[] newId) {
        static Sub of(LinkGraph g, BitSet reach, long[] ipKey) {
            int n = g.numNodes();
            int[] newId = new int[n];
            Arrays.fill(newId, -1);
            int m = 0;
            for (int v = reach.nextSetBit(0); v >= 0; v = reach.nextSetBit(v + 1)) {
                newId[v] = m++;
            }
            int[] off = new int[m + 1];
            long arcs = 0;
            for (int v = reach.nextSetBit(0); v >= 0; v = reach.nextSetBit(v + 1)) {
                arcs += g.outdegree(v);
            }
            int[] tgt = new int[Math.toIntExact(arcs)];
            long[] ips = new long[m];
            int pos = 0;
            for (int v = reach.nextSetBit(0); v >= 0; v = reach.nextSetBit(v + 1)) {
                int id = newId[v];
                ips[id] = ipKey[v];
                for (int k = g.offsets()[v]; k < g.offsets()[v + 1]; k++) {
                    tgt[pos++] = newId[g.targets()[k]]; // closed under successors: every target was reached
                }
                off[id + 1] = pos;
            }
            return new Sub(new LinkGraph(off, tgt), ips, newId);
        }
    }
}
