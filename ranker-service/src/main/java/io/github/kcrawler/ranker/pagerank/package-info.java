/**
 * Incremental PageRank of paper 002 ({@code ../shared/seeds/002_f80a64bc45d2b4e4.txt}, DESIGN §4.3), free of Kafka so
 * the stream processors and the lab's simulator run the same code: {@link
 * io.github.kcrawler.ranker.pagerank.IncrementalPageRank} with its cut-offs DL1, PL, VR and AR ({@link
 * io.github.kcrawler.ranker.pagerank.IprParams}, {@link io.github.kcrawler.ranker.pagerank.IprRules}) over the packed
 * outlinks of {@link io.github.kcrawler.ranker.pagerank.LinkStore}, and the converged reference {@link
 * io.github.kcrawler.ranker.pagerank.PageRank} its tests judge it against. The crawl orderings the experiment compares
 * (the baselines breadth-first, back-link count, batch PageRank and OPIC, the IPR orderings and our new-site variants,
 * behind {@code CrawlOrdering}) are the simulator's, in crawler-lab's {@code io.github.kcrawler.lab.ranker.pagerank}.
 */
package io.github.kcrawler.ranker.pagerank;
