package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.RevisitMemo;
import io.github.kcrawler.common.serde.LenientJsonDeserializer;
import io.github.kcrawler.common.serde.BinaryCodec;
import io.github.kcrawler.scheduler.revisit.RevisitStateCodec;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The pending store's value in binary (issue 22 follow-up; ours): the {@code scheduler-pending} changelog is internal
 * to the scheduler, and a revisit's entry carries its memo, so the JSON of entry and memo was written on every put and
 * parsed on every release (a JFR profile of {@code bench revisits} put the pending store's JSON in about a tenth of
 * the scheduler threads' samples). Binary, a new URL's entry is ~40 bytes plus its URL and IP, and a revisit's memo
 * ~35 bytes more, instead of ~200 and ~250 bytes of JSON. No Kafka but its (de)serializer interfaces, no I/O.
 *
 * <p>Layout, format {@link #FORMAT} (high bit set: a JSON entry starts with '{'):
 * <pre>
 *   u8      format (0x83)
 *   varint  v, depth; varlong seq, admittedAt (zig-zag)
 *   i64     fingerprint, score (IEEE 754 bits)
 *   u8      kind (0 NEW, 1 REVISIT)
 *   u8      flags: 1 etag, 2 lastModified, 4 memo
 *   string  ip, url, etag?, lastModified?   (varint byte length, then UTF-8)
 *   memo?   {@link RevisitStateCodec#writeMemo}
 * </pre>
 *
 * <p>Reading is lenient, as the store's JSON reader was: a value that is not an entry — truncated, corrupt, unknown
 * format — reads as null, which the processor counts ({@code MALFORMED}) and discards when it rebuilds. Entries of
 * the earlier JSON form (a changelog written before) are still read, so no migration is needed. Invariant (held by
 * {@code PendingEntryCodecTest}): {@code decode(encode(e)).equals(e)} for every entry with valid UTF-16 strings.
 */
public final class PendingEntryCodec {
    /** The format byte of this layout. */
    public static final byte FORMAT = (byte) 0x83;
    private static final int ETAG = 1;
    private static final int LAST_MODIFIED = 2;
    private static final int MEMO = 4;
    private static final FetchKind[] KINDS = FetchKind.values();
    private static final LenientJsonDeserializer<PendingEntry> JSON = new LenientJsonDeserializer<>(PendingEntry.class);

    private PendingEntryCodec() {
    }

    /** The binary value of {@code e}. */
    public static byte[] encode(PendingEntry e) {
        BinaryCodec.Writer w = new BinaryCodec.Writer(48 + (e.url() == null ? 0 : e.url().length())
                + (e.revisit() == null ? 0 : 48));
        w.u8(FORMAT);
        w.varlong(e.v());
        w.varlong(e.depth());
        w.varlong(e.seq());
        w.varlong(e.admittedAt());
        w.i64(e.fingerprint());
        w.i64(Double.doubleToRawLongBits(e.score()));
        w.u8(e.kind().ordinal());
        w.u8((e.etag() != null ? ETAG : 0) | (e.lastModified() != null ? LAST_MODIFIED : 0)
                | (e.revisit() != null ? MEMO : 0));
        w.string(e.ip() == null ? "" : e.ip());
        w.string(e.url() == null ? "" : e.url());
        if (e.etag() != null) {
            w.string(e.etag());
        }
        if (e.lastModified() != null) {
            w.string(e.lastModified());
        }
        if (e.revisit() != null) {
            RevisitStateCodec.writeMemo(w, e.revisit());
        }
        return w.toByteArray();
    }

    /** The entry in {@code value}, binary or JSON, or null when it is not one; never throws. */
    public static PendingEntry decode(byte[] value) {
        if (value == null || value.length == 0) {
            return null;
        }
        if (value[0] != FORMAT) {
            return JSON.deserialize(null, value).value(); // the earlier form
        }
        BinaryCodec.Reader r = new BinaryCodec.Reader(value, 1, value.length);
        int v = r.varint();
        int depth = r.varint();
        long seq = r.varlong();
        long admittedAt = r.varlong();
        long fingerprint = r.i64();
        double score = Double.longBitsToDouble(r.i64());
        int kind = r.u8();
        int flags = r.u8();
        if (r.problem() == null && (kind >= KINDS.length || (flags & ~(ETAG | LAST_MODIFIED | MEMO)) != 0)) {
            r.fail(BinaryCodec.Problem.MALFORMED);
        }
        String ip = r.string();
        String url = r.string();
        String etag = (flags & ETAG) != 0 ? r.string() : null;
        String lastModified = (flags & LAST_MODIFIED) != 0 ? r.string() : null;
        RevisitMemo memo = (flags & MEMO) != 0 ? RevisitStateCodec.readMemo(r) : null;
        if (r.finish() != null) {
            return null;
        }
        return new PendingEntry(v, ip, url, depth, fingerprint, seq, score, admittedAt, KINDS[kind], etag,
                lastModified, memo);
    }

    /** The store's serializer. */
    public static Serializer<PendingEntry> serializer() {
        return (topic, e) -> e == null ? null : encode(e);
    }

    /** The store's deserializer (lenient: null for what is not an entry). */
    public static Deserializer<PendingEntry> deserializer() {
        return (topic, data) -> decode(data);
    }
}
