package io.github.kcrawler.ranker.processor;

import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.serde.BinaryCodec;
import io.github.kcrawler.common.serde.JsonSerde;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

import java.util.ArrayList;
import java.util.List;

/**
 * The ranker's page-store value in binary (issue 19, "a compact serde"; ours): the {@code rank-pages} store is read and
 * written for the fetched page and for every receipt of a page, and a JFR profile of {@code bench e2e} (2026-11-29)
 * put a fifth of the ranker thread's samples in Jackson reading {@link RankPage} JSON back from the store, more in
 * writing it (doubles printed in decimal and parsed again). Binary, an unfetched URL's entry is ~25 bytes plus its
 * URL and IP instead of ~100 bytes of JSON plus them, and a double is its 8 bytes, read back bit for bit (JSON's shortest
 * decimal also reads back exactly, so the scores, and {@code IprTopologyTest}'s equality with the single-process
 * {@code IncrementalPageRank}, do not depend on the form). No Kafka but its serde interfaces, no I/O.
 *
 * <p>Layout, format {@link #FORMAT} (high bit set: a JSON value starts with '{'):
 * <pre>
 *   u8      format (0x84)
 *   varint  v, degree; varlong epoch (zig-zag)
 *   i64     score, accumulated (IEEE 754 bits)
 *   u8      flags: 1 fetched, 2 url, 4 ip
 *   string  url?, ip?              (varint byte length, then UTF-8)
 *   varint  outlink count, then per outlink: u8 flags (1 url, 2 ip), i64 fingerprint, string url?, string ip?
 * </pre>
 *
 * <p>Values of the earlier JSON form (a changelog written before) are still read, so no migration is needed. A value
 * that is neither fails with a {@link SerializationException}, as a corrupt JSON value did. Invariant (held by
 * {@code RankPageCodecTest}): {@code decode(encode(p)).equals(p)} for every page whose strings are valid UTF-16.
 */
public final class RankPageCodec {
    /** The format byte of this layout. */
    public static final byte FORMAT = (byte) 0x84;
    private static final int FETCHED = 1;
    private static final int URL = 2;
    private static final int IP = 4;
    private static final int LINK_URL = 1;
    private static final int LINK_IP = 2;
    /** The earlier form, still read. */
    private static final JsonSerde<RankPage> JSON = JsonSerde.of(RankPage.class);
    /** The store's serde: writes binary, reads either form. */
    public static final Serde<RankPage> SERDE = Serdes.serdeFrom((topic, p) -> p == null ? null : encode(p),
            (topic, data) -> data == null ? null : decode(data));

    private RankPageCodec() {
    }

    /** The binary value of {@code p}. */
    public static byte[] encode(RankPage p) {
        int size = 40 + length(p.url()) + length(p.ip());
        for (LinkList.Link l : p.outlinks()) {
            size += 12 + length(l.url()) + length(l.ip());
        }
        BinaryCodec.Writer w = new BinaryCodec.Writer(size);
        w.u8(FORMAT);
        w.varlong(p.v());
        w.varlong(p.degree());
        w.varlong(p.epoch());
        w.i64(Double.doubleToRawLongBits(p.score()));
        w.i64(Double.doubleToRawLongBits(p.accumulated()));
        w.u8((p.fetched() ? FETCHED : 0) | (p.url() != null ? URL : 0) | (p.ip() != null ? IP : 0));
        if (p.url() != null) {
            w.string(p.url());
        }
        if (p.ip() != null) {
            w.string(p.ip());
        }
        w.varlong(p.outlinks().size());
        for (LinkList.Link l : p.outlinks()) {
            w.u8((l.url() != null ? LINK_URL : 0) | (l.ip() != null ? LINK_IP : 0));
            w.i64(l.fingerprint());
            if (l.url() != null) {
                w.string(l.url());
            }
            if (l.ip() != null) {
                w.string(l.ip());
            }
        }
        return w.toByteArray();
    }

    /**
     * The page in {@code value}, binary or JSON.
     *
     * @throws SerializationException when {@code value} is neither
     */
    public static RankPage decode(byte[] value) {
        if (value.length == 0 || value[0] != FORMAT) {
            return JSON.deserialize(null, value); // the earlier form; throws SerializationException if not JSON
        }
        BinaryCodec.Reader r = new BinaryCodec.Reader(value, 1, value.length);
        int v = r.varint();
        int degree = r.varint();
        long epoch = r.varlong();
        double score = Double.longBitsToDouble(r.i64());
        double accumulated = Double.longBitsToDouble(r.i64());
        int flags = r.u8();
        if (r.problem() == null && (flags & ~(FETCHED | URL | IP)) != 0) {
            r.fail(BinaryCodec.Problem.MALFORMED);
        }
        String url = (flags & URL) != 0 ? r.string() : null;
        String ip = (flags & IP) != 0 ? r.string() : null;
        int count = r.varint();
        // every outlink takes at least 9 bytes: a count beyond what is left is corrupt, not an allocation to make
        if (r.problem() == null && (count < 0 || count > (value.length - r.position()) / 9)) {
            r.fail(BinaryCodec.Problem.MALFORMED);
        }
        List<LinkList.Link> outlinks = r.problem() == null ? new ArrayList<>(count) : List.of();
        for (int i = 0; i < count && r.problem() == null; i++) {
            int linkFlags = r.u8();
            if (r.problem() == null && (linkFlags & ~(LINK_URL | LINK_IP)) != 0) {
                r.fail(BinaryCodec.Problem.MALFORMED);
            }
            long fingerprint = r.i64();
            String linkUrl = (linkFlags & LINK_URL) != 0 ? r.string() : null;
            String linkIp = (linkFlags & LINK_IP) != 0 ? r.string() : null;
            outlinks.add(new LinkList.Link(linkUrl, fingerprint, linkIp));
        }
        BinaryCodec.Problem problem = r.finish();
        if (problem != null) {
            throw new SerializationException("not a rank page: " + problem + " (" + value.length + " bytes)");
        }
        return new RankPage(v, url, ip, score, accumulated, (flags & FETCHED) != 0, degree, outlinks, epoch);
    }

    private static int length(String s) {
        return s == null ? 0 : 3 * s.length() + 5;
    }
}
