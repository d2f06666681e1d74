package io.github.kcrawler.scheduler.revisit;

import java.io.IOException;
import java.nio.file.Path;

/**
 * SAT/L, the Scheduled-Access-Time organisation with variable time resolution of paper 003 (Tamura &amp; Kitsuregawa,
 * "多周期的 Web クローリングにおける時間分解能向上手法", {@code ../shared/seeds/003_c53e4199b90a7af9.txt}, §3).
 *
 * <p>What it is for: per-page crawl state lives inside the revisit queue, clustered on disk by the time it will next
 * be needed, so each tick reads one bucket sequentially instead of doing a random read-modify-write per page. SAT
 * ({@link SatStore}) needs one write buffer per time unit — 576,000 for 1 minute … 400 days — and the buffers become
 * too small to batch writes. SAT/L gives far-future times a coarse resolution, so the number of live buffers grows
 * with the logarithm of the interval range instead (paper Table 1; {@code SatlBench} counts them).
 *
 * <p>Placement (eqs. (1)–(2) with DESIGN.md §4.4's correction, see {@link SatlBuckets}): at time t, a record for
 * t' goes to bucket b = ⌊t'/τ⌋·τ with τ = ⌈exp(⌈ln(t' − t)⌉)/12⌉ — a <em>floor</em>, so t &lt; b ≤ t'. When bucket b
 * is processed, a record with t' &gt; now + e (tolerance e) is re-queued at t' (now nearer, so with a finer τ);
 * with e = 0 every record comes out exactly at t' (the paper's "strict timing", §4.5), with e = ∞ at b, up to τ − 1
 * units early (the paper's default runs).
 *
 * <p>Ours: an early fraction φ ({@link BucketStoreOptions#earlyFraction()}, 0 = the paper). The absolute e treats a
 * record due in a year like one due in a minute. With φ, a record placed d units ahead whose bucket lies within
 * ⌊φ·d⌋ of its true time is marked, at placement, to come out of that bucket — up to ⌊φ·d⌋ units early instead of
 * being re-queued into ever finer buckets. Each re-queue is one more append, and the records re-queued near their
 * time are the ones that fill the write buffers: at a high revisit rate those no longer fit and spill to the bucket
 * files, which is what the bytes written per revisit are made of ({@code bench revisits}). A marked record is the
 * only kind that comes out early by more than e; one that is not marked is re-queued as in the paper, with its
 * allowance computed again from its new, smaller distance. So a record is never early by more than
 * max(e, ⌊φ·d⌋) for the d it was scheduled with ({@link #earliest}). The cost: revisits a little early — a fraction
 * of the interval, never of the whole, measured as the mean early fraction by {@code bench revisits}.
 *
 * <p>Everything else — the shared free-page pool, flushing in time order with small buffers left for later, the
 * sequence and bucket indexes for key-based update/delete, the file format — is in {@link BucketFileStore}.
 * Persistent across a clean close/reopen.
 */
public final class SatlStore extends BucketFileStore {
    private static final int KIND = 2;

    private SatlStore(Path dir, long startTime, BucketStoreOptions options) throws IOException {
        super(dir, startTime, options);
    }

    /** Opens the store in {@code dir}: reopens a cleanly closed one, else creates an empty one at {@code startTime}. */
    public static SatlStore open(Path dir, long startTime, BucketStoreOptions options) throws IOException {
        return new SatlStore(dir, startTime, options);
    }

    @Override
    long bucketFor(long now, long at) {
        return SatlBuckets.bucket(now, at);
    }

    @Override
    long earlyAllowance(long now, long at) {
        return (long) Math.floor(options().earlyFraction() * (at - now));
    }

    @Override
    int kind() {
        return KIND;
    }
}
