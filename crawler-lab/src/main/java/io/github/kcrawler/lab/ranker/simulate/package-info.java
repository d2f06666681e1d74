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
 *
 * <p>Two models of a running crawler, both off by default (paper 002's simulator has neither) and ours: politeness
 * ({@code --politeness k}, {@link io.github.kcrawler.lab.ranker.pagerank.PoliteOrdering}: a host waits k other pages
 * after one of its pages) and pages in flight ({@code --feedback-delay D}: a page's links reach the strategy D
 * hand-outs after it was handed out).
 */
package io.github.kcrawler.lab.ranker.simulate;
