package io.github.kcrawler.ranker.pagerank;

import java.util.Locale;

/**
 * Parameters of incremental PageRank (paper 002 §3, DESIGN §4.3): the cut-off that decides how far a fetched page's
 * score propagates, and that cut-off's threshold. Defaults are the paper's: L = 8 pages for PL, ratio 1.5 for VR, and
 * for AR the ratio 29/30 — "pass on the accumulated amount a_q once a_q / s_q > 29/30", which is the paper's "30×"
 * rule (the score reached 30 times its value at the last propagation) stated on the current score.
 *
 * @param cutOff           which cut-off to apply
 * @param pageLimit        PL: pages updated beyond the direct outlinks, breadth-first (L)
 * @param valueRatio       VR: a receipt β at page q propagates only if {@code β / s_q >= valueRatio} (s_q before it)
 * @param accumulatedRatio AR: page q passes on its accumulated receipts a_q once {@code a_q / s_q > accumulatedRatio}
 */
public record IprParams(CutOff cutOff, int pageLimit, double valueRatio, double accumulatedRatio) {

    /** How far a fetched page's score propagates. */
    public enum CutOff {
        /** Depth limit 1: only the fetched page's direct outlinks are updated. */
        DL1,
        /** Page-number limit: DL1, then {@code pageLimit} more pages breadth-first. */
        PL,
        /** Value ratio: propagate from a page only where the receipt is large against its score. */
        VR,
        /** Accumulated value ratio: propagate a page's accumulated receipts once they are large against its score. */
        AR;

        /** Strategy name used in reports, e.g. {@code IPR-DL1}. */
        public String strategyName() {
            return "IPR-" + name();
        }

        /** Parses {@code DL1}, {@code pl}, … (case-insensitive). */
        public static CutOff parse(String s) {
            try {
                return valueOf(s.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new IllegalArgumentException("cut-off must be one of DL1, PL, VR, AR, was '" + s + "'");
            }
        }
    }

    public static final int DEFAULT_PAGE_LIMIT = 8;
    public static final double DEFAULT_VALUE_RATIO = 1.5;
    public static final double DEFAULT_ACCUMULATED_RATIO = 29.0 / 30.0;

    public IprParams {
        if (cutOff == null) {
            throw new IllegalArgumentException("cutOff must be given (DL1, PL, VR or AR)");
        }
        if (pageLimit < 0 || pageLimit > 1_000_000) {
            throw new IllegalArgumentException("pageLimit must be in 0..1000000, was " + pageLimit);
        }
        if (!(valueRatio > 0) || Double.isInfinite(valueRatio)) {
            throw new IllegalArgumentException("valueRatio must be a finite number > 0, was " + valueRatio);
        }
        if (!(accumulatedRatio > 0 && accumulatedRatio < 1)) {
            throw new IllegalArgumentException("accumulatedRatio must be in (0, 1), was " + accumulatedRatio);
        }
    }

    /** The paper's parameters with the given cut-off. */
    public static IprParams defaults(CutOff cutOff) {
        return new IprParams(cutOff, DEFAULT_PAGE_LIMIT, DEFAULT_VALUE_RATIO, DEFAULT_ACCUMULATED_RATIO);
    }

    public IprParams withCutOff(CutOff c) {
        return new IprParams(c, pageLimit, valueRatio, accumulatedRatio);
    }
}
