package io.github.kcrawler.scheduler.revisit;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SatlStoreContractTest extends RevisitQueueContractTest {
    @Override
    RevisitQueue open(Path dir, long startTime, long tolerance, long bufferBytes) throws IOException {
        return SatlStore.open(dir, startTime, new BucketStoreOptions(bufferBytes, tolerance, false));
    }

    @Override
    long toleranceUnderTest() {
        return 25;
    }

    @Test
    void placesRecordsByTheFlooredFormula_andNeverInThePast() throws IOException {
        try (SatlStore q = SatlStore.open(dir, 1_000, new BucketStoreOptions(64 * 4096, 0, false))) {
            long[] distances = {1, 2, 3, 7, 8, 20, 21, 55, 148, 403, 1_000, 9_600, 100_000, 576_000};
            for (long d : distances) {
                long at = 1_000 + d;
                q.schedule(d, at, new byte[10]);
                long tau = (long) Math.ceil(Math.exp(Math.ceil(Math.log(d))) / 12.0);
                assertThat(q.bucketOf(d)).as("bucket of d=%d", d).isEqualTo(Math.floorDiv(at, tau) * tau)
                        .isGreaterThan(1_000).isLessThanOrEqualTo(at);
            }
            assertThat(SatlBuckets.tau(1)).isEqualTo(1);
            assertThat(SatlBuckets.tau(576_000)).isEqualTo(100_218); // ⌈e^14 / 12⌉ = ⌈100,217.02⌉
        }
    }

    @Test
    void farRecord_isRequeuedUntilWithinToleranceThenDeliveredOnTime() throws IOException {
        try (SatlStore q = SatlStore.open(dir, 0, new BucketStoreOptions(16 * 4096, 0, false))) {
            q.schedule(42, 100_000, new byte[200]);
            long firstBucket = q.bucketOf(42);
            assertThat(firstBucket).isLessThan(100_000);
            long[] when = {-1};
            long t = 0;
            int hops = 0;
            while (when[0] < 0) {
                long b = q.bucketOf(42);
                assertThat(b).isGreaterThan(t);
                t = b;
                hops++;
                final long now = t;
                q.poll(now, (k, a, r, l) -> when[0] = now);
            }
            assertThat(when[0]).isEqualTo(100_000);
            assertThat(hops).isBetween(2, 15);
        }
    }

    @Test
    void bucketsGrowLogarithmically_againstSatsLinearCount() throws IOException {
        try (SatlStore l = SatlStore.open(dir.resolve("l"), 0, new BucketStoreOptions(256 * 4096, 0, false));
             SatStore s = SatStore.open(dir.resolve("s"), 0, new BucketStoreOptions(256 * 4096, 0, false))) {
            for (long d = 1; d <= 9_600; d++) {
                l.schedule(d, d, new byte[1]);
                s.schedule(d, d, new byte[1]);
            }
            assertThat(s.bucketCount()).isEqualTo(9_600);
            assertThat(l.bucketCount()).isLessThan(150);
        }
    }

    @Test
    void reopeningAsTheOtherKind_isRefused_andAnUncleanDirectoryToo() throws IOException {
        try (SatlStore q = SatlStore.open(dir, 0, BucketStoreOptions.defaults())) {
            q.schedule(1, 5, new byte[10]);
        }
        assertThatThrownBy(() -> SatStore.open(dir, 0, BucketStoreOptions.defaults()))
                .isInstanceOf(IOException.class).hasMessageContaining("kind");
        try (SatlStore q = SatlStore.open(dir, 0, BucketStoreOptions.defaults())) {
            assertThat(q.contains(1)).as("a refused open leaves the store intact").isTrue();
        }
        Files.delete(dir.resolve("store.meta")); // what a crash between open and close leaves
        assertThatThrownBy(() -> SatlStore.open(dir, 0, BucketStoreOptions.defaults()))
                .isInstanceOf(IOException.class).hasMessageContaining("not closed cleanly");
    }
}
