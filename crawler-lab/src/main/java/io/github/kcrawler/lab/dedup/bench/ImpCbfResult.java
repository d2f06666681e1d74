package io.github.kcrawler.lab.dedup.bench;

import java.util.List;

/**
 * What {@code bench imp-cbf} measured (paper 001, Fig. 3), written as its JSON summary in this field order — also
 * after each (size, ratio), with {@code complete} false, so a stopped run keeps what it finished — and read back from
 * it for the plots ({@code ImpCbfPlots}).
 *
 * @param speedupAt2M      baseline / IMP-CB time at 2M items and the paper's duplicate ratio; null if not run
 * @param speedupAt2M30pct the same at a 30 % duplicate ratio; null if not run
 * @param results          one row per (size, ratio), in the order run
 * @param complete         whether every (size, ratio) has run
 */
public record ImpCbfResult(String benchmark, String paper, Double speedupAt2M, Double speedupAt2M30pct, int hashes,
                           int countersPerItem, String store, String stream, String timing, int repeats,
                           String workDir, List<Row> results, BenchReport.Machine machine, boolean complete) {
    /**
     * One (size, duplicate ratio): the best time of each variant and what it cost in DB reads and bytes.
     *
     * @param answersAgree always true: a disagreement with the truth fails the bench before a row is written
     */
    public record Row(int items, double duplicateRatio, long duplicates, long distinct, double baselineSeconds,
                      double impCbSeconds, double baselineItemsPerSec, double impCbItemsPerSec, double speedup,
                      boolean answersAgree, long baselineDbReads, long impCbDbReads, long dbReadsAvoided,
                      double dbReadsAvoidedFraction, long falsePositives, long filterMemoryBytes, long counters,
                      int saturatedPositions, long baselineDbBytesOnDisk, long impCbDbBytesOnDisk) {
    }
}
