package io.github.kcrawler.ranker.pagerank;

/**
 * The per-page rules of incremental PageRank (paper 002 §3, DESIGN §4.3) on primitives, shared by the single-process
 * {@link IncrementalPageRank} and the ranker's stream processor so that both apply the same arithmetic in the same
 * order. Each rule reads and changes the state of one page only, which is what lets the computation run partitioned
 * with receipts as messages.
 */
public final class IprRules {
    private IprRules() {
    }

    /** A fetch adds one to the page's score: {@code s_p += 1}. */
    public static double scoreAfterFetch(double score) {
        return score + 1.0;
    }

    /** What each of {@code degree} distinct outlinks receives from {@code amount}; {@code degree > 0}. */
    public static double share(double amount, int degree) {
        return amount / degree;
    }

    /** VR: a receipt {@code beta} at a page whose score was {@code before} propagates (s_q = 0 passes). */
    public static boolean valueRatioPasses(double before, double beta, double ratio) {
        return before <= 0.0 || beta / before >= ratio;
    }

    /** VR: the receipt is applied at all: always at depth 1, beyond only if it passes. */
    public static boolean valueRatioApplies(int depth, boolean passes) {
        return depth == 1 || passes;
    }

    /** AR: a fetched page passes its accumulator on once {@code a_q / s_q > ratio}. */
    public static boolean accumulatedRatioPasses(double accumulated, double score, double ratio) {
        return accumulated > ratio * score;
    }
}
