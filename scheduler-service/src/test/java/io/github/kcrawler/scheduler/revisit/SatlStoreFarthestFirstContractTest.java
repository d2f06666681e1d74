package io.github.kcrawler.scheduler.revisit;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The whole queue contract again with our flush order, and what it is for: fewer bytes written, same deliveries. */
class SatlStoreFarthestFirstContractTest extends RevisitQueueContractTest {
    @Override
    RevisitQueue open(Path dir, long startTime, long tolerance, long bufferBytes) throws IOException {
        return SatlStore.open(dir, startTime, options(bufferBytes, tolerance, FlushOrder.FARTHEST_FIRST));
    }

    @Override
    long toleranceUnderTest() {
        return 25;
    }

    private static BucketStoreOptions options(long bufferBytes, long tolerance, FlushOrder order) {
        return new BucketStoreOptions(bufferBytes, tolerance, false, order);
    }

    /**
     * A steady revisit load (each delivered record comes back at now + its interval, intervals 8..60 units, strict
     * timing), with a pool that holds about a third of the records: both orders deliver the same records at the same
     * times, and farthest-first writes fewer bytes, because the records re-queued into the near, fine buckets stay in
     * memory until those buckets are processed.
     */
    @Test
    void farthestFirst_deliversExactlyAsTimeOrder_andWritesLess() throws IOException {
        long seed = new SplittableRandom().nextLong();
        System.out.println("farthestFirst_deliversExactlyAsTimeOrder_andWritesLess seed=" + seed);
        Run paper = steadyLoad(dir.resolve("time"), FlushOrder.TIME_ORDER, seed);
        Run ours = steadyLoad(dir.resolve("farthest"), FlushOrder.FARTHEST_FIRST, seed);
        System.out.printf("bytes written: time order %,d, farthest first %,d (%.2f), %,d deliveries%n",
                paper.bytesWritten, ours.bytesWritten, (double) ours.bytesWritten / paper.bytesWritten,
                paper.deliveries.size());
        assertThat(ours.deliveries).as("seed %d", seed).isEqualTo(paper.deliveries);
        assertThat(paper.deliveries.size()).isGreaterThan(20_000);
        assertThat(paper.bytesWritten).as("the pool must spill for the comparison to mean anything").isPositive();
        assertThat(ours.bytesWritten).as("seed %d: farthest-first %d bytes against time order %d", seed,
                ours.bytesWritten, paper.bytesWritten).isLessThan(paper.bytesWritten * 3 / 4);
    }

    private record Run(List<Long> deliveries, long bytesWritten) {
    }

    private static Run steadyLoad(Path dir, FlushOrder order, long seed) throws IOException {
        int pages = 3_000;
        byte[] record = new byte[150];
        List<Long> deliveries = new ArrayList<>();
        try (SatlStore q = SatlStore.open(dir, 0, options(64 * 4096, 0, order))) {
            SplittableRandom rnd = new SplittableRandom(seed);
            long[] interval = new long[pages];
            for (int k = 0; k < pages; k++) {
                interval[k] = 8 + rnd.nextInt(53);
                q.schedule(k, 1 + rnd.nextInt((int) interval[k]), record);
            }
            for (long now = 1; now <= 600; now++) {
                final long t = now;
                List<long[]> due = new ArrayList<>();
                q.poll(now, (key, at, r, len) -> {
                    assertThat(at).isEqualTo(t);
                    deliveries.add(key * 1_000 + at);
                    due.add(new long[]{key, at});
                });
                for (long[] d : due) {
                    q.schedule(d[0], t + interval[(int) d[0]], record);
                }
            }
            deliveries.sort(null); // within one poll the order may differ; (key, time) pairs must not
            return new Run(deliveries, q.bytesWritten());
        }
    }
}
