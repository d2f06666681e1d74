package io.github.kcrawler.scheduler.politeness;

/**
 * One URL waiting in the frontier, as the in-memory index sees it: which IP it belongs to, its fingerprint, its
 * admission sequence number (the FIFO tie-break) and its current score. The URL text and depth stay in the
 * persistent store, so the index costs a few dozen bytes per URL whatever the URL's length.
 *
 * @param ip          host IP (text), the politeness key
 * @param fingerprint 64-bit URL fingerprint, unique among pending URLs
 * @param seq         admission order within the partition; lower was admitted earlier
 * @param score       priority; higher is released first; finite ({@code -0.0} is stored as {@code 0.0} so that
 *                    equal scores always tie)
 */
public record PendingUrl(String ip, long fingerprint, long seq, double score) {
    public PendingUrl {
        if (ip == null) {
            throw new IllegalArgumentException("ip must not be null");
        }
        if (!Double.isFinite(score)) {
            throw new IllegalArgumentException("score must be finite, was " + score);
        }
        score = score + 0.0; // -0.0 + 0.0 == +0.0
    }

    public PendingUrl withScore(double newScore) {
        return new PendingUrl(ip, fingerprint, seq, newScore);
    }
}
