package io.github.kcrawler.lab.dedup.bench;

/**
 * What {@code bench url-seen} measured: URL-seen tests per second of LRU → SBFL → RocksDB against RocksDB alone on a
 * breadth-first crawl's test stream (paper 000's method, Fig. 3), written as its JSON summary in this field order and
 * read back from it for the plots ({@code UrlSeenPlots}).
 *
 * @param tests                  URL-seen tests of the stream
 * @param maxHitRate             the best hit rate any cache could have: repeated tests / tests
 * @param tieredTestsPerSec      best run of the tiered test
 * @param rocksdbOnlyTestsPerSec best run of RocksDB alone
 * @param rocksdbOnlyStoreOps    RocksDB gets + puts of RocksDB alone (a get per test, a put per new URL)
 * @param tieredStoreOps         RocksDB gets + puts of the tiered test
 * @param answersDiffering       tests the tiered test answered differently from RocksDB alone (SBFL false
 *                               negatives let a seen URL through again); -1 without a run
 * @param tiered                 where the tiered test answered, last run; null without a run
 */
public record UrlSeenResult(String graph, long tests, long distinctUrls, double maxHitRate, double tieredTestsPerSec,
                            double rocksdbOnlyTestsPerSec, double speedup, long rocksdbOnlyStoreOps,
                            long tieredStoreOps, double storeOpsRatio, boolean rocksdbOnlyAnswersExact,
                            long answersDiffering, int lruSize, long sbflCounters, int sbflHashes, double sbflFpr,
                            long tierMemoryBytes, int repeats, Tiered tiered, BenchReport.Machine machine) {
    /** The tiered test's counters: tests, where they were answered, and the hit rate (LRU + SBFL answers / tests). */
    public record Tiered(long tests, long lruHits, long sbflPositives, long storageLookups, long storageHits,
                         long newUrls, double hitRate) {
    }
}
