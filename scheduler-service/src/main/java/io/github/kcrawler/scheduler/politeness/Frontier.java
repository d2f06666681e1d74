package io.github.kcrawler.scheduler.politeness;

/**
 * The scheduler's algorithm without Kafka: which admitted URL is handed to the fetchers next, and when. The Streams
 * processor feeds it admissions, score updates and fetch completions and calls {@link #releaseReady} from a
 * wall-clock punctuator; the simulator and the benchmarks drive the same object directly. Implementations take a
 * {@code CrawlClock} so tests run on fake time.
 *
 * <p>Contract every implementation keeps:
 * <ul>
 *   <li>Politeness: two URLs of one IP are released with {@code notBefore} values at least T apart.</li>
 *   <li>Bounded memory: {@link #admit} refuses a URL (and says why), or defers it to a durable {@link Spill},
 *   instead of growing past its bounds.</li>
 *   <li>Conservation: every queued URL is released exactly once; nothing leaves the frontier any other way
 *   (a URL deferred to a {@link Spill} is taken back and then released).</li>
 * </ul>
 * Not thread-safe: one stream task (one partition) owns one frontier.
 */
public interface Frontier {
    /** What {@link #admit} did with a URL. */
    enum Admission {
        /** Queued; it will be released exactly once. */
        QUEUED,
        /** A URL with the same fingerprint is already pending; the new one was ignored. */
        DUPLICATE,
        /** The frontier holds its maximum number of URLs; the URL was refused. */
        FRONTIER_FULL,
        /** The URL's IP holds its maximum number of URLs; the URL was refused. */
        IP_FULL,
        /**
         * The frontier holds its maximum number of URLs in memory; the URL was not indexed and the caller keeps it in
         * the frontier's {@link Spill} (durably), from which the frontier takes it back when it has room. Its score
         * is {@link WheelFrontier#deferredScore()}.
         */
        DEFERRED
    }

    /** Receives released URLs, in release order. */
    @FunctionalInterface
    interface ReleaseSink {
        /**
         * @param url       the URL leaving the frontier
         * @param notBefore epoch millis before which the fetcher must not contact the IP
         */
        void released(PendingUrl url, long notBefore);
    }

    /**
     * Queues a newly admitted URL, with the score remembered for its fingerprint if one arrived earlier (else 0).
     *
     * @param seq admission sequence number, strictly increasing per frontier (ties on score are released FIFO)
     */
    default Admission admit(String ip, long fingerprint, long seq) {
        return admit(ip, fingerprint, seq, 0.0);
    }

    /**
     * Queues a newly admitted URL with the larger of {@code initialScore} and the score remembered for its
     * fingerprint if one arrived earlier: the score known where its link was found
     * ({@link io.github.kcrawler.common.model.LinkShare}) orders it until the ranker's first score arrives.
     *
     * @param initialScore finite, {@code >= 0}
     */
    Admission admit(String ip, long fingerprint, long seq, double initialScore);

    /**
     * Puts back a URL that was pending before a restart, ignoring the bounds (it was accepted once already).
     *
     * @return false if a URL with the same fingerprint is already pending (the caller discards the copy)
     */
    boolean restore(PendingUrl url);

    /**
     * Applies a new score. A pending URL moves to its new place in its IP's queue; a score for a URL not pending
     * is remembered (in a bounded cache) for when the URL is admitted.
     *
     * @return the repositioned URL, or null if the URL is not pending
     */
    PendingUrl updateScore(long fingerprint, double score);

    /**
     * Reports that a fetch for this IP was sent at {@code fetchedAt} (from the fetch results): the IP's next
     * release is pushed to at least {@code fetchedAt + T}, so a fetcher running late slows the IP down instead of
     * making its per-IP guard wait. Times in the future are taken as now.
     */
    void fetched(String ip, long fetchedAt);

    /**
     * {@link #fetched(String, long)} with the scheduler step that released the request (the fetch result carries
     * it), for frontiers that pace by steps.
     */
    default void fetched(String ip, long fetchedAt, long step) {
        fetched(ip, fetchedAt);
    }

    /**
     * Releases, for every IP whose next allowed time has come (within the tick look-ahead), its best pending URL,
     * at most one per IP per call. Costs O(released · log n), not O(IPs).
     *
     * @return how many URLs were released
     */
    int releaseReady(ReleaseSink sink);

    /** The pending URL with this fingerprint, or null. */
    PendingUrl pending(long fingerprint);

    /** URLs pending. */
    int size();

    /** IPs with at least one pending URL. */
    int activeIps();
}
