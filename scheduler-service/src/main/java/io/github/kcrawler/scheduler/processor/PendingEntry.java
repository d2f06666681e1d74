package io.github.kcrawler.scheduler.processor;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.RevisitMemo;

import io.github.kcrawler.scheduler.politeness.PendingUrl;

/**
 * One pending URL as persisted in the scheduler's changelog-backed store: everything needed to rebuild the
 * in-memory frontier after a restart and to build the fetch request on release. Stored in binary
 * ({@link PendingEntryCodec}, issue 22 follow-up: the changelog is internal); entries of the earlier JSON form, with
 * a format version, are still read. As JSON, null fields are left out ({@code NON_NULL}).
 *
 * @param ip          host IP (the record key of every crawler topic)
 * @param seq         admission order within the partition (FIFO tie-break, part of the store key)
 * @param score       the priority score the URL was admitted with (scores arriving later reorder the frontier
 *                    only and are not written back: SchedulerProcessor, "Store writes"), or for a deferred URL the score
 *                    it had when it moved to the spill
 * @param admittedAt  record timestamp of the admission (epoch millis), for age diagnostics
 * @param kind        NEW for a first fetch, REVISIT for a recrawl (format version 2; null in version 1 = NEW)
 * @param etag        validator for a revisit's conditional GET, or null (null when the memo carries it: each
 *                    validator is sent once)
 * @param lastModified validator for a revisit's conditional GET, or null (likewise)
 * @param revisit     a revisit's state while it waits (issue 22, {@code revisit-state=satl}): it left the SAT/L store
 *                    when the entry was put, and travels on with the request; null otherwise and in older entries
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PendingEntry(int v, String ip, String url, int depth, long fingerprint, long seq, double score,
                           long admittedAt, FetchKind kind, String etag, String lastModified, RevisitMemo revisit) {
    public static final int VERSION = 2;

    public PendingEntry {
        if (kind == null) {
            kind = FetchKind.NEW;
        }
    }

    public static PendingEntry of(String ip, String url, int depth, long fingerprint, long seq, double score,
                                  long admittedAt) {
        return new PendingEntry(VERSION, ip, url, depth, fingerprint, seq, score, admittedAt, FetchKind.NEW, null,
                null, null);
    }

    public static PendingEntry revisit(String ip, String url, int depth, long fingerprint, long seq, double score,
                                       long admittedAt, String etag, String lastModified) {
        return revisit(ip, url, depth, fingerprint, seq, score, admittedAt, etag, lastModified, null);
    }

    public static PendingEntry revisit(String ip, String url, int depth, long fingerprint, long seq, double score,
                                       long admittedAt, String etag, String lastModified, RevisitMemo state) {
        return new PendingEntry(VERSION, ip, url, depth, fingerprint, seq, score, admittedAt, FetchKind.REVISIT,
                etag, lastModified, state);
    }

    /**
     * The fetch request for this entry, released at {@code step} with {@code notBefore}; a first fetch carries the
     * score the URL was admitted with.
     */
    public FetchRequest toRequest(long step, long notBefore) {
        return toRequest(step, notBefore, score);
    }

    /** As {@link #toRequest(long, long)}, a first fetch carrying {@code currentScore}, its score in the frontier. */
    public FetchRequest toRequest(long step, long notBefore, double currentScore) {
        return kind == FetchKind.REVISIT
                ? FetchRequest.revisit(url, fingerprint, depth, step, notBefore, etag, lastModified, revisit)
                : FetchRequest.fresh(url, fingerprint, depth, step, notBefore, currentScore);
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
        return new PendingEntry(v, ip, url, depth, fingerprint, seq, newScore, admittedAt, kind, etag, lastModified,
                revisit);
    }

    /** True when the entry can be put back into the frontier (a hand-edited or corrupted changelog may hold junk). */
    public boolean isUsable() {
        return ip != null && url != null && !url.isBlank() && seq >= 0 && Double.isFinite(score);
    }

    public PendingUrl toPendingUrl() {
        return new PendingUrl(ip, fingerprint, seq, score);
    }
}
