/**
 * The scheduler's frontier without Kafka: which admitted URL is handed to the fetchers next, and when ({@code
 * Frontier}). The Streams processor feeds it admissions, score updates and fetch completions; the lab's simulator and
 * benchmarks drive the same objects directly, on an injected {@code CrawlClock}. {@code WheelFrontier} is the frontier
 * of paper 004 ({@code ../shared/seeds/004_4207424cc682bc95.txt}; DESIGN §4.5) over {@code scheduler.wheel}'s
 * {@code PolitenessWheel} and {@code StepPacer}, in the {@code WheelOrder} FIFO (the paper's scheduler) or PRIORITY
 * (ours, through the priority front {@code PriorityFront}: a bounded pool in log-linear score buckets from which the
 * best-scored URLs enter the wheel first, its order exact between buckets and FIFO inside one, a bucket spanning a
 * score ratio of at most 9/8). Ours, not the paper's: {@code FrontierBound}, the memory bound of one partition's
 * frontier (URLs and heap bytes) computed from its settings; {@code Spill}, the durable place outside the heap where
 * a PRIORITY frontier defers the URLs beyond that bound instead of dropping them; and {@code BoundedFront}, the
 * PRIORITY index that keeps to the bound (the priority front with each slot's URL data, eviction, taking back).
 * {@code IpTable}, {@code PendingSlots}, {@code ScoreCache} and {@code OverflowQueue} are the frontier's
 * primitive-array index.
 *
 * <p>Contract of every frontier: two URLs of one IP are released with {@code notBefore} at least T apart; memory is
 * bounded ({@code admit} refuses a URL and says why, or defers it to the spill, instead of growing); every queued URL
 * is released exactly once. {@code FrontierBoundTest} checks at ten times the bound's URL count that neither the URLs
 * held nor {@code WheelFrontier.memoryBytes()} ever exceed {@code FrontierBound}. Not thread-safe: one stream task
 * owns one frontier.
 *
 * <p>No Kafka, no RocksDB: the package imports neither (crawler-lab's {@code LayeringTest} enforces it); the spill's
 * RocksDB implementation is the scheduler's pending store, outside this package.
 */
package io.github.kcrawler.scheduler.politeness;
