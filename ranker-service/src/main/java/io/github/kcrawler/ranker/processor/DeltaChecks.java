package io.github.kcrawler.ranker.processor;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.model.RankDelta;
import io.github.kcrawler.common.model.RankDeltaBatch;
import io.github.kcrawler.common.model.RankScore;
import io.github.kcrawler.common.serde.BadRecord;

/**
 * Checks of the ranker's input records — the fetcher's link lists from {@code crawl.links} and the ranker's own
 * batches as they come back from {@code crawl.rank.deltas} — and the size estimates and limits for the batches it
 * writes. A list or batch that fails is skipped whole; an outlink or entry that fails is counted and the rest of its
 * list or batch is used.
 */
public final class DeltaChecks {
    /** Most entries in one written batch. */
    public static final int MAX_BATCH_ENTRIES = 5_000;
    /** Most estimated bytes in one written batch: well below Kafka's default 1 MiB record limit. */
    public static final long MAX_BATCH_BYTES = 512 * 1024;

    private DeltaChecks() {
    }

    /** Returns why the link list cannot be used at all, or null if its outlinks can be looked at. */
    public static BadRecord validate(LinkList links) {
        if (links.v() < 1 || links.v() > LinkList.VERSION) {
            return BadRecord.UNSUPPORTED_VERSION;
        }
        if (links.source() == null || links.source().isBlank()) {
            return BadRecord.BLANK_URL;
        }
        if (Fingerprints.url(links.source()) != links.sourceFingerprint()) {
            return BadRecord.FINGERPRINT_MISMATCH;
        }
        return null;
    }

    /** True if the outlink names a URL, its IP and the URL's own fingerprint. */
    public static boolean isValid(LinkList.Link link) {
        return link != null && link.url() != null && !link.url().isBlank() && link.ip() != null
                && !link.ip().isBlank() && Fingerprints.url(link.url()) == link.fingerprint();
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
