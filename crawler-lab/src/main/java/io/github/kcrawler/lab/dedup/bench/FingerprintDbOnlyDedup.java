package io.github.kcrawler.lab.dedup.bench;

import io.github.kcrawler.dedup.content.ContentFingerprintDb;
import io.github.kcrawler.dedup.content.ContentRecord;

/**
 * Seed 001's baseline (§2.1, Fig. 1), the "MD5 fingerprint DB only" dedup: every item reads the DB; found →
 * refCount + 1 written back (duplicate), absent → {fp, refCount 1} stored (new). Same record format as
 * {@link io.github.kcrawler.dedup.content.ImpCbFilter} but with no positions (k = 0), so its values are 6 bytes against
 * IMP-CB's 38: if anything the baseline writes less. For the benchmark only.
 */
public final class FingerprintDbOnlyDedup {
    private final ContentFingerprintDb db;
    private final byte[] buf = new byte[ContentRecord.MAX_LENGTH + 1];
    private long dbReads;
    private long duplicates;

    public FingerprintDbOnlyDedup(ContentFingerprintDb db) {
        this.db = db;
    }

    /** Adds one reference; returns true when the fingerprint was already stored (a duplicate). */
    public boolean add(long hi, long lo) {
        dbReads++;
        int len = db.get(hi, lo, buf);
        if (len != ContentFingerprintDb.NOT_FOUND && ContentRecord.isValid(buf, len, 0, 0)) {
            int rc = ContentRecord.refCount(buf);
            if (rc < Integer.MAX_VALUE) {
                ContentRecord.writeRefCount(buf, rc + 1);
                db.put(hi, lo, buf, len);
            }
            duplicates++;
            return true;
        }
        db.put(hi, lo, buf, ContentRecord.encode(buf, 1, null, 0));
        return false;
    }

    public long dbReads() {
        return dbReads;
    }

    public long duplicates() {
        return duplicates;
    }
}
