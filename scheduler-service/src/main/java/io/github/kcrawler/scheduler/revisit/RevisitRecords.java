package io.github.kcrawler.scheduler.revisit;

import io.github.kcrawler.common.model.RevisitMemo;

import java.nio.ByteBuffer;

/**
 * Makes a page's {@link RevisitState} fit a SAT/L record (defence in depth, issue 20): a bucket page holds records
 * of at most {@link BucketFileStore#MAX_RECORD_BYTES}, and {@code BucketFileStore.schedule} refuses larger ones. The
 * fetcher bounds the validators it keeps (ETag, Last-Modified), but a result from an older fetcher or another
 * producer may not, and a stream thread that throws on such a record replays it forever. So an oversized state
 * first loses its validators (the page's next revisit is an unconditional GET: a validator cut short would be a
 * different validator), then its content hash (the next fetch counts as a change); only a state that still does
 * not fit — its URL alone is too long for a record — cannot be revisited. No Kafka, no I/O.
 *
 * <p>Bounded records (issue 22, item 4). A page's revisit record — the SAT/L entry and the value of its changelog
 * record — is {@link #HEADER_BYTES} bytes of due time followed by the state's JSON, at most {@link #MAX_RECORD_BYTES}
 * (4,066) bytes in all: one record per 4 KiB bucket page. A typical page's record is about 300 bytes (the URL is most
 * of it). The inputs are bounded where they enter: an ETag or Last-Modified longer than
 * {@link RevisitMemo#MAX_VALIDATOR_BYTES} (256) bytes, or holding anything but visible ASCII, space and tab, is
 * dropped (the fetcher's own rule, {@code ValueBounds}, repeated here because a result or a memo may come from any
 * producer), counted as {@link Fit#VALIDATORS_DROPPED} under {@code crawler.scheduler.revisits.bounded}; the URL is
 * bounded by the crawl scope's {@code max-url-length}, and a state that still does not fit is {@link Fit#TOO_LARGE}.
 *
 * <p>Invariant (asserted): {@link Fitted#bytes()} is null exactly when {@link Fit#TOO_LARGE}, and otherwise is
 * the serialised {@link Fitted#state()}, whose validators are within their bound, and no longer than the limit.
 */
public final class RevisitRecords {
    /** Bytes of the due unit in front of the JSON in a record ({@link #record}). */
    public static final int HEADER_BYTES = Long.BYTES;
    /** Largest revisit record: header plus JSON, one SAT/L bucket page's worth. */
    public static final int MAX_RECORD_BYTES = BucketFileStore.MAX_RECORD_BYTES;
    /** Largest JSON of a state. */
    public static final int MAX_STATE_BYTES = MAX_RECORD_BYTES - HEADER_BYTES;

    private RevisitRecords() {
    }

    /** What fitting did to the state. */
    public enum Fit {
        /** It fitted as it was. */
        AS_IS,
        /** ETag and Last-Modified (and, if needed, the content hash) were dropped to make it fit. */
        VALIDATORS_DROPPED,
        /** Even without them it does not fit: the page cannot be revisited. */
        TOO_LARGE
    }

    /** The state to keep (null when TOO_LARGE), its serialised form, and what was done. */
    public record Fitted(RevisitState state, byte[] bytes, Fit fit) {
    }

    /** Fits {@code s} into {@code maxBytes} (see the class comment). */
    public static Fitted fit(RevisitState s, int maxBytes) {
        boolean badValidator = false;
        if (!validator(s.etag()) || !validator(s.lastModified())) {
            s = with(s, validator(s.etag()) ? s.etag() : null, validator(s.lastModified()) ? s.lastModified() : null,
                    s.contentHash());
            badValidator = true;
        }
        byte[] b = serialize(s);
        if (b.length <= maxBytes) {
            return new Fitted(s, b, badValidator ? Fit.VALIDATORS_DROPPED : Fit.AS_IS);
        }
        RevisitState noValidators = with(s, null, null, s.contentHash());
        b = serialize(noValidators);
        if (b.length <= maxBytes) {
            return new Fitted(noValidators, b, Fit.VALIDATORS_DROPPED);
        }
        RevisitState bare = with(s, null, null, null);
        b = serialize(bare);
        if (b.length <= maxBytes) {
            return new Fitted(bare, b, Fit.VALIDATORS_DROPPED);
        }
        return new Fitted(null, null, Fit.TOO_LARGE);
    }

    /** {@link #fit(RevisitState, int)} with the revisit record limit (room left for the header). */
    public static Fitted fit(RevisitState s) {
        Fitted f = fit(s, MAX_STATE_BYTES);
        assert (f.bytes() == null) == (f.fit() == Fit.TOO_LARGE)
                && (f.bytes() == null || f.bytes().length <= MAX_STATE_BYTES
                && validator(f.state().etag()) && validator(f.state().lastModified()));
        return f;
    }

    /** Whether a validator may be kept: null, or at most 256 bytes of visible ASCII, space and tab. */
    public static boolean validator(String v) {
        if (v == null) {
            return true;
        }
        if (v.length() > RevisitMemo.MAX_VALIDATOR_BYTES) {
            return false;
        }
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if ((c < 0x20 && c != '\t') || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    /** The revisit record of a fitted state: its due unit (8 bytes, big-endian), then its JSON. */
    public static byte[] record(Fitted f) {
        if (f.bytes() == null) {
            throw new IllegalArgumentException("a state that does not fit has no record");
        }
        byte[] r = new byte[HEADER_BYTES + f.bytes().length];
        ByteBuffer.wrap(r).putLong(f.state().dueUnit()).put(f.bytes());
        assert r.length <= MAX_RECORD_BYTES;
        return r;
    }

    /** Whether {@code record[0, length)} has the shape of a revisit record (size only; the JSON is read later). */
    public static boolean wellFormed(byte[] record, int length) {
        return record != null && length > HEADER_BYTES && length <= MAX_RECORD_BYTES && length <= record.length;
    }

    /** The due unit of a well-formed record. */
    public static long due(byte[] record) {
        return ByteBuffer.wrap(record).getLong(0);
    }

    /** The state in {@code record[0, length)}, or null if it does not parse or is not usable. */
    public static RevisitState state(byte[] record, int length) {
        if (!wellFormed(record, length)) {
            return null;
        }
        try {
            RevisitState s = io.github.kcrawler.common.serde.JsonSerde.MAPPER.readValue(record, HEADER_BYTES, length - HEADER_BYTES,
                    RevisitState.class);
            return s != null && s.isUsable() ? s : null;
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    private static byte[] serialize(RevisitState s) {
        return RevisitState.SERDE.serialize(null, s); // JsonSerde itself, not Kafka's Serializer: revisit stays Kafka-free
    }

    private static RevisitState with(RevisitState s, String etag, String lastModified, String contentHash) {
        return new RevisitState(s.v(), s.url(), s.fingerprint(), s.ip(), s.depth(), etag, lastModified, contentHash,
                s.visits(), s.changes(), s.observedUnits(), s.intervalUnits(), s.lastFetchedMs(), s.dueUnit(),
                s.firstFetchedMs(), s.changedUnits(), s.changedIntervals());
    }
}
