package io.github.kcrawler.scheduler.revisit;

/**
 * Settings of the bucket-file stores ({@link SatlStore}, {@link SatStore}).
 *
 * @param bufferBytes total write-buffer memory: the shared free-page pool, in 4 KiB pages (at least 8 pages)
 * @param tolerance   e of paper 003 §3: how many units early a record may be delivered; SAT/L re-queues a record
 *                    found in a bucket more than e units before its true time (0 = strict timing; SAT is always
 *                    exact and ignores it)
 * @param directIo    open bucket files with O_DIRECT (com.sun.nio.file.ExtendedOpenOption.DIRECT) so that the
 *                    page cache neither hides nor absorbs the I/O; needs a file system that supports it (not tmpfs)
 * @param flushOrder  which write buffers go to disk first when the free-page pool runs dry
 * @param earlyFraction ours, SAT/L only (SAT is exact): a record placed d units ahead may also come out up to
 *                    ⌊earlyFraction · d⌋ units early, decided once at placement: if its bucket is that close to its
 *                    true time, it is delivered from that bucket instead of being re-queued into finer ones. In
 *                    [0, 1); 0 is the paper's rule (the absolute tolerance alone). See {@link SatlStore}.
 */
public record BucketStoreOptions(long bufferBytes, long tolerance, boolean directIo, FlushOrder flushOrder,
                                 double earlyFraction) {
    public static final long DEFAULT_BUFFER_BYTES = 32L << 20;
    public static final long MIN_BUFFER_BYTES = 8L * PagePool.PAGE_SIZE;

    public BucketStoreOptions {
        if (bufferBytes < MIN_BUFFER_BYTES) {
            throw new IllegalArgumentException("buffer bytes must be >= " + MIN_BUFFER_BYTES + ", was " + bufferBytes);
        }
        if (bufferBytes / PagePool.PAGE_SIZE > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("buffer bytes too large, was " + bufferBytes);
        }
        if (tolerance < 0) {
            throw new IllegalArgumentException("tolerance must be >= 0, was " + tolerance);
        }
        if (flushOrder == null) {
            throw new IllegalArgumentException("flush order must not be null");
        }
        if (!(earlyFraction >= 0 && earlyFraction < 1)) {
            throw new IllegalArgumentException("early fraction must be in [0, 1), was " + earlyFraction);
        }
    }

    /** Without an early fraction (the paper's tolerance alone). */
    public BucketStoreOptions(long bufferBytes, long tolerance, boolean directIo, FlushOrder flushOrder) {
        this(bufferBytes, tolerance, directIo, flushOrder, 0);
    }

    /** Paper 003's flush order ({@link FlushOrder#TIME_ORDER}). */
    public BucketStoreOptions(long bufferBytes, long tolerance, boolean directIo) {
        this(bufferBytes, tolerance, directIo, FlushOrder.TIME_ORDER);
    }

    /** 32 MiB of buffers, strict timing, buffered I/O. */
    public static BucketStoreOptions defaults() {
        return new BucketStoreOptions(DEFAULT_BUFFER_BYTES, 0, false);
    }
}
