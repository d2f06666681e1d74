package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.scheduler.politeness.PendingUrl;

/**
 * One pending URL as persisted in the scheduler's changelog-backed store: everything needed to rebuild the
 * in-memory frontier after a restart and to build the fetch request on release. JSON with a format version, so the
 * changelog is readable with the console consumer and a later format can still read this one.
 *
 * @param ip          host IP (the record key of every crawler topic)
 * @param seq         admission order within the partition (FIFO tie-break, part of the store key)
 * @param score       latest known priority score
 * @param admittedAt  record timestamp of the admission (epoch millis), for age diagnostics
 */
public record PendingEntry(int v, String ip, String url, int depth, long fingerprint, long seq, double score,
                           long admittedAt) {
    public static final int VERSION = 1;

    public static PendingEntry of(String ip, String url, int depth, long fingerprint, long seq, double score,
                                  long admittedAt) {
        return new PendingEntry(VERSION, ip, url, depth, fingerprint, seq, score, admittedAt);
    }

    /** The store key: IP, then the sequence number as 16 hex digits, so one IP's URLs are adjacent and unique. */
    public static String key(String ip, long seq) {
        StringBuilder key = new StringBuilder(ip.length() + 17).append(ip).append('|');
        for (int shift = 60; shift >= 0; shift -= 4) {
            key.append(Character.forDigit((int) (seq >>> shift) & 0xf, 16));
        }
        return key.toString();
    }

    public String key() {
        return key(ip, seq);
    }

    public PendingEntry withScore(double newScore) {
        return new PendingEntry(v, ip, url, depth, fingerprint, seq, newScore, admittedAt);
    }

    /** True when the entry can be put back into the frontier (a hand-edited or corrupted changelog may hold junk). */
    public boolean isUsable() {
        return ip != null && url != null && !url.isBlank() && seq >= 0 && Double.isFinite(score);
    }

    public PendingUrl toPendingUrl() {
        return new PendingUrl(ip, fingerprint, seq, score);
    }
}
