package io.github.kcrawler.lab.dedup.bench;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;
import java.util.Map;

/**
 * What {@code bench url-seen-memory} (and {@code simulate --experiment url-seen}) measured: memory at equal hit rate,
 * LRU alone against LRU + SBFL (paper 000, Figs. 5–10), per dataset, written as its JSON summary in this field order
 * and read back from it for the plots ({@code UrlSeenMemoryPlots}). A reduction is null where no configuration's hit
 * rate fell inside the LRU-alone range measured.
 *
 * @param memoryReductionK4          the best reduction at k = 4, FPR 1 %, on the first dataset (the graph if given)
 * @param syntheticMemoryReductionK4 the same on the synthetic stream; NaN when there was none, and then left out
 *                                   of the summary (null is written: a run with no reduction in range)
 * @param datasets                   by name: {@code graph}, {@code synthetic}
 */
public record UrlSeenMemoryResult(Double memoryReductionK4, Double memoryReductionK8,
                                  @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = NotRun.class)
                                  Double syntheticMemoryReductionK4,
                                  @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = NotRun.class)
                                  Double syntheticMemoryReductionK8,
                                  double paperMemoryReductionK4, Map<String, Dataset> datasets,
                                  BenchReport.Machine machine) {
    /** The summary leaves a field out whose value is NaN (not run); null is written as null. */
    public static final class NotRun {
        @Override
        public boolean equals(Object value) {
            return value instanceof Double d && d.isNaN();
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    /**
     * One test stream: its LRU-alone curve, the method's curves (k = 4, FPR 1 % and k = 8, FPR 0.001 %) with their
     * best reductions under the paper's accounting, the measured one and at the true hit rate, the SBF's curve when it
     * ran (null otherwise, left out) and the plot when one was written (likewise).
     *
     * @param lruFixed the LRU size in front of the filters
     */
    public record Dataset(String description, long tests, long distinctUrls, double maxHitRate, int lruMinLog2,
                          int lruFixed, double seconds, List<LruPoint> lruOnly, List<FilterPoint> sbflK4,
                          Double memoryReductionK4, Double memoryReductionK4Measured,
                          Double memoryReductionK4TrueHitRate, List<FilterPoint> sbflK8, Double memoryReductionK8,
                          Double memoryReductionK8Measured, Double memoryReductionK8TrueHitRate,
                          @JsonInclude(JsonInclude.Include.NON_NULL) List<FilterPoint> sbfK4,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String plot) {
    }

    /** An LRU alone of {@code lruSize} entries on the stream. */
    public record LruPoint(int lruSize, long sbflCounters, double hitRate, double trueHitRate, long lruHits,
                           long filterPositives, long falsePositives, long falseNegatives, long memoryPaperBytes,
                           long memoryMeasuredBytes) {
    }

    /**
     * An LRU of {@code lruSize} in front of a filter of {@code sbflCounters} counters, k hashes, target FPR, and the
     * LRU alone it equals in hit rate (null outside the LRU-alone range, as are the reductions then).
     */
    public record FilterPoint(int lruSize, long sbflCounters, int k, double fpr, double p, double hitRate,
                              double trueHitRate, long lruHits, long filterPositives, long falsePositives,
                              long falseNegatives, long memoryPaperBytes, long memoryMeasuredBytes,
                              Double equivalentLruSize, Double memoryReduction, Double memoryReductionMeasured,
                              Double memoryReductionTrueHitRate) {
    }
}
