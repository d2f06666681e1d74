package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.AdmittedUrls;
import io.github.kcrawler.common.model.RankScore;
import io.github.kcrawler.common.model.RankScoreBatch;
import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.scheduler.politeness.Spill;

/**
 * Checks of the scheduler's input records (admitted URLs and rank scores) before they reach the frontier: each says
 * why a record or entry cannot be used (a {@link BadRecord} reason, counted by the processor) or null. A record that
 * fails is skipped whole; an entry that fails is counted and the rest of its record is used.
 */
final class InputChecks {
    /** Longest key accepted as an IP: an IPv6 address with a zone id fits easily; anything longer is junk. */
    static final int MAX_IP_LENGTH = 64;

    private InputChecks() {
    }

    /** An IP key the frontier can take: not blank, bounded, not in the spill's key space (no IP starts with '~'). */
    static boolean usableIp(String ip) {
        return ip != null && !ip.isBlank() && ip.length() <= MAX_IP_LENGTH && ip.charAt(0) != Spill.PREFIX;
    }

    /** Returns why the admitted entry cannot be used, or null if it can. */
    static BadRecord validate(AdmittedUrls.Entry a) {
        if (a.url() == null || a.url().isBlank()) {
            return BadRecord.BLANK_URL;
        }
        if (Fingerprints.url(a.url()) != a.fingerprint()) {
            return BadRecord.FINGERPRINT_MISMATCH; // a forget for it would make dedup forget some other URL
        }
        return null;
    }

    /** Returns why none of the batch's scores can be used, or null if its entries can be looked at. */
    static BadRecord validate(RankScoreBatch b) {
        if (b.v() != RankScoreBatch.VERSION) {
            return BadRecord.UNSUPPORTED_VERSION; // also a format-1 record of a single score
        }
        if (b.scores() == null || b.scores().size() > RankScoreBatch.MAX_ENTRIES) {
            return BadRecord.MALFORMED;
        }
        return null;
    }

    /** Returns why the score cannot be used, or null if it can. Matched by fingerprint; the URL is optional. */
    static BadRecord validate(RankScore s) {
        if (s == null) {
            return BadRecord.MALFORMED;
        }
        if (!Double.isFinite(s.score())) {
            return BadRecord.INVALID_AMOUNT;
        }
        if (s.url() != null && !s.url().isBlank() && Fingerprints.url(s.url()) != s.fingerprint()) {
            return BadRecord.FINGERPRINT_MISMATCH;
        }
        return null;
    }
}
