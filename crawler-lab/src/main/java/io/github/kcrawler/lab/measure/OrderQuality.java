package io.github.kcrawler.lab.measure;

import io.github.kcrawler.ranker.pagerank.PageRank;
import io.github.kcrawler.lab.ranker.simulate.Criteria;
import io.github.kcrawler.lab.ranker.simulate.CrawlSimulator;
import io.github.kcrawler.lab.ranker.simulate.LinkGraph;

import java.util.BitSet;

/**
 * Criterion B of paper 002 (PageRank collected after each 10 % of the crawl, as a share of the PageRank of every page
 * reachable from the seeds) for the order a real pipeline crawl fetched a graph in, beside the simulator's order for
 * the same strategy, seeds and host layout (issue 21, item 2). The population and the true PageRank are the
 * simulator's ({@link Criteria}); pages the pipeline did not fetch (a page budget, a depth limit, a lost page) are
 * appended to its order in ascending PageRank — the worst place — and every 10 % point past the pages it fetched is
 * reported as {@code NaN}, so a short crawl never looks better than it was. websim's robots.txt disallows some
 * pages of a tenth of its hosts, which the crawler never fetches and the simulator does: the pipeline's last point(s)
 * are then left out, and its earlier points are lower by at most the PageRank share of those pages.
 */
public final class OrderQuality {
    /** The two curves at 10 %, 20 %, …, 100 % of the population, and what they were computed over. */
    public record Comparison(double[] pipeline, double[] simulator, int population, int fetchedInPopulation,
                             int fetchedOutside) {
        /** Largest |pipeline − simulator| over the points both have. */
        public double maxGap() {
            double max = 0;
            for (int i = 0; i < pipeline.length; i++) {
                if (!Double.isNaN(pipeline[i])) {
                    max = Math.max(max, Math.abs(pipeline[i] - simulator[i]));
                }
            }
            return max;
        }
    }

    private OrderQuality() {
    }

    /**
     * @param graph    the crawled graph
     * @param seeds    the crawl's seed pages
     * @param simulated the simulator's complete order for the strategy the pipeline ran (a permutation of the pages
     *                 reachable from the seeds; {@link CrawlSimulator#crawl})
     * @param fetched  the pipeline's first-fetch order ({@link FetchOrder#read})
     * @param damping  PageRank's damping factor for the truth
     */
    public static Comparison compare(LinkGraph graph, int[] seeds, int[] simulated, int[] fetched, double damping) {
        BitSet reachable = graph.reachableFrom(seeds);
        int[] population = reachable.stream().toArray();
        PageRank.Result truth = PageRank.compute(graph.offsets(), graph.targets(), damping,
                PageRank.DEFAULT_TOLERANCE, PageRank.DEFAULT_MAX_ITERATIONS);
        Criteria criteria = new Criteria(truth.scores(), population, 1.0);
        int[] order = new int[population.length];
        BitSet placed = new BitSet(graph.numNodes());
        int k = 0;
        int outside = 0;
        for (int p : fetched) {
            if (p >= 0 && p < graph.numNodes() && reachable.get(p) && !placed.get(p)) {
                placed.set(p);
                order[k++] = p;
            } else if (!reachable.get(p)) {
                outside++;
            }
        }
        int fetchedIn = k;
        int[] rest = population.clone();
        it.unimi.dsi.fastutil.ints.IntArrays.quickSort(rest, (a, b) -> {
            int c = Double.compare(truth.scores()[a], truth.scores()[b]);
            return c != 0 ? c : Integer.compare(a, b);
        });
        for (int p : rest) {
            if (!placed.get(p)) {
                order[k++] = p;
            }
        }
        double[] pipeline = Criteria.tenths(criteria.evaluate(order).pageRankShare());
        double[] simulator = Criteria.tenths(criteria.evaluate(simulated).pageRankShare());
        int[] checkpoints = criteria.checkpoints();
        for (int i = 0; i < 10; i++) {
            if (checkpoints[(i + 1) * Criteria.POINTS / 10 - 1] > fetchedIn) {
                pipeline[i] = Double.NaN;
            }
        }
        return new Comparison(pipeline, simulator, population.length, fetchedIn, outside);
    }
}
