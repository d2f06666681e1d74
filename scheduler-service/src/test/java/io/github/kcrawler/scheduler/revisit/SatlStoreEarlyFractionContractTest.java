package io.github.kcrawler.scheduler.revisit;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole queue contract again with our early fraction (the default in the crawler, {@code
 * revisit-early-fraction}), where "early by at most" is {@link RevisitQueue#earliest}; and what it is for: fewer
 * re-queues, so fewer bytes written, for revisits early by at most that fraction of the distance.
 */
class SatlStoreEarlyFractionContractTest extends RevisitQueueContractTest {
    private static final double PHI = SatlBuckets.S;

    @Override
    RevisitQueue open(Path dir, long startTime, long tolerance, long bufferBytes) throws IOException {
        return SatlStore.open(dir, startTime, options(bufferBytes, tolerance, PHI));
    }

    @Override
    long toleranceUnderTest() {
        return 25;
    }

    private static BucketStoreOptions options(long bufferBytes, long tolerance, double phi) {
        return new BucketStoreOptions(bufferBytes, tolerance, false, FlushOrder.FARTHEST_FIRST, phi);
    }

    @Test
    void earliest_isTheLargerOfToleranceAndTheFractionOfTheDistance() throws IOException {
        try (SatlStore q = SatlStore.open(dir, 0, options(64 * 4096, 3, PHI))) {
            assertThat(q.earliest(100, 1_300)).isEqualTo(1_300 - 100); // ⌊1,200 / 12⌋ = 100 > 3
            assertThat(q.earliest(100, 130)).isEqualTo(130 - 3);       // ⌊30 / 12⌋ = 2 < 3
            assertThat(q.earliest(100, 100)).isEqualTo(100 - 3);
        }
        try (SatlStore strict = SatlStore.open(dir.resolve("strict"), 0, options(64 * 4096, 0, 0))) {
            assertThat(strict.earliest(100, 1_300)).isEqualTo(1_300);
        }
    }

    /**
     * A steady revisit load (each delivered record comes back at now + its interval, intervals 10..3,600 units
     * log-uniform, 175-byte records) through a pool that holds a fraction of them: with φ = 1/12 every delivery is
     * within ⌊φ · interval⌋ of its time, the mean earliness is a small part of φ, and the store writes clearly fewer
     * bytes than with strict timing (one run: 0.68×, BENCHMARKS.md), because fewer records are re-queued into the
     * near buckets that overflow the pool.
     */
    @Test
    void earlyFraction_boundsEarliness_andWritesLessThanStrictTiming() throws IOException {
        long seed = new SplittableRandom().nextLong();
        System.out.println("earlyFraction_boundsEarliness_andWritesLessThanStrictTiming seed=" + seed);
        Load strict = steadyLoad(dir.resolve("strict"), 0, seed);
        Load ours = steadyLoad(dir.resolve("early"), PHI, seed);
        System.out.printf("seed %d: bytes written strict %,d, early fraction %,d (%.2f); deliveries %,d vs %,d; "
                        + "mean early fraction %.4f, largest %.4f%n", seed, strict.bytesWritten, ours.bytesWritten,
                (double) ours.bytesWritten / strict.bytesWritten, strict.deliveries, ours.deliveries,
                ours.earlySum / ours.deliveries, ours.earliestFraction);
        assertThat(strict.earlySum).as("strict timing is never early").isZero();
        assertThat(strict.bytesWritten).as("the pool must spill for the comparison to mean anything").isPositive();
        assertThat(ours.earliestFraction).as("seed %d", seed).isLessThanOrEqualTo(PHI);
        assertThat(ours.earlySum / ours.deliveries).as("seed %d: mean early fraction", seed).isLessThan(PHI / 2);
        assertThat(ours.bytesWritten).as("seed %d: early fraction %d bytes against strict %d", seed,
                ours.bytesWritten, strict.bytesWritten).isLessThan(strict.bytesWritten * 9 / 10);
    }

    private static final class Load {
        long deliveries;
        double earlySum;
        double earliestFraction;
        long bytesWritten;
    }

    private static Load steadyLoad(Path dir, double phi, long seed) throws IOException {
        int pages = 20_000;
        byte[] record = new byte[175];
        long[] interval = new long[pages];
        long[] due = new long[pages];
        Load load = new Load();
        try (SatlStore q = SatlStore.open(dir, 0, options(96 * 4096, 0, phi))) {
            SplittableRandom rnd = new SplittableRandom(seed);
            for (int k = 0; k < pages; k++) {
                interval[k] = (long) Math.exp(Math.log(10) + rnd.nextDouble() * Math.log(360));
                q.schedule(k, 1 + rnd.nextLong(interval[k]), record);
            }
            long[] got = new long[pages];
            for (long now = 1; now <= 6_000; now++) {
                final long t = now;
                int[] n = {0};
                q.poll(now, (key, at, r, len) -> {
                    got[n[0]++] = key;
                    double early = (double) (at - t) / interval[(int) key];
                    load.deliveries++;
                    load.earlySum += early;
                    load.earliestFraction = Math.max(load.earliestFraction, early);
                });
                for (int i = 0; i < n[0]; i++) {
                    int k = (int) got[i];
                    due[k] = t + interval[k];
                    q.schedule(k, due[k], record);
                }
            }
            load.bytesWritten = q.bytesWritten();
            return load;
        }
    }
}
