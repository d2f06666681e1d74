package io.github.kcrawler.scheduler.revisit;

import java.io.IOException;
import java.nio.file.Path;

/**
 * SAT, the fixed-resolution Scheduled-Access-Time organisation that paper 003 improves on (§2.2, Fig. 3; the authors'
 * earlier paper, ref. 5): one write buffer and one bucket file per time unit, b = t'. Records therefore come out
 * exactly on time and the tolerance is irrelevant; the cost is T live buffers for intervals of 1…T units, each too
 * small to batch writes when T is large (§2.3, Fig. 7(b)). Kept as the benchmark's "SAT (linear)" baseline. Same
 * pool, flush policy, indexes and file format as {@link SatlStore} ({@link BucketFileStore}); persistent across a
 * clean close/reopen.
 */
public final class SatStore extends BucketFileStore {
    private static final int KIND = 1;

    private SatStore(Path dir, long startTime, BucketStoreOptions options) throws IOException {
        super(dir, startTime, options);
    }

    /** Opens the store in {@code dir}: reopens a cleanly closed one, else creates an empty one at {@code startTime}. */
    public static SatStore open(Path dir, long startTime, BucketStoreOptions options) throws IOException {
        return new SatStore(dir, startTime, options);
    }

    @Override
    long bucketFor(long now, long at) {
        return at;
    }

    @Override
    int kind() {
        return KIND;
    }
}
