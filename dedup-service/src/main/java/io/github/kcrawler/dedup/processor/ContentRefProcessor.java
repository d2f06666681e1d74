package io.github.kcrawler.dedup.processor;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.ContentRef;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.common.serde.Decoded;
import io.github.kcrawler.common.serde.InputCheck;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * First half of content-duplicate detection, on the URL's partition (key: host IP): remembers which body each URL
 * holds (store: URL fingerprint → content hash) and turns a change into references keyed by the body's fingerprint,
 * for {@link ContentDedupProcessor} on the partition owning that body.
 * <ul>
 *   <li>A 2xx result with a body whose hash differs from the URL's last one: {@code ADD} the new body and, if the URL
 *   held another, {@code REMOVE} the old one (a revisit that found the page changed).</li>
 *   <li>A 404 or 410: the page is gone; {@code REMOVE} the body it held.</li>
 *   <li>Anything else (same body again, redirects, errors) changes nothing, so a result delivered twice by the
 *   at-least-once fetcher never counts twice.</li>
 * </ul>
 */
public final class ContentRefProcessor implements Processor<String, Decoded<FetchResult>, String, ContentRef> {
    private static final byte VALUE_VERSION = 1;

    private final String storeName;
    private final ContentMetrics metrics;
    private ProcessorContext<String, ContentRef> context;
    private KeyValueStore<Bytes, byte[]> bodies;

    public ContentRefProcessor(String storeName, ContentMetrics metrics) {
        this.storeName = Objects.requireNonNull(storeName, "storeName");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    @Override
    public void init(ProcessorContext<String, ContentRef> context) {
        this.context = context;
        this.bodies = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<String, Decoded<FetchResult>> record) {
        Decoded<FetchResult> decoded = record.value();
        FetchResult r = InputCheck.usable(record, context, true, metrics::bad);
        if (r == null) {
            return;
        }
        if (r.v() < 1 || r.v() > FetchResult.VERSION) {
            metrics.bad(decoded.topic(), BadRecord.UNSUPPORTED_VERSION);
            return;
        }
        if (r.url() == null || r.url().isBlank() || Fingerprints.url(r.url()) != r.fingerprint()) {
            metrics.bad(decoded.topic(), BadRecord.FINGERPRINT_MISMATCH);
            return;
        }
        boolean gone = r.status() == 404 || r.status() == 410;
        boolean body = r.outcome() == FetchOutcome.OK && r.status() >= 200 && r.status() < 300
                && r.contentHash() != null;
        if (!gone && !body) {
            return;
        }
        if (body && !ContentDedupProcessor.isHash(r.contentHash())) {
            metrics.bad(decoded.topic(), BadRecord.MALFORMED);
            return;
        }
        Bytes key = urlKey(r.fingerprint());
        String old = decode(bodies.get(key));
        if (body) {
            String hash = r.contentHash().toLowerCase(java.util.Locale.ROOT);
            if (hash.equals(old)) {
                return;
            }
            bodies.put(key, encode(hash));
            send(record, ContentRef.Op.ADD, hash, r);
        } else {
            bodies.delete(key);
        }
        if (old != null) {
            send(record, ContentRef.Op.REMOVE, old, r);
        }
    }

    private void send(Record<String, Decoded<FetchResult>> record, ContentRef.Op op, String hash, FetchResult r) {
        context.forward(new Record<>(hash, ContentRef.of(op, hash, r.url(), r.fingerprint(), record.key()),
                record.timestamp()));
    }

    static Bytes urlKey(long fingerprint) {
        return Bytes.wrap(ByteBuffer.allocate(Long.BYTES).putLong(fingerprint).array());
    }

    /** Store value: format version byte, then the 32 ASCII hex digits. */
    static byte[] encode(String hash) {
        byte[] h = hash.getBytes(StandardCharsets.US_ASCII);
        byte[] v = new byte[1 + h.length];
        v[0] = VALUE_VERSION;
        System.arraycopy(h, 0, v, 1, h.length);
        return v;
    }

    static String decode(byte[] v) {
        if (v == null || v.length < 2 || v[0] != VALUE_VERSION) {
            return null;
        }
        return new String(v, 1, v.length - 1, StandardCharsets.US_ASCII);
    }
}
