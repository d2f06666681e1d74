/**
 * Revisiting fetched pages (DESIGN §4.4). The revisit event queue of paper 003 (Tamura, Kitsuregawa, "A Method for
 * Improving Time Resolution in Multi-periodic Web Crawling", {@code ../shared/seeds/003_c53e4199b90a7af9.txt}):
 * per-page state stored inside the queue ({@code RevisitQueue}), clustered on disk by its next access time so that
 * taking the records due now is a sequential read. {@code SatlStore} is SAT/L, the variable time resolution of §3
 * ({@code SatlBuckets}: eqs. (1)–(2), with the floor DESIGN §4.4 corrects the printed ceiling to); {@code SatStore} is
 * SAT, one bucket per time unit, the baseline the paper improves on; both share {@code BucketFileStore} (4 KiB pages,
 * the free-page pool {@code PagePool}, sequence and bucket indexes for update and delete by key, O_DIRECT-ready
 * writes). When to revisit: {@code RevisitPolicy} over {@code ChangeRateEstimator}, the estimators of Cho &amp;
 * Garcia-Molina ("Estimating frequency of change", ACM TOIT 2003; reference 7 of paper 003, not among the seeds):
 * naive, bias-reduced for a regular interval (§4.2) and maximum likelihood for irregular intervals (§4.3, the
 * default), with our additions (a bias term for irregular intervals, a bounded per-page history, the half-change rule
 * at X = 0). {@code RevisitState} is a page's record and {@code RevisitRecords} bounds it to one SAT/L record.
 *
 * <p>Invariants the classes state: a scheduled record is delivered by exactly one poll, never late and early by at
 * most the store's tolerance, and a replaced or deleted record never ({@code RevisitQueueContractTest} holds every
 * implementation to it); SAT/L places a record at a bucket b with t &lt; b ≤ t', so a bucket never lies in the past;
 * the estimator's Newton iteration stays within its bracket lo ≤ λ̂ ≤ hi; a fitted record is never longer than its
 * limit. Time is an integer count of units passed in by the caller: nothing here reads a wall clock.
 *
 * <p>No Kafka, no RocksDB: the package imports neither (crawler-lab's {@code LayeringTest} enforces it); the RocksDB
 * time-keyed baseline store lives in {@code scheduler.store}.
 */
package io.github.kcrawler.scheduler.revisit;
