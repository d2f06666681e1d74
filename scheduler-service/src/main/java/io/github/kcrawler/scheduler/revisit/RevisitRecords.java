package io.github.kcrawler.scheduler.revisit;

/**
 * Makes a page's {@link RevisitState} fit a SAT/L record (defence in depth, issue 20): a bucket page holds records
 * of at most {@link BucketFileStore#MAX_RECORD_BYTES}, and {@code BucketFileStore.schedule} refuses larger ones. The
 * fetcher bounds the validators it keeps (ETag, Last-Modified), but a result from an older fetcher or another
 * producer may not, and a stream thread that throws on such a record replays it forever. So an oversized state
 * first loses its validators (the page's next revisit is an unconditional GET: a validator cut short would be a
 * different validator), then its content hash (the next fetch counts as a change); only a state that still does
 * not fit — its URL alone is too long for a record — cannot be revisited. No Kafka, no I/O.
 *
 * <p>Invariant (asserted): {@link Fitted#bytes()} is null exactly when {@link Fit#TOO_LARGE}, and otherwise is
 * the serialised {@link Fitted#state()} and no longer than the limit.
 */
public final class RevisitRecords {
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
        byte[] b = serialize(s);
        if (b.length <= maxBytes) {
            return new Fitted(s, b, Fit.AS_IS);
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

    /** {@link #fit(RevisitState, int)} with the SAT/L record limit. */
    public static Fitted fit(RevisitState s) {
        Fitted f = fit(s, BucketFileStore.MAX_RECORD_BYTES);
        assert (f.bytes() == null) == (f.fit() == Fit.TOO_LARGE)
                && (f.bytes() == null || f.bytes().length <= BucketFileStore.MAX_RECORD_BYTES);
        return f;
    }

    private static byte[] serialize(RevisitState s) {
        return RevisitState.SERDE.serializer().serialize(null, s);
    }

    private static RevisitState with(RevisitState s, String etag, String lastModified, String contentHash) {
        return new RevisitState(s.v(), s.url(), s.fingerprint(), s.ip(), s.depth(), etag, lastModified, contentHash,
                s.visits(), s.changes(), s.observedUnits(), s.intervalUnits(), s.lastFetchedMs(), s.dueUnit());
    }
}
