/**
 * The crawl-ordering experiment of paper 002 §4 on a graph in memory ({@code crawler simulate --experiment
 * ordering}): {@link io.github.kcrawler.lab.ranker.simulate.CrawlSimulator} crawls a {@link
 * io.github.kcrawler.lab.ranker.simulate.LinkGraph} from the seeds with each strategy, {@link
 * io.github.kcrawler.lab.ranker.simulate.Criteria} judges the fetch orders against the converged PageRank (criteria A, B,
 * C at every 1%), {@link io.github.kcrawler.lab.ranker.simulate.Plots} draws the paper's Figures 4–10 and {@link
 * io.github.kcrawler.lab.ranker.simulate.OrderingExperiment} puts it together.
 *
 * <p>Choices for graphs without URLs (cnr-2000): hosts and synthetic URLs come from websim's {@code SiteLayout}
 * (seed 42, 30 pages per host on average, as websim serves the graph), which drives the same-site tie rule and the
 * back-link-count tie rule; the default seed is the page with the largest out-degree (websim's default), which
 * reaches all 325,557 pages of cnr-2000. The simulated crawl ignores robots.txt, as the paper's simulation did.
 */
package io.github.kcrawler.lab.ranker.simulate;
