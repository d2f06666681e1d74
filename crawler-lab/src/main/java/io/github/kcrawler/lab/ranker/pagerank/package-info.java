/**
 * The crawl orderings of paper 002's experiment ({@code ../shared/seeds/002_f80a64bc45d2b4e4.txt}, §4), run by the
 * simulator ({@code crawler simulate --experiment ordering}) and by {@code crawler bench order}: the baselines
 * breadth-first, back-link count, batch PageRank and OPIC, the incremental-PageRank orderings over the product's
 * {@link io.github.kcrawler.ranker.pagerank.IncrementalPageRank}, and our new-site variants IPR-NS and IPR-NSR; all
 * behind {@link io.github.kcrawler.lab.ranker.pagerank.CrawlOrdering} over dense int node ids with an indexed heap as
 * the frontier. {@link io.github.kcrawler.lab.ranker.pagerank.PoliteOrdering} wraps any of them in a politeness
 * model (a host waits k other pages after one of its pages). None of them runs in the ranker service, so they live in the lab (issue 24).
 */
package io.github.kcrawler.lab.ranker.pagerank;
