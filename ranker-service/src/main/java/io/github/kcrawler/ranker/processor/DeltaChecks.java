package io.github.kcrawler.ranker.processor;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.RankDelta;
import io.github.kcrawler.common.model.RankDeltaBatch;
import io.github.kcrawler.common.model.RankScore;
import io.github.kcrawler.common.serde.BadRecord;

/**
 * Checks of the ranker's own record formats as they come back from {@code crawl.rank.deltas}, and the size
 * estimates and limits for the batches it writes. A batch that fails is skipped whole; an entry that fails is
 * counted and the rest of its batch is used.
 */
public final class DeltaChecks {
    /** Most entries in one written batch. */
    public static final int MAX_BATCH_ENTRIES = 5_000;
    /** Most estimated bytes in one written batch: well below Kafka's default 1 MiB record limit. */
    public static final long MAX_BATCH_BYTES = 512 * 1024;

    private DeltaChecks() {
    }

    /** Returns why the batch cannot be used at all, or null if its entries can be looked at. */
    public static BadRecord validate(RankDeltaBatch batch) {
        if (batch.v() != RankDeltaBatch.VERSION) {
            return BadRecord.UNSUPPORTED_VERSION;
        }
        if (batch.deltas() == null || batch.deltas().size() > RankDeltaBatch.MAX_ENTRIES) {
            return BadRecord.MALFORMED;
        }
        return null;
    }

    /** Returns why the entry cannot be used, or null if it can. */
    public static BadRecord validate(RankDelta d) {
        if (d == null) {
            return BadRecord.MALFORMED;
        }
        if (d.url() == null || d.url().isBlank()) {
            return BadRecord.BLANK_URL;
        }
        if (d.ip() == null || d.ip().isBlank()) {
            return BadRecord.MISSING_KEY;
        }
        if (Fingerprints.url(d.url()) != d.fingerprint()) {
            return BadRecord.FINGERPRINT_MISMATCH;
        }
        if (!Double.isFinite(d.amount())) {
            return BadRecord.INVALID_AMOUNT;
        }
        if (d.depth() < 1) {
            return BadRecord.MALFORMED;
        }
        return null;
    }

    /** Estimated JSON size of a delta entry. */
    public static int size(String url, String ip) {
        return url.length() + ip.length() + 96;
    }

    /** Estimated JSON size of a score entry. */
    public static int size(RankScore s) {
        return s.url().length() + s.ip().length() + 80;
    }
}
