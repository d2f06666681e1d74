package io.github.kcrawler.lab.measure;

import io.github.kcrawler.ranker.pagerank.PageRank;
import io.github.kcrawler.lab.ranker.simulate.Criteria;
import io.github.kcrawler.lab.ranker.simulate.CrawlSimulator;
import io.github.kcrawler.lab.ranker.simulate.LinkGraph;

import java.util.BitSet;

/**
 * Criterion B of paper 002 (PageRank collected after each 10 % of the crawl, as a share of the PageRank of every page
 * reachable from the seeds) for the order a real pipeline crawl fetched a graph in, beside the simulator's orders for
 * the same strategy, seeds and host layout (issue 21, item 2). The population and the true PageRank are the
 * simulator's ({@link Criteria}).
 *
 * <p>Two simulator orders: the <b>sequential</b> one ({@link CrawlSimulator#crawl(io.github.kcrawler.lab.ranker.pagerank.CrawlOrdering,
 * LinkGraph, int[])}: one page at a time, each page's links back before the next is chosen, every reachable page
 * crawled) and the <b>modelled</b> one, the simulator under the pipeline's own constraints (the caller crawls the
 * graph without the pages websim's robots.txt disallows, with a feedback delay). A crawl order that does not hold
 * every page of the population — the pipeline's (a page budget, a depth limit, a robots.txt rule, a lost page) or
 * the modelled simulator's — is completed with the missing pages in ascending PageRank, the worst place, and every
 * 10 % point past the pages it holds is reported as {@code NaN}, so a short crawl never looks better than it was.
 */
public final class OrderQuality {
    /**
     * The curves at 10 %, 20 %, …, 100 % of the population, and what they were computed over.
     *
     * @param pipeline            the pipeline's order; NaN past the pages it fetched
     * @param simulator           the modelled simulator's; NaN past the pages it crawled
     * @param sequential          the sequential simulator's (every point)
     * @param simulatorCrawled    pages of the population in the modelled simulator's order
     */
    public record Comparison(double[] pipeline, double[] simulator, double[] sequential, int population,
                             int fetchedInPopulation, int fetchedOutside, int simulatorCrawled,
                             double[] simulatorWithoutPoliteness) {
        /** Largest |pipeline − modelled simulator| over the points both have. */
        public double maxGap() {
            return maxGap(pipeline, simulator);
        }

        /** Largest |pipeline − modelled simulator without politeness|; NaN when that order was not given. */
        public double maxGapWithoutPoliteness() {
            return simulatorWithoutPoliteness == null ? Double.NaN : maxGap(pipeline, simulatorWithoutPoliteness);
        }

        /** Largest |pipeline − sequential simulator| over the points the pipeline has. */
        public double sequentialMaxGap() {
            return maxGap(pipeline, sequential);
        }

        private static double maxGap(double[] a, double[] b) {
            double max = 0;
            for (int i = 0; i < a.length; i++) {
                if (!Double.isNaN(a[i]) && !Double.isNaN(b[i])) {
                    max = Math.max(max, Math.abs(a[i] - b[i]));
                }
            }
            return max;
        }
    }

    private OrderQuality() {
    }

    /**
     * @param graph      the crawled graph
     * @param seeds      the crawl's seed pages
     * @param simulated  the modelled simulator's order (any pages; those outside the population are ignored)
     * @param sequential the sequential simulator's complete order for the strategy the pipeline ran (a permutation of
     *                   the pages reachable from the seeds)
     * @param fetched    the pipeline's first-fetch order ({@link FetchOrder#read})
     * @param damping    PageRank's damping factor for the truth
     */
    public static Comparison compare(LinkGraph graph, int[] seeds, int[] simulated, int[] sequential, int[] fetched,
                                     double damping) {
        return compare(graph, seeds, simulated, null, sequential, fetched, damping);
    }

    /**
     * As {@link #compare(LinkGraph, int[], int[], int[], int[], double)}, with one more modelled order evaluated the
     * same way: the simulator under the same constraints but the politeness model ({@code bench order} reports both).
     *
     * @param simulatedWithoutPoliteness that order, or null
     */
    public static Comparison compare(LinkGraph graph, int[] seeds, int[] simulated, int[] simulatedWithoutPoliteness,
                                     int[] sequential, int[] fetched, double damping) {
        BitSet reachable = graph.reachableFrom(seeds);
        int[] population = reachable.stream().toArray();
        PageRank.Result truth = PageRank.compute(graph.offsets(), graph.targets(), damping,
                PageRank.DEFAULT_TOLERANCE, PageRank.DEFAULT_MAX_ITERATIONS);
        Criteria criteria = new Criteria(truth.scores(), population, 1.0);
        int[] worstFirst = population.clone();
        it.unimi.dsi.fastutil.ints.IntArrays.quickSort(worstFirst, (a, b) -> {
            int c = Double.compare(truth.scores()[a], truth.scores()[b]);
            return c != 0 ? c : Integer.compare(a, b);
        });
        Curve pipeline = curve(criteria, reachable, worstFirst, fetched);
        Curve simulator = curve(criteria, reachable, worstFirst, simulated);
        if (sequential.length != population.length) {
            throw new IllegalArgumentException("the sequential order holds " + sequential.length + " pages, the "
                    + "population " + population.length);
        }
        double[] seq = Criteria.tenths(criteria.evaluate(sequential).pageRankShare());
        double[] impolite = simulatedWithoutPoliteness == null ? null
                : curve(criteria, reachable, worstFirst, simulatedWithoutPoliteness).points;
        return new Comparison(pipeline.points, simulator.points, seq, population.length, pipeline.inPopulation,
                pipeline.outside, simulator.inPopulation, impolite);
    }

    private record Curve(double[] points, int inPopulation, int outside) {
    }

    /** Criterion B of {@code crawled} completed worst-first, NaN past the pages it holds. */
    private static Curve curve(Criteria criteria, BitSet reachable, int[] worstFirst, int[] crawled) {
        int[] order = new int[worstFirst.length];
        BitSet placed = new BitSet(reachable.length());
        int k = 0;
        int outside = 0;
        for (int p : crawled) {
            if (p >= 0 && reachable.get(p) && !placed.get(p)) {
                placed.set(p);
                order[k++] = p;
            } else if (p < 0 || !reachable.get(p)) {
                outside++;
            }
        }
        int in = k;
        for (int p : worstFirst) {
            if (!placed.get(p)) {
                order[k++] = p;
            }
        }
        double[] points = Criteria.tenths(criteria.evaluate(order).pageRankShare());
        int[] checkpoints = criteria.checkpoints();
        for (int i = 0; i < 10; i++) {
            if (checkpoints[(i + 1) * Criteria.POINTS / 10 - 1] > in) {
                points[i] = Double.NaN;
            }
        }
        return new Curve(points, in, outside);
    }
}
