/**
 * Crawl-ordering algorithms of paper 002 ({@code ../shared/seeds/002_f80a64bc45d2b4e4.txt}, DESIGN §4.3), free of
 * Kafka so the simulator, the benchmarks and the stream processors run the same code: {@link
 * io.github.kcrawler.ranker.pagerank.IncrementalPageRank} with its cut-offs DL1, PL, VR and AR ({@link
 * io.github.kcrawler.ranker.pagerank.IprParams}); the baselines breadth-first, back-link count, batch PageRank and
 * OPIC; all behind {@link io.github.kcrawler.ranker.pagerank.CrawlOrdering} over dense int node ids with an indexed
 * heap as the frontier; and the converged reference {@link io.github.kcrawler.ranker.pagerank.PageRank}.
 */
package io.github.kcrawler.ranker.pagerank;
