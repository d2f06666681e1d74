package io.github.kcrawler.common.metrics;

/**
 * Every metric name of the crawler, declared once, so that each service, the embedded mode and the dashboards use
 * the same names. Prometheus renders dots as underscores ({@code crawler_fetch_total}).
 */
public final class MetricNames {
    private MetricNames() {
    }

    // fetcher
    /** Counter, tags {@code outcome} (FetchOutcome) and {@code status} (HTTP status class: 2xx, 3xx, 4xx, 5xx, none). */
    public static final String FETCHES = "crawler.fetch";
    /** Counter of body bytes received (after decompression). */
    public static final String FETCH_BYTES = "crawler.fetch.bytes";
    /** Timer with histogram: request sent to body complete. */
    public static final String FETCH_LATENCY = "crawler.fetch.latency";
    /** Counter: fetch requests delivered again after a rebalance and skipped, this instance had fetched them. */
    public static final String FETCH_REDELIVERED_SKIPPED = "crawler.fetch.redelivered.skipped";
    /**
     * Counter: fetch requests delivered again after a rebalance and answered, without a fetch, by the results this
     * instance had fetched but not yet committed when the partition left.
     */
    public static final String FETCH_REDELIVERED_ANSWERED = "crawler.fetch.redelivered.answered";
    /** Counter: offset commits of fetch requests that failed (fetches wait until one succeeds). */
    public static final String FETCH_COMMIT_FAILURES = "crawler.fetch.commit.failures";
    /** Times the fetch gate closed because a Kafka connection of the fetcher closed (the broker may be gone). */
    public static final String FETCH_GATE_LINK_CLOSED = "crawler.fetch.gate.link.closed";
    public static final String FETCH_GATE_ASSIGNED_HOLD_EXPIRED = "crawler.fetch.gate.assigned.hold.expired";
    /** Fetcher output transactions, tag {@code result} = committed | aborted. */
    public static final String FETCH_TRANSACTIONS = "crawler.fetch.transactions";
    /** Timer: host name resolution. */
    public static final String DNS_LATENCY = "crawler.dns.latency";
    /** Counter, tag {@code reason}: hosts that did not resolve. */
    public static final String DNS_FAILURES = "crawler.dns.failures";
    /** Counter: URLs refused by robots.txt. */
    public static final String ROBOTS_DENIED = "crawler.robots.denied";
    /** Counter: robots.txt fetches, tag {@code result}. */
    public static final String ROBOTS_FETCHES = "crawler.robots.fetches";
    /** Timer: time a request waited at the per-IP guard for politeness. */
    public static final String POLITENESS_WAIT = "crawler.politeness.wait";
    /** Counter, tag {@code reason}: outlinks not followed (scope, malformed, depth, address policy). */
    public static final String LINKS_REJECTED = "crawler.links.rejected";
    /** Counter: outlinks sent to the URL-seen test. */
    public static final String LINKS_DISCOVERED = "crawler.links.discovered";
    /** Gauge: fetches in flight. */
    public static final String FETCHES_IN_FLIGHT = "crawler.fetch.inflight";
    /** Counter: WARC records written. */
    public static final String WARC_RECORDS = "crawler.warc.records";
    /** Counter, tag {@code reason} (not_html, unparsable): 2xx responses not parsed for links. */
    public static final String PARSE_SKIPPED = "crawler.fetch.unparsed";
    /** Counter, tag {@code cause} (retry_after, throttled, server_error, slow): per-IP back-off raised. */
    public static final String FETCH_BACKOFFS = "crawler.fetch.backoffs";
    /**
     * Counter, tags {@code field} (etag, last_modified, content_type, retry_after, redirect_target, error, link_list),
     * {@code action} (dropped, truncated) and {@code reason} (too_long, invalid): server-controlled values bounded
     * before they entered a record (issue 20).
     */
    public static final String FETCH_VALUES_BOUNDED = "crawler.fetch.values.bounded";
    /**
     * Counter, tag {@code result} (parsed, http_error, network, too_large, inflated_too_large, malformed): sitemap
     * files fetched (issue 23).
     */
    public static final String SITEMAP_FETCHES = "crawler.fetch.sitemap.fetches";
    /**
     * Counter, tag {@code reason} (other_host, bad_url, duplicate, host_limit, too_deep, queue_full, partition_moved,
     * redirect_limit): sitemap files named by robots.txt or an index and not fetched.
     */
    public static final String SITEMAP_SKIPPED = "crawler.fetch.sitemap.skipped";
    /** Counter, tag {@code outcome} (found, other_host, malformed, limit): URLs listed in sitemaps. */
    public static final String SITEMAP_URLS = "crawler.fetch.sitemap.urls";

    // every Streams service (dedup, scheduler, ranker)
    /** Counter, tag {@code service}: stream threads replaced after an exception escaped them. */
    public static final String STREAMS_THREADS_REPLACED = "crawler.streams.threads.replaced";
    /**
     * Counter, tags {@code service} (application id) and {@code topic} (source topic, {@code punctuation} for a
     * punctuator): records that failed processing and were sent to {@code crawl.deadletter}.
     */
    public static final String DEADLETTER_RECORDS = "crawler.deadletter.records";

    // dedup
    /** Counter: URL-seen tests. */
    public static final String DEDUP_TESTS = "crawler.dedup.tests";
    /** Counter: URLs admitted as new. */
    public static final String DEDUP_NEW = "crawler.dedup.new";
    /** Counter: URL-seen tests answered by the LRU of fingerprints (paper 000, tier 1). */
    public static final String DEDUP_LRU_HITS = "crawler.dedup.lru.hits";
    /** Counter: URL-seen tests answered "seen" by the Stable Bloom Filter Light (tier 2; may be false positives). */
    public static final String DEDUP_SBFL_POSITIVES = "crawler.dedup.sbfl.positives";
    /** Counter: URL-seen tests that reached the RocksDB fingerprint store (tier 3). */
    public static final String DEDUP_STORAGE_LOOKUPS = "crawler.dedup.storage.lookups";
    /** Counter: store lookups that found the fingerprint. */
    public static final String DEDUP_STORAGE_HITS = "crawler.dedup.storage.hits";
    /** Counter: URLs forgotten on request. */
    public static final String DEDUP_FORGOTTEN = "crawler.dedup.forgotten";
    /**
     * Counter: discovered URLs whose record was keyed onto a partition that does not own their IP (a producer grouped
     * them wrongly), sent back to {@code crawl.urls.discovered} under their own IP instead of being tested there.
     */
    public static final String DEDUP_REROUTED = "crawler.dedup.rerouted";
    /** Fetched URLs whose body another URL already holds (IMP-CB filter of paper 001), per report. */
    public static final String DEDUP_CONTENT_DUPLICATES = "crawler.dedup.content.duplicates";
    /** Content references added or removed, tagged {@code op} (add, remove). */
    public static final String DEDUP_CONTENT_REFS = "crawler.dedup.content.refs";
    /** Content adds the counting Bloom filter answered "new" without reading the fingerprint DB. */
    public static final String DEDUP_CONTENT_DB_READS_AVOIDED = "crawler.dedup.content.db.reads.avoided";

    // scheduler
    /** Gauge: URLs waiting in the scheduler (all local partitions). */
    public static final String FRONTIER_SIZE = "crawler.frontier.size";
    /** Counter: fetch requests released. */
    public static final String SCHEDULER_RELEASED = "crawler.scheduler.released";
    /** Counter, tag {@code reason}: URLs dropped by the scheduler (forget sent, except for {@code duplicate}). */
    public static final String SCHEDULER_DROPPED = "crawler.scheduler.dropped";
    /** Gauge: IPs with at least one URL waiting in the scheduler (all local partitions). */
    public static final String SCHEDULER_ACTIVE_IPS = "crawler.scheduler.ips";
    /** Politeness-wheel steps taken (paper 004's Next), tagged {@code trigger}: all fetches reported, or timeout. */
    public static final String SCHEDULER_STEPS = "crawler.scheduler.steps";
    /** Fetch results applied to pages' revisit state, tagged {@code outcome} (first, changed, unchanged, gone, retry). */
    public static final String SCHEDULER_REVISITS = "crawler.scheduler.revisits";
    /** Revisits that came due and entered the frontier. */
    public static final String SCHEDULER_REVISITS_DUE = "crawler.scheduler.revisits.due";
    /**
     * Counter: due pages that waited in SAT/L one more unit because the partition already held
     * {@code revisit-held-max} due pages in memory (steadily rising: raise the setting, or revisits fall behind).
     */
    public static final String SCHEDULER_REVISITS_HELD_FULL = "crawler.scheduler.revisits.held.full";

    /**
     * Counter, tag {@code fit} (validators_dropped, too_large): revisit states that did not fit a SAT/L record as they
     * were — their ETag/Last-Modified dropped, or (URL too long) not revisited (issue 20, defence in depth).
     */
    public static final String SCHEDULER_REVISITS_BOUNDED = "crawler.scheduler.revisits.bounded";
    /**
     * Counter, tag {@code op} (read, write): revisit-state store operations by key — a read is a random {@code get},
     * a write a put or delete (one changelog record). Issue 22: 0 reads per revisit with {@code revisit-state=satl}.
     */
    public static final String SCHEDULER_REVISIT_STORE_OPS = "crawler.scheduler.revisit.store.ops";
    /** Distribution summary (bytes): revisit records written, each to the changelog (and with satl a SAT/L bucket). */
    public static final String SCHEDULER_REVISIT_RECORD_BYTES = "crawler.scheduler.revisit.record.bytes";
    /** Counter: bytes the scheduler's SAT/L revisit queue wrote to its bucket files (whole pages, padding included). */
    public static final String SCHEDULER_REVISIT_BUCKET_BYTES = "crawler.scheduler.revisit.bucket.bytes";
    /**
     * Distribution: how early each due revisit entered the frontier, as a fraction of its interval
     * ({@code revisit-early-fraction} bounds it).
     */
    public static final String SCHEDULER_REVISIT_EARLY_FRACTION = "crawler.scheduler.revisit.early.fraction";
    /** Counter: REVISIT results (or evicted revisits) that carried no usable state: the page's history restarts. */
    public static final String SCHEDULER_REVISITS_WITHOUT_STATE = "crawler.scheduler.revisits.without.state";

    // ranker
    /** Counter: score updates published. */
    public static final String RANK_UPDATES = "crawler.rank.updates";

    // all
    /** Counter, tags {@code topic} and {@code reason}: records that could not be read and were skipped. */
    public static final String BAD_RECORDS = "crawler.records.bad";
}
