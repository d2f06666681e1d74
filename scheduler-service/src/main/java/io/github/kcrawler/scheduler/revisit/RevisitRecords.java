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
 * record — is its {@link RevisitStateCodec} encoding (format byte, due unit, the state; binary since the issue 22
 * follow-up, typically ~110 bytes of which the URL is most), at most {@link #MAX_RECORD_BYTES} (4,066) bytes: one
 * record per 4 KiB bucket page. Records of the earlier form — {@link #HEADER_BYTES} bytes of due unit, then the
 * state's JSON — are still read ({@link #state}, {@link #due}), so a changelog written before the change restores;
 * they are never written any more. The inputs are bounded where they enter: an ETag or Last-Modified longer than
 * {@link RevisitMemo#MAX_VALIDATOR_BYTES} (256) bytes, or holding anything but visible ASCII, space and tab, is
 * dropped (the fetcher's own rule, {@code ValueBounds}, repeated here because a result or a memo may come from any
 * producer), counted as {@link Fit#VALIDATORS_DROPPED} under {@code crawler.scheduler.revisits.bounded}; the URL is
 * bounded by the crawl scope's {@code max-url-length}, and a state that still does not fit is {@link Fit#TOO_LARGE}.
 *
 * <p>Invariant (asserted): {@link Fitted#bytes()} is null exactly when {@link Fit#TOO_LARGE}, and otherwise is
 * the record of {@link Fitted#state()} (its binary encoding), whose validators are within their bound, and no longer
 * than the limit.
 */
public final class RevisitRecords {
    /** Bytes of the due unit in front of the JSON in a record of the earlier (JSON) form, still read. */
    public static final int HEADER_BYTES = Long.BYTES;
    /** Largest revisit record: one SAT/L bucket page's worth. */
    public static final int MAX_RECORD_BYTES = BucketFileStore.MAX_RECORD_BYTES;
    /** Largest JSON of a state in a record of the earlier form (still read, never written). */
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

    /** {@link #fit(RevisitState, int)} with the revisit record limit. */
    public static Fitted fit(RevisitState s) {
        Fitted f = fit(s, MAX_RECORD_BYTES);
        assert (f.bytes() == null) == (f.fit() == Fit.TOO_LARGE)
                && (f.bytes() == null || f.bytes().length <= MAX_RECORD_BYTES
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

    /** The revisit record of a fitted state: its binary encoding ({@link RevisitStateCodec}), due unit included. */
    public static byte[] record(Fitted f) {
        if (f.bytes() == null) {
            throw new IllegalArgumentException("a state that does not fit has no record");
        }
        assert f.bytes().length <= MAX_RECORD_BYTES && RevisitStateCodec.isBinary(f.bytes(), f.bytes().length);
        return f.bytes();
    }

    /**
     * Whether {@code record[0, length)} has the shape of a revisit record: binary with a readable due unit, or the
     * earlier form (a non-negative due unit, then JSON); within the size limit. The state itself is read later.
     */
    public static boolean wellFormed(byte[] record, int length) {
        if (record == null || length > MAX_RECORD_BYTES || length > record.length || length < 1) {
            return false;
        }
        if (RevisitStateCodec.isBinary(record, length)) {
            return RevisitStateCodec.due(record, length) != Long.MIN_VALUE;
        }
        return length > HEADER_BYTES && record[0] >= 0;
    }

    /** The due unit of a well-formed record (either form). */
    public static long due(byte[] record) {
        if (RevisitStateCodec.isBinary(record, record.length)) {
            return RevisitStateCodec.due(record, record.length);
        }
        return ByteBuffer.wrap(record).getLong(0);
    }

    /** The state in {@code record[0, length)} (either form), or null if it does not decode or is not usable. */
    public static RevisitState state(byte[] record, int length) {
        if (!wellFormed(record, length)) {
            return null;
        }
        if (RevisitStateCodec.isBinary(record, length)) {
            RevisitStateCodec.Decoded d = RevisitStateCodec.decode(record, length);
            return d.state() != null && d.state().isUsable() ? d.state() : null;
        }
        try {
            RevisitState s = io.github.kcrawler.common.serde.JsonSerde.MAPPER.readValue(record, HEADER_BYTES,
                    length - HEADER_BYTES, RevisitState.class);
            return s != null && s.isUsable() ? s : null;
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    /** A record of the earlier form (due unit, then JSON), as written before the binary codec: for tests of restore. */
    public static byte[] jsonRecord(RevisitState s) {
        byte[] json = RevisitState.SERDE.serialize(null, s);
        byte[] r = new byte[HEADER_BYTES + json.length];
        ByteBuffer.wrap(r).putLong(s.dueUnit()).put(json);
        return r;
    }

    private static byte[] serialize(RevisitState s) {
        return RevisitStateCodec.encode(s);
    }

    private static RevisitState with(RevisitState s, String etag, String lastModified, String contentHash) {
        return new RevisitState(s.v(), s.url(), s.fingerprint(), s.ip(), s.depth(), etag, lastModified, contentHash,
                s.visits(), s.changes(), s.observedUnits(), s.intervalUnits(), s.lastFetchedMs(), s.dueUnit(),
                s.firstFetchedMs(), s.changedUnits(), s.changedIntervals());
    }
}
