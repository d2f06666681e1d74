package io.github.kcrawler.common.model;

/**
 * A newly discovered URL's first score, known where its link is found (ours, issue 21 item 2; thirty-fourth
 * session). Under incremental PageRank (paper 002 §3) fetching page p sets {@code s_p += 1} and gives each of p's
 * {@code outdeg(p)} distinct outlinks the receipt {@code s_p / outdeg(p)}; the ranker computes it, and a URL on
 * another partition learns it about two seconds later, after two ranker hops and a flush (BENCHMARKS.md,
 * thirty-third session). Until then the scheduler ordered the admitted URL at score 0, behind every scored URL.
 *
 * <p>So the scheduler puts its own score of p on p's fetch request ({@link FetchRequest#score()}), the fetcher
 * turns it into this share of p's link graph ({@link FetchResult#linkShare()}, {@link DiscoveredUrls#share()}),
 * dedup passes it on with the URLs it admits ({@link AdmittedUrls#share()}), and the scheduler admits them with it.
 * The ranker's scores replace it when they arrive, as before.
 *
 * <p>Why it does not outrank the ranker: the scheduler's score of p is a score the ranker published (or an earlier
 * share, itself a receipt the ranker will add), and an unfetched page's score only grows under every cut-off the
 * ranker offers (DL1, VR, AR add non-negative receipts), so it is at most the ranker's {@code s_p} when p's result
 * arrives there; the share is therefore at most the receipt the ranker gives, and at most every score of the URL
 * once the ranker has applied that receipt. It equals the receipt when no receipt for p arrived after the score the
 * scheduler used. A score the URL's ranker task publishes before p's receipt reaches it (another page's receipt came
 * first) can be lower; it replaces the share until the next flush. The ranker's {@code IprRules} states the same
 * rule; {@code LinkShareRuleTest} in the ranker holds the two equal.
 */
public final class LinkShare {
    private LinkShare() {
    }

    /**
     * The receipt each of {@code degree} distinct outlinks of a page gets when the page, of score
     * {@code sourceScore} before its fetch, is fetched: {@code (sourceScore + 1) / degree}.
     *
     * @param degree the page's distinct outlinks in its link graph, {@code > 0}
     */
    public static double of(double sourceScore, int degree) {
        if (degree <= 0) {
            throw new IllegalArgumentException("degree must be > 0, was " + degree);
        }
        return (sourceScore + 1.0) / degree;
    }

    /**
     * The share each of the {@code degree} links of a page's graph gets from its fetch by {@code request}: known on
     * a first fetch whose request carries the scheduler's score; null otherwise (a revisit does not vote again in
     * the ranker, and an older request has no score). {@code degree} is the graph's size, its links distinct as the
     * ranker counts them.
     */
    public static Double ofFetch(FetchRequest request, int degree) {
        Double score = request.score();
        if (request.kind() == FetchKind.REVISIT || score == null || degree <= 0 || !usable(score)) {
            return null;
        }
        return of(score, degree);
    }

    /** Whether a share read from a topic can be used: null (none) or a finite amount ≥ 0. */
    public static boolean usable(Double share) {
        return share == null || (Double.isFinite(share) && share >= 0.0);
    }
}
