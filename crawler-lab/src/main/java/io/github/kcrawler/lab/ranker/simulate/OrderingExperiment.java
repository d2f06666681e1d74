package io.github.kcrawler.lab.ranker.simulate;

import io.github.kcrawler.lab.ranker.pagerank.BatchPageRank;
import io.github.kcrawler.lab.ranker.pagerank.CrawlOrdering;
import io.github.kcrawler.lab.ranker.pagerank.IncrementalPageRankOrdering;
import io.github.kcrawler.lab.ranker.pagerank.NewSiteIncrementalPageRankOrdering;
import io.github.kcrawler.lab.ranker.pagerank.NewSiteRecomputedPageRankOrdering;
import io.github.kcrawler.lab.ranker.pagerank.NodeLabels;
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
 * <p>The summary is a JSON-ready map; the fields the issue names are {@code criterionA.<name>} (an object of
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
    public static Map<String, Object> run(Path graphBasename, OrderingOptions options) throws IOException {
        long t0 = System.nanoTime();
        LinkGraph graph = LinkGraph.load(graphBasename);
        int[] seeds = seeds(graph, options);
        NodeLabels labels = SyntheticUrls.of(graph.numNodes(), options.layoutSeed(), options.meanPagesPerHost(), seeds);
        LOG.info("loaded {} ({} pages, {} links, {} hosts) in {} ms", graphBasename, graph.numNodes(), graph.numArcs(),
                SyntheticUrls.hosts(labels), (System.nanoTime() - t0) / 1_000_000);
        Map<String, Object> summary = run(graph, labels, options);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("graph", graphBasename.toString());
        out.putAll(summary);
        return out;
    }

    /**
     * Runs the experiment on websim's generated graph ({@link GeneratedGraphSource}) of {@code pages} pages over its
     * host layout (the options' layout seed and mean host size; the graph's seed is the layout seed): a second graph
     * of a different shape, to check that a result on cnr-2000 is not a property of that one graph.
     */
    public static Map<String, Object> runSynthetic(int pages, OrderingOptions options) throws IOException {
        SiteLayout layout = SiteLayout.build(pages, WebSimConfig.builder().seed(options.layoutSeed())
                .meanPagesPerHost(options.meanPagesPerHost()).build());
        GeneratedGraphSource source = GeneratedGraphSource.generate(layout);
        int[][] adjacency = new int[pages][];
        for (int v = 0; v < pages; v++) {
            adjacency[v] = source.outlinks(v);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("graph", "synthetic: websim's generated graph, " + pages + " pages, seed " + options.layoutSeed());
        out.putAll(run(LinkGraph.of(adjacency), SyntheticUrls.of(layout), options));
        return out;
    }

    /** Runs the experiment on a graph with the given labels (hosts and URL shapes). */
    public static Map<String, Object> run(LinkGraph graph, NodeLabels labels, OrderingOptions options)
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

        Map<String, Object> criterionA = new LinkedHashMap<>();
        Map<String, Object> criterionB = new LinkedHashMap<>();
        Map<String, Object> criterionC = new LinkedHashMap<>();
        Map<String, Object> speed = new LinkedHashMap<>();
        Map<String, Object> speedMedian = new LinkedHashMap<>();
        Map<String, Object> curves = new LinkedHashMap<>();
        Map<String, Object> work = new LinkedHashMap<>();
        Map<String, Criteria.Curves> byName = new LinkedHashMap<>();
        for (String name : options.strategies()) {
            Supplier<CrawlOrdering> factory = () -> Strategies.create(name, labels, options.ipr(), recomputeEvery,
                    options.damping());
            CrawlOrdering ordering = factory.get();
            long c0 = System.nanoTime();
            int[] order = CrawlSimulator.crawl(ordering, graph, seeds);
            long crawlNanos = System.nanoTime() - c0;
            Criteria.Curves cv = criteria.evaluate(order);
            byName.put(name, cv);
            Map<String, Object> a = new LinkedHashMap<>();
            Map<String, Object> curve = new LinkedHashMap<>();
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
                work.put(name, (double) ipr.rank().receipts() / order.length);
            } else if (ordering instanceof NewSiteIncrementalPageRankOrdering ns) {
                work.put(name, (double) ns.rank().receipts() / order.length);
            } else if (ordering instanceof NewSiteRecomputedPageRankOrdering nsr) {
                work.put(name, Map.of("recomputations", nsr.recomputations(), "recomputeEvery", recomputeEvery));
            } else if (ordering instanceof BatchPageRank pr) {
                work.put(name, Map.of("recomputations", pr.recomputations(), "recomputeEvery", pr.recomputeEvery()));
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

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("experiment", "ordering");
        out.put("nodes", graph.numNodes());
        out.put("arcs", graph.numArcs());
        out.put("seeds", seeds);
        out.put("seedRule", options.seeds().isEmpty() ? "page with the largest out-degree" : "given");
        out.put("pagesCrawled", population.length);
        out.put("hosts", SyntheticUrls.hosts(labels));
        out.put("layout", Map.of("seed", options.layoutSeed(), "meanPagesPerHost", options.meanPagesPerHost()));
        out.put("pagerank", Map.of("damping", options.damping(), "tolerance", options.tolerance(),
                "iterations", truth.iterations(), "lastL1Change", truth.lastChange(),
                "crawledShareOfTotal", reachableShare));
        out.put("criterionCParameter", options.c());
        out.put("iprParameters", Map.of("pageLimit", options.ipr().pageLimit(), "valueRatio",
                options.ipr().valueRatio(), "accumulatedRatio", options.ipr().accumulatedRatio()));
        out.put("prRecomputeEvery", recomputeEvery);
        out.put("checkpointsPercent", new int[] {10, 20, 30, 40, 50, 60, 70, 80, 90, 100});
        out.put("topSetSizes", Map.of(Criteria.TOP_LABELS[0], criteria.topSizes()[0], Criteria.TOP_LABELS[1],
                criteria.topSizes()[1], Criteria.TOP_LABELS[2], criteria.topSizes()[2]));
        out.put("criterionA", criterionA);
        out.put("criterionB", criterionB);
        out.put("criterionC", criterionC);
        out.put("priorityPagesPerSecond", speed);
        out.put("priorityPagesPerSecondMedian", speedMedian);
        out.put("timingRepeats", options.timingRepeats());
        out.put("work", work);
        out.put("goalB", goalB(byName));
        out.put("defaultStrategy", Strategies.DEFAULT);
        out.put("curves", curves);
        if (options.plotDir() != null) {
            out.put("plots", OrderingPlots.figures(options.plotDir(), byName, speed));
        }
        return out;
    }

    private static int[] seeds(LinkGraph graph, OrderingOptions options) {
        if (graph.numNodes() == 0) {
            throw new IllegalArgumentException("the graph has no pages");
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
    private static Map<String, Object> goalB(Map<String, Criteria.Curves> byName) {
        List<String> ipr = byName.keySet().stream().filter(Strategies.IPR::contains).toList();
        List<String> base = byName.keySet().stream().filter(Strategies.BASELINES::contains).toList();
        Map<String, Object> goal = new LinkedHashMap<>();
        if (ipr.isEmpty() || base.isEmpty()) {
            goal.put("evaluated", false);
            return goal;
        }
        List<Map<String, Object>> points = new ArrayList<>();
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
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("percent", (i + 1) * 10);
            p.put("bestIpr", bestIpr);
            p.put("bestIprValue", bi);
            p.put("bestBaseline", bestBase);
            p.put("bestBaselineValue", bb);
            p.put("met", met);
            points.add(p);
        }
        goal.put("metAtEveryPoint", all);
        goal.put("variantsAtOrAboveEveryBaselineEverywhere",
                variantHolds.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList());
        goal.put("points", points);
        return goal;
    }
}
