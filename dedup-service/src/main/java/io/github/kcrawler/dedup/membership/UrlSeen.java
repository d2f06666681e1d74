package io.github.kcrawler.dedup.membership;

/**
 * The URL-seen test of one stream task (one partition, i.e. a disjoint set of host IPs): has this URL fingerprint
 * been admitted before? The service runs paper 000's tiers ({@link UrlSeenTiers}: LRU → Stable Bloom Filter Light →
 * exact fingerprint set, DESIGN §4.1) behind it; the lab's {@code bench url-seen} also runs the exact set alone
 * ({@code io.github.kcrawler.lab.baselines.dedup.ExactUrlSeen}) as the baseline. Primitive {@code long} API: it sits
 * on the hottest path of the crawler and must not box.
 *
 * <p>Contract: {@code testAndAdd} never returns true twice for the same fingerprint unless {@code forget} was called
 * in between (no duplicate admissions); an implementation may return false for a fingerprint it never saw only if
 * it documents its false-positive rate (the tiers' filter may; the exact set never does). Instances are confined to
 * one stream thread and need not be thread-safe.
 */
public interface UrlSeen {
    /**
     * Tests the fingerprint and records it.
     *
     * @return true if the URL is new (it is now recorded as seen), false if it was seen before
     */
    boolean testAndAdd(long fingerprint);

    /**
     * Forgets the fingerprint, so that its URL is admitted again when rediscovered. Forgetting an unknown one is a
     * no-op.
     */
    void forget(long fingerprint);
}
