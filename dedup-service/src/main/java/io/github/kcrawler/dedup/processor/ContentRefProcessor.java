package io.github.kcrawler.dedup.processor;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.ContentRef;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.RevisitMemo;
import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.common.serde.Decoded;
import io.github.kcrawler.common.serde.InputCheck;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

import java.util.Locale;
import java.util.Objects;

/**
 * First half of content-duplicate detection, on the URL's partition (key: host IP): turns a result that changes the
 * body a URL holds into references keyed by the body's fingerprint, for {@link ContentDedupProcessor} on the
 * partition owning that body. The body the URL held before is the one its revisit state names: a revisit request
 * carries that state (its {@link RevisitMemo}, with the body's hash) and the fetcher echoes it into the result; a
 * first fetch held none. So this step keeps no state of its own (ours, issue 19: before, a store of URL → body hash
 * repeated what the scheduler's revisit state holds, at one changelog record per page).
 * <ul>
 *   <li>A 2xx result with a body whose hash differs from the one its memo names: {@code ADD} the new body and, if
 *   the memo named another, {@code REMOVE} that one (a revisit that found the page changed).</li>
 *   <li>A 404 or 410: the page is gone; {@code REMOVE} the body its memo names.</li>
 *   <li>Anything else (the same body again, redirects, errors, a 304) changes nothing; the scheduler's revisit state
 *   keeps naming the body held, as this step assumed.</li>
 * </ul>
 * Invariant: each URL holds at most one reference, to the body its revisit state names. It rests on each fetch
 * having exactly one committed result: the fetcher commits a request's results and its offset in one transaction,
 * and the scheduler releases each revisit once per result. A result without a memo for a page fetched before (one
 * written before revisit requests carried it; {@code revisit=false} never revisits) cannot give back the body it
 * held: that reference stays counted.
 */
public final class ContentRefProcessor implements Processor<String, Decoded<FetchResult>, String, ContentRef> {
    private final ContentMetrics metrics;
    private ProcessorContext<String, ContentRef> context;

    public ContentRefProcessor(ContentMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    @Override
    public void init(ProcessorContext<String, ContentRef> context) {
        this.context = context;
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
        String old = held(r.revisit());
        if (body && !ContentDedupProcessor.isHash(r.contentHash())) {
            metrics.bad(decoded.topic(), BadRecord.MALFORMED);
            if (old != null) { // the revisit state now names this unusable hash: the old body is not held any more
                send(record, ContentRef.Op.REMOVE, old, r);
            }
            return;
        }
        if (body) {
            String hash = r.contentHash().toLowerCase(Locale.ROOT);
            if (hash.equals(old)) {
                return;
            }
            send(record, ContentRef.Op.ADD, hash, r);
        }
        if (old != null) {
            send(record, ContentRef.Op.REMOVE, old, r);
        }
    }

    /** The body the result's revisit memo names, lower case; null when there is none (or it is not a hash). */
    static String held(RevisitMemo memo) {
        String h = memo == null ? null : memo.contentHash();
        return h != null && ContentDedupProcessor.isHash(h) ? h.toLowerCase(Locale.ROOT) : null;
    }

    private void send(Record<String, Decoded<FetchResult>> record, ContentRef.Op op, String hash, FetchResult r) {
        context.forward(new Record<>(hash, ContentRef.of(op, hash, r.url(), r.fingerprint(), record.key()),
                record.timestamp()));
    }
}
