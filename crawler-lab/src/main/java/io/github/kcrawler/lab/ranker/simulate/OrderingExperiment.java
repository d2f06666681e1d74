package io.github.kcrawler.lab.ranker.simulate;

import io.github.kcrawler.lab.ranker.pagerank.BatchPageRank;
import io.github.kcrawler.lab.ranker.pagerank.CrawlOrdering;
import io.github.kcrawler.lab.ranker.pagerank.IncrementalPageRankOrdering;
import io.github.kcrawler.lab.ranker.pagerank.NewSiteIncrementalPageRankOrdering;
import io.github.kcrawler.lab.ranker.pagerank.NewSiteRecomputedPageRankOrdering;
import io.github.kcrawler.lab.ranker.pagerank.NodeLabels;
import io.github.kcrawler.lab.ranker.pagerank.PoliteOrdering;
import io.github.kcrawler.ranker.pagerank.PageRank;
import io.github.kcrawler.lab.ranker.pagerank.Strategies;
import io.github.kcrawler.websim.GeneratedGraphSource;
import io.github.kcrawler.websim.SiteLayout;
import io.github.kcrawler.websim.WebSimConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The crawl-ordering experiment of paper 002 (§4) on a graph in memory: the converged PageRank of the whole graph
 * as ground truth, one simulated crawl per strategy from the same seeds, criteria A, B and C at every 1% of the
 * crawl, the priority-determination speed of each strategy, and the paper's Figures 4–10 as SVG files ({@link OrderingPlots}).
 *
 * <p>The summary is an {@link OrderingResult}; the fields the issue names are {@code criterionA.<name>} (an object of
 * {@code top0.1%}, {@code top1%}, {@code top10%}, each the 10 values at 10%…100% of pages crawled),
 * {@code criterionB.<name>} and {@code criterionC.<name>} (10 values each) and {@code priorityPagesPerSecond.<name>}
 * (the fastest of {@code timing-repeats} timed crawls after one untimed one, because on a shared machine the slower
 * runs measure the other processes; {@code priorityPagesPerSecondMedian} has the median);
 * {@code curves} holds every 1% point, and {@code goalB} states for every 10% point whether the best IPR variant is
 * at or above every baseline on criterion B. {@link OrderingMain} runs it from the command line.
 */
public final class OrderingExperiment {

    private static final Logger LOG = LoggerFactory.getLogger(OrderingExperiment.class);
    /** Shares that differ by less than this are equal (sums of 325,557 doubles differ in the last bits). */
    static final double SHARE_EPSILON = 1e-12;

    private OrderingExperiment() {
    }

    /** Loads the BVGraph {@code graphBasename}, lays out websim's hosts over it and runs the experiment. */
    public static OrderingResult run(Path graphBasename, OrderingOptions options) throws IOException {
        long t0 = System.nanoTime();
        LinkGraph graph = LinkGraph.load(graphBasename);
        int[] seeds = seeds(graph, options);
        NodeLabels labels = SyntheticUrls.of(graph.numNodes(), options.layoutSeed(), options.meanPagesPerHost(), seeds);
        LOG.info("loaded {} ({} pages, {} links, {} hosts) in {} ms", graphBasename, graph.numNodes(), graph.numArcs(),
                SyntheticUrls.hosts(labels), (System.nanoTime() - t0) / 1_000_000);
        return run(graph, labels, options).withGraph(graphBasename.toString());
    }

    /**
     * Runs the experiment on websim's generated graph ({@link GeneratedGraphSource}) of {@code pages} pages over its
     * host layout (the options' layout seed and mean host size; the graph's seed is the layout seed): a second graph
     * of a different shape, to check that a result on cnr-2000 is not a property of that one graph.
     */
    public static OrderingResult runSynthetic(int pages, OrderingOptions options) throws IOException {
        SiteLayout layout = SiteLayout.build(pages, WebSimConfig.builder().seed(options.layoutSeed())
                .meanPagesPerHost(options.meanPagesPerHost()).build());
        GeneratedGraphSource source = GeneratedGraphSource.generate(layout);
        int[][] adjacency = new int[pages][];
        for (int v = 0; v < pages; v++) {
            adjacency[v] = source.outlinks(v);
        }
        return run(LinkGraph.of(adjacency), SyntheticUrls.of(layout), options)
                .withGraph("synthetic: websim's generated graph, " + pages + " pages, seed " + options.layoutSeed());
    }

    /** Runs the experiment on a graph with the given labels (hosts and URL shapes). */
    public static OrderingResult run(LinkGraph graph, NodeLabels labels, OrderingOptions options)
            throws IOException {
        if (labels.numNodes() != graph.numNodes()) {
            throw new IllegalArgumentException("labels cover " + labels.numNodes() + " nodes, graph has "
                    + graph.numNodes());
        }
        int[] seeds = seeds(graph, options);
        BitSet reachable = graph.reachableFrom(seeds);
        int[] population = reachable.stream().toArray();
        int recomputeEvery = (int) Math.max(1, (population.length + options.prRecomputations() - 1L)
                / options.prRecomputations());

        long t0 = System.nanoTime();
        PageRank.Result truth = PageRank.compute(graph.offsets(), graph.targets(), options.damping(),
                options.tolerance(), PageRank.DEFAULT_MAX_ITERATIONS);
        double reachableShare = 0;
        for (int v : population) {
            reachableShare += truth.scores()[v];
        }
        LOG.info("reference PageRank: {} iterations, L1 change {}, {} ms", truth.iterations(), truth.lastChange(),
                (System.nanoTime() - t0) / 1_000_000);
        Criteria criteria = new Criteria(truth.scores(), population, options.c());

        Map<String, Map<String, double[]>> criterionA = new LinkedHashMap<>();
        Map<String, double[]> criterionB = new LinkedHashMap<>();
        Map<String, double[]> criterionC = new LinkedHashMap<>();
        Map<String, Double> speed = new LinkedHashMap<>();
        Map<String, Double> speedMedian = new LinkedHashMap<>();
        Map<String, Map<String, double[]>> curves = new LinkedHashMap<>();
        Map<String, OrderingResult.Work> work = new LinkedHashMap<>();
        Map<String, Criteria.Curves> byName = new LinkedHashMap<>();
        for (String name : options.strategies()) {
            Supplier<CrawlOrdering> factory = () -> Strategies.create(name, labels, options.ipr(), recomputeEvery,
                    options.damping(), options.politeness());
            CrawlOrdering crawled = factory.get();
            CrawlOrdering ordering = crawled instanceof PoliteOrdering polite ? polite.inner() : crawled;
            long c0 = System.nanoTime();
            int[] order = CrawlSimulator.crawl(crawled, graph, seeds, options.feedbackDelay());
            long crawlNanos = System.nanoTime() - c0;
            Criteria.Curves cv = criteria.evaluate(order);
            if (crawled instanceof PoliteOrdering polite) {
                LOG.info("{} under politeness k={}: {} holds, {} waits", name, polite.k(), polite.holds(),
                        polite.waits());
            }
            byName.put(name, cv);
            Map<String, double[]> a = new LinkedHashMap<>();
            Map<String, double[]> curve = new LinkedHashMap<>();
            for (int f = 0; f < Criteria.TOP_LABELS.length; f++) {
                a.put(Criteria.TOP_LABELS[f], Criteria.tenths(cv.topShare()[f]));
                curve.put(Criteria.TOP_LABELS[f], cv.topShare()[f]);
            }
            curve.put("criterionB", cv.pageRankShare());
            curve.put("criterionC", cv.orderError());
            criterionA.put(name, a);
            criterionB.put(name, Criteria.tenths(cv.pageRankShare()));
            criterionC.put(name, Criteria.tenths(cv.orderError()));
            curves.put(name, curve);
            if (ordering instanceof IncrementalPageRankOrdering ipr) {
                work.put(name, new OrderingResult.Work((double) ipr.rank().receipts() / order.length, null));
            } else if (ordering instanceof NewSiteIncrementalPageRankOrdering ns) {
                work.put(name, new OrderingResult.Work((double) ns.rank().receipts() / order.length, null));
            } else if (ordering instanceof NewSiteRecomputedPageRankOrdering nsr) {
                work.put(name, new OrderingResult.Work(null,
                        new OrderingResult.Recomputations(nsr.recomputations(), recomputeEvery)));
            } else if (ordering instanceof BatchPageRank pr) {
                work.put(name, new OrderingResult.Work(null,
                        new OrderingResult.Recomputations(pr.recomputations(), pr.recomputeEvery())));
            }
            double rate;
            double median;
            if (options.timingRepeats() == 0) {
                rate = order.length * 1e9 / Math.max(1, crawlNanos);
                median = rate;
            } else {
                double[] rates = CrawlSimulator.pagesPerSecond(factory, graph, seeds, options.timingRepeats());
                rate = rates[rates.length - 1];
                median = CrawlSimulator.median(rates);
            }
            speed.put(name, rate);
            speedMedian.put(name, median);
            LOG.info("{}: B at 10% {}, C(100%) {}, {} pages/s", name, String.format("%.4f", cv.pageRankShare()[9]),
                    String.format("%.4f", cv.orderError()[Criteria.POINTS - 1]), String.format("%,.0f", rate));
        }

        Map<String, Integer> topSetSizes = new LinkedHashMap<>();
        for (int f = 0; f < Criteria.TOP_LABELS.length; f++) {
            topSetSizes.put(Criteria.TOP_LABELS[f], criteria.topSizes()[f]);
        }
        return new OrderingResult(null, "ordering", graph.numNodes(), graph.numArcs(), seeds,
                seedRule(options), population.length,
                SyntheticUrls.hosts(labels), new OrderingResult.Layout(options.layoutSeed(), options.meanPagesPerHost()),
                new OrderingResult.PageRankFigures(options.damping(), options.tolerance(), truth.iterations(),
                        truth.lastChange(), reachableShare), options.c(),
                new OrderingResult.IprParameters(options.ipr().pageLimit(), options.ipr().valueRatio(),
                        options.ipr().accumulatedRatio()), recomputeEvery,
                new int[] {10, 20, 30, 40, 50, 60, 70, 80, 90, 100}, topSetSizes, criterionA, criterionB, criterionC,
                speed, speedMedian, options.timingRepeats(), work, goalB(byName), Strategies.DEFAULT, curves,
                options.politeness(), options.feedbackDelay(), options.plotDir() != null ? OrderingPlots.figures(options.plotDir(), byName, speed) : null);
    }

    private static String seedRule(OrderingOptions options) {
        if (options.sccSeeds() > 0) {
            return "smallest page of each of the " + options.sccSeeds() + " largest strongly connected components";
        }
        return options.seeds().isEmpty() ? "page with the largest out-degree" : "given";
    }

    private static int[] seeds(LinkGraph graph, OrderingOptions options) {
        if (graph.numNodes() == 0) {
            throw new IllegalArgumentException("the graph has no pages");
        }
        if (options.sccSeeds() > 0) {
            return graph.largestComponentSeeds(options.sccSeeds());
        }
        if (options.seeds().isEmpty()) {
            return new int[] {graph.maxOutdegreeNode()};
        }
        int[] seeds = options.seeds().stream().mapToInt(Integer::intValue).toArray();
        for (int s : seeds) {
            if (s >= graph.numNodes()) {
                throw new IllegalArgumentException("seed page " + s + " is outside [0, " + graph.numNodes() + ")");
            }
        }
        return seeds;
    }

    /** For each 10% point: the best IPR variant against the best baseline on criterion B. */
    private static OrderingResult.GoalB goalB(Map<String, Criteria.Curves> byName) {
        List<String> ipr = byName.keySet().stream().filter(Strategies.IPR::contains).toList();
        List<String> base = byName.keySet().stream().filter(Strategies.BASELINES::contains).toList();
        if (ipr.isEmpty() || base.isEmpty()) {
            return new OrderingResult.GoalB(false, null, null, null);
        }
        List<OrderingResult.GoalPoint> points = new ArrayList<>();
        boolean all = true;
        Map<String, Boolean> variantHolds = new LinkedHashMap<>();
        ipr.forEach(n -> variantHolds.put(n, true));
        for (int i = 0; i < 10; i++) {
            int j = (i + 1) * Criteria.POINTS / 10 - 1;
            String bestIpr = null;
            String bestBase = null;
            for (String n : ipr) {
                if (bestIpr == null || byName.get(n).pageRankShare()[j] > byName.get(bestIpr).pageRankShare()[j]) {
                    bestIpr = n;
                }
            }
            for (String n : base) {
                if (bestBase == null || byName.get(n).pageRankShare()[j] > byName.get(bestBase).pageRankShare()[j]) {
                    bestBase = n;
                }
            }
            double bi = byName.get(bestIpr).pageRankShare()[j];
            double bb = byName.get(bestBase).pageRankShare()[j];
            for (String n : ipr) {
                if (byName.get(n).pageRankShare()[j] < bb - SHARE_EPSILON) {
                    variantHolds.put(n, false);
                }
            }
            boolean met = bi >= bb - SHARE_EPSILON;
            all &= met;
            points.add(new OrderingResult.GoalPoint((i + 1) * 10, bestIpr, bi, bestBase, bb, met));
        }
        return new OrderingResult.GoalB(null, all,
                variantHolds.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList(), points);
    }
}
