package io.github.kcrawler.lab.ranker.simulate;

import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.ranker.pagerank.IprParams;
import io.github.kcrawler.ranker.pagerank.PageRank;
import io.github.kcrawler.lab.ranker.pagerank.Strategies;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Settings of the crawl-ordering experiment ({@code crawler simulate --experiment ordering}), validated on
 * construction with messages naming the bad value; every default is in {@link #DEFAULTS}.
 *
 * @param seeds            seed pages; empty = the page with the largest out-degree (websim's default for a real graph)
 * @param c                criterion C's correction term
 * @param prRecomputations batch PR: recomputations over the whole crawl (paper: ~100, every 1% of the pages)
 * @param damping          damping of the reference PageRank and of batch PR (random jump 1 - damping)
 * @param tolerance        L1 change at which the reference PageRank stops
 * @param ipr              incremental PageRank parameters (cut-off taken from each strategy's name)
 * @param timingRepeats    timed crawls per strategy for the speed figure (fastest and median reported)
 * @param plotDir          where to write the SVG figures, or null for none
 * @param layoutSeed       seed of websim's host layout (same-site test and synthetic URLs)
 * @param meanPagesPerHost websim's mean host size
 * @param strategies       strategies to run, from {@link Strategies#ALL}
 * @param politeness       the politeness model's k applied to every strategy ({@code PoliteOrdering}: a host waits
 *                         k other pages after one of its pages); 0 = none, paper 002's simulator
 * @param feedbackDelay    pages in flight: a page's links reach the strategy this many hand-outs after it was handed
 *                         out ({@link CrawlSimulator#crawl(io.github.kcrawler.lab.ranker.pagerank.CrawlOrdering,
 *                         LinkGraph, int[], int)}); 0 = at once, paper 002's simulator
 * @param sccSeeds         N > 0: the seeds are the smallest page id of each of the N largest strongly connected
 *                         components ({@link LinkGraph#largestComponentSeeds}); 0 = {@code seeds} decide
 */
public record OrderingOptions(List<Integer> seeds, double c, int prRecomputations, double damping, double tolerance,
                              IprParams ipr, int timingRepeats, Path plotDir, long layoutSeed,
                              double meanPagesPerHost, List<String> strategies, int politeness,
                              int feedbackDelay, int sccSeeds) {

    public static final double DEFAULT_C = 1.0;
    public static final int DEFAULT_PR_RECOMPUTATIONS = 100;
    public static final int DEFAULT_TIMING_REPEATS = 3;
    /** websim's defaults, so the simulated same-site test matches the simulated web. */
    public static final long DEFAULT_LAYOUT_SEED = 42L;
    public static final double DEFAULT_MEAN_PAGES_PER_HOST = 30.0;
    /** No politeness model: every strategy in its own order, as paper 002 simulates. */
    public static final int DEFAULT_POLITENESS = 0;
    /** No pages in flight: a page's links reach the strategy before the next hand-out, as paper 002 simulates. */
    public static final int DEFAULT_FEEDBACK_DELAY = 0;

    /** Every key with its default as printed by {@code --help} (graph and summary are required / optional paths). */
    public static final Map<String, String> DEFAULTS;
    public static final Set<String> KEYS;

    static {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("graph", "(required unless --synthetic-pages) BVGraph basename, e.g. ../shared/data/cnr-2000");
        d.put("synthetic-pages", "0 (= use --graph) pages of websim's generated graph over the host layout");
        d.put("experiment", "ordering");
        d.put("summary", "(stdout) JSON summary file");
        d.put("plots", "(none) directory for the SVG figures");
        d.put("seed-pages", "(largest out-degree page) comma-separated page ids");
        d.put("scc-seeds", "0 (= off) N: seed the smallest page id of each of the N largest strongly connected"
                + " components (issue 21's many-seed start for any graph); not with --seed-pages");
        d.put("c", Double.toString(DEFAULT_C));
        d.put("pr-recomputations", Integer.toString(DEFAULT_PR_RECOMPUTATIONS));
        d.put("damping", Double.toString(PageRank.DEFAULT_DAMPING));
        d.put("tolerance", Double.toString(PageRank.DEFAULT_TOLERANCE));
        d.put("pl-pages", Integer.toString(IprParams.DEFAULT_PAGE_LIMIT));
        d.put("vr-ratio", Double.toString(IprParams.DEFAULT_VALUE_RATIO));
        d.put("ar-ratio", "29/30");
        d.put("timing-repeats", Integer.toString(DEFAULT_TIMING_REPEATS));
        d.put("layout-seed", Long.toString(DEFAULT_LAYOUT_SEED));
        d.put("mean-pages-per-host", Double.toString(DEFAULT_MEAN_PAGES_PER_HOST));
        d.put("strategies", String.join(",", Strategies.ALL));
        d.put("politeness", DEFAULT_POLITENESS + " (= none) k of the politeness model for every strategy: a host waits"
                + " k other pages after one of its pages");
        d.put("feedback-delay", DEFAULT_FEEDBACK_DELAY + " (= none) pages in flight: a page's links reach the strategy"
                + " this many hand-outs later");
        DEFAULTS = Collections.unmodifiableMap(d);
        KEYS = Collections.unmodifiableSet(new LinkedHashSet<>(d.keySet()));
    }

    public OrderingOptions {
        seeds = List.copyOf(seeds);
        for (Integer s : seeds) {
            if (s == null || s < 0) {
                throw new IllegalArgumentException("seed-pages must be page ids >= 0, was " + s);
            }
        }
        if (sccSeeds < 0 || sccSeeds > 1_000_000) {
            throw new IllegalArgumentException("scc-seeds must be in 0..1000000 (0 = off), was " + sccSeeds);
        }
        if (sccSeeds > 0 && !seeds.isEmpty()) {
            throw new IllegalArgumentException("give either seed-pages or scc-seeds, not both");
        }
        if (!(c >= 0) || Double.isInfinite(c)) {
            throw new IllegalArgumentException("c must be a finite number >= 0, was " + c);
        }
        if (prRecomputations < 1 || prRecomputations > 1_000_000) {
            throw new IllegalArgumentException("pr-recomputations must be in 1..1000000, was " + prRecomputations);
        }
        if (!(damping > 0 && damping < 1)) {
            throw new IllegalArgumentException("damping must be in (0, 1), was " + damping);
        }
        if (!(tolerance > 0 && tolerance < 1)) {
            throw new IllegalArgumentException("tolerance must be in (0, 1), was " + tolerance);
        }
        if (ipr == null) {
            throw new IllegalArgumentException("ipr parameters must be given");
        }
        if (timingRepeats < 0 || timingRepeats > 100) {
            throw new IllegalArgumentException("timing-repeats must be in 0..100 (0 = no speed figure), was "
                    + timingRepeats);
        }
        if (!(meanPagesPerHost >= 1 && meanPagesPerHost <= 1_000_000)) {
            throw new IllegalArgumentException("mean-pages-per-host must be in [1, 1000000], was " + meanPagesPerHost);
        }
        if (strategies == null || strategies.isEmpty()) {
            throw new IllegalArgumentException("strategies must name at least one of " + Strategies.ALL);
        }
        if (politeness < 0 || politeness > 10_000_000) {
            throw new IllegalArgumentException("politeness must be in 0..10000000 (0 = none), was " + politeness);
        }
        if (feedbackDelay < 0 || feedbackDelay > 10_000_000) {
            throw new IllegalArgumentException("feedback-delay must be in 0..10000000 (0 = none), was "
                    + feedbackDelay);
        }
        strategies = List.copyOf(new LinkedHashSet<>(strategies));
        for (String s : strategies) {
            if (!Strategies.ALL.contains(s)) {
                throw new IllegalArgumentException("unknown strategy '" + s + "'; known: " + Strategies.ALL);
            }
        }
    }

    /** Every default. */
    public static OrderingOptions defaults() {
        return new OrderingOptions(List.of(), DEFAULT_C, DEFAULT_PR_RECOMPUTATIONS, PageRank.DEFAULT_DAMPING,
                PageRank.DEFAULT_TOLERANCE, IprParams.defaults(IprParams.CutOff.DL1), DEFAULT_TIMING_REPEATS, null,
                DEFAULT_LAYOUT_SEED, DEFAULT_MEAN_PAGES_PER_HOST, Strategies.ALL, DEFAULT_POLITENESS,
                DEFAULT_FEEDBACK_DELAY, 0);
    }

    /** Options from {@code --key value} settings (graph, experiment and summary are read by the caller). */
    public static OrderingOptions from(Settings s) {
        String experiment = s.string("experiment", "ordering");
        if (!experiment.equals("ordering")) {
            throw new IllegalArgumentException("experiment must be 'ordering', was '" + experiment + "'");
        }
        List<Integer> seeds = new ArrayList<>();
        for (String v : s.list("seed-pages", List.of())) {
            try {
                seeds.add(Integer.parseInt(v));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("seed-pages must be page ids, was '" + v + "'");
            }
        }
        IprParams ipr = new IprParams(IprParams.CutOff.DL1, s.integer("pl-pages", IprParams.DEFAULT_PAGE_LIMIT),
                s.doubleValue("vr-ratio", IprParams.DEFAULT_VALUE_RATIO), ratio(s.string("ar-ratio", "29/30")));
        String plots = s.string("plots", null);
        return new OrderingOptions(seeds, s.doubleValue("c", DEFAULT_C),
                s.integer("pr-recomputations", DEFAULT_PR_RECOMPUTATIONS),
                s.doubleValue("damping", PageRank.DEFAULT_DAMPING), s.doubleValue("tolerance", PageRank.DEFAULT_TOLERANCE),
                ipr, s.integer("timing-repeats", DEFAULT_TIMING_REPEATS), plots == null ? null : Path.of(plots),
                s.longValue("layout-seed", DEFAULT_LAYOUT_SEED),
                s.doubleValue("mean-pages-per-host", DEFAULT_MEAN_PAGES_PER_HOST),
                s.list("strategies", Strategies.ALL), s.integer("politeness", DEFAULT_POLITENESS),
                s.integer("feedback-delay", DEFAULT_FEEDBACK_DELAY), s.integer("scc-seeds", 0));
    }

    /** A number or a fraction {@code a/b}. */
    static double ratio(String v) {
        try {
            int slash = v.indexOf('/');
            if (slash < 0) {
                return Double.parseDouble(v.trim());
            }
            return Double.parseDouble(v.substring(0, slash).trim()) / Double.parseDouble(v.substring(slash + 1).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("ar-ratio must be a number or a fraction a/b, was '" + v + "'");
        }
    }

    public OrderingOptions withPlotDir(Path dir) {
        return new OrderingOptions(seeds, c, prRecomputations, damping, tolerance, ipr, timingRepeats, dir, layoutSeed,
                meanPagesPerHost, strategies, politeness, feedbackDelay, sccSeeds);
    }

    public OrderingOptions withStrategies(List<String> names) {
        return new OrderingOptions(seeds, c, prRecomputations, damping, tolerance, ipr, timingRepeats, plotDir,
                layoutSeed, meanPagesPerHost, names, politeness, feedbackDelay, sccSeeds);
    }

    public OrderingOptions withTimingRepeats(int repeats) {
        return new OrderingOptions(seeds, c, prRecomputations, damping, tolerance, ipr, repeats, plotDir, layoutSeed,
                meanPagesPerHost, strategies, politeness, feedbackDelay, sccSeeds);
    }

    public OrderingOptions withPoliteness(int k) {
        return new OrderingOptions(seeds, c, prRecomputations, damping, tolerance, ipr, timingRepeats, plotDir,
                layoutSeed, meanPagesPerHost, strategies, k, feedbackDelay, sccSeeds);
    }

    public OrderingOptions withFeedbackDelay(int delay) {
        return new OrderingOptions(seeds, c, prRecomputations, damping, tolerance, ipr, timingRepeats, plotDir,
                layoutSeed, meanPagesPerHost, strategies, politeness, delay, sccSeeds);
    }

    /** These options with the given seed pages, which replace the SCC rule if one was set. */
    public OrderingOptions withSeeds(List<Integer> seedPages) {
        return new OrderingOptions(seedPages, c, prRecomputations, damping, tolerance, ipr, timingRepeats, plotDir,
                layoutSeed, meanPagesPerHost, strategies, politeness, feedbackDelay, 0);
    }
}
