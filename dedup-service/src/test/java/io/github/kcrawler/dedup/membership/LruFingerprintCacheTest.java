package io.github.kcrawler.dedup.membership;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The LRU against {@link LinkedHashMap} in access order (the exact model), its memory bound and its snapshot. */
class LruFingerprintCacheTest {

    /** LinkedHashMap in access order, evicting its eldest entry beyond capacity, recording evictions. */
    private static final class Model extends LinkedHashMap<Long, Boolean> {
        private final int capacity;
        private final List<Long> evicted = new ArrayList<>();

        Model(int capacity) {
            super(16, 0.75f, true);
            this.capacity = capacity;
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
            if (size() > capacity) {
                evicted.add(eldest.getKey());
                return true;
            }
            return false;
        }

        boolean touchOrInsert(long fp) {
            if (get(fp) != null) {
                return true;
            }
            put(fp, Boolean.TRUE);
            return false;
        }

        long[] mostRecentFirst() {
            List<Long> keys = new ArrayList<>(keySet());
            long[] out = new long[keys.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = keys.get(keys.size() - 1 - i);
            }
            return out;
        }
    }

    @Test
    void randomOperations_agreeWithTheModel() {
        forAll(60, g -> randomOperations_agreeWithTheModel(g.intIn(0, 300), g.intIn(1, 2_000), g.anyLong()));
    }

    void randomOperations_agreeWithTheModel(int capacity, int universe, long seed) {
        List<Long> evicted = new ArrayList<>();
        LruFingerprintCache lru = new LruFingerprintCache(capacity, evicted::add);
        Model model = new Model(capacity);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 5_000; i++) {
            long fp = random.nextInt(universe) * 0x9E3779B97F4A7C15L + (seed & 0xFF);
            int op = random.nextInt(20);
            if (op == 0) {
                assertThat(lru.remove(fp)).isEqualTo(model.remove(fp) != null);
            } else if (op == 1) {
                assertThat(lru.contains(fp)).isEqualTo(model.containsKey(fp));
            } else if (capacity == 0) {
                assertThat(lru.touchOrInsert(fp)).isFalse();
                model.evicted.add(fp);
            } else {
                assertThat(lru.touchOrInsert(fp)).as("op %d fp %x", i, fp).isEqualTo(model.touchOrInsert(fp));
            }
            assertThat(lru.size()).isEqualTo(model.size());
        }
        assertThat(lru.toArrayMostRecentFirst()).containsExactly(model.mostRecentFirst());
        assertThat(evicted).isEqualTo(model.evicted);
    }

    @Test
    void full_evictsTheLeastRecentlyUsed_toTheListener() {
        List<Long> evicted = new ArrayList<>();
        LruFingerprintCache lru = new LruFingerprintCache(3, evicted::add);
        lru.touchOrInsert(1);
        lru.touchOrInsert(2);
        lru.touchOrInsert(3);
        assertThat(lru.touchOrInsert(1)).isTrue(); // 1 becomes the most recent
        lru.touchOrInsert(4);                       // evicts 2
        assertThat(evicted).containsExactly(2L);
        assertThat(lru.toArrayMostRecentFirst()).containsExactly(4L, 1L, 3L);
    }

    @Test
    void zero_andExtremeFingerprints_areOrdinaryKeys() {
        LruFingerprintCache lru = new LruFingerprintCache(8, fp -> { });
        for (long fp : new long[] {0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE}) {
            assertThat(lru.touchOrInsert(fp)).isFalse();
        }
        for (long fp : new long[] {0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE}) {
            assertThat(lru.touchOrInsert(fp)).isTrue();
        }
        assertThat(lru.remove(0L)).isTrue();
        assertThat(lru.contains(0L)).isFalse();
    }

    @Test
    void memory_isAtMost24BytesPerEntry_measuredFromTheArrays() {
        for (int capacity : new int[] {1 << 10, 1000, 1 << 16, 100_000, 1 << 20}) {
            LruFingerprintCache lru = new LruFingerprintCache(capacity, fp -> { });
            assertThat(lru.bytesPerEntry()).as("capacity %d", capacity).isLessThanOrEqualTo(24.0);
            assertThat(lru.memoryBytes()).isEqualTo(LruFingerprintCache.memoryBytesFor(capacity));
        }
    }

    /**
     * Measured, not computed: the bytes this thread allocates to build a 2^20-entry cache (HotSpot's per-thread
     * allocation counter, exact and unaffected by other tests' garbage), and that filling it allocates nothing.
     */
    @Test
    void memory_isAtMost24BytesPerEntry_measuredByAllocation() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        int capacity = 1 << 20;
        long[] fps = new long[capacity];
        for (int i = 0; i < capacity; i++) {
            fps[i] = i * 0x9E3779B97F4A7C15L;
        }
        LongConsumerCount evictions = new LongConsumerCount();
        long before = threads.getThreadAllocatedBytes(self);
        LruFingerprintCache lru = new LruFingerprintCache(capacity, evictions);
        long built = threads.getThreadAllocatedBytes(self);
        for (long fp : fps) {
            lru.touchOrInsert(fp);
        }
        long filled = threads.getThreadAllocatedBytes(self);
        assertThat(lru.size()).isEqualTo(capacity);
        double perEntry = (built - before) / (double) capacity;
        assertThat(perEntry).isLessThanOrEqualTo(24.0).isCloseTo(lru.bytesPerEntry(), within(0.01));
        assertThat(filled - built).as("bytes allocated while filling").isLessThan(64 * 1024L);
    }

    private static final class LongConsumerCount implements java.util.function.LongConsumer {
        long count;

        @Override
        public void accept(long value) {
            count++;
        }
    }

    @Test
    void snapshot_restoresEntriesAndRecency() throws IOException {
        LruFingerprintCache lru = new LruFingerprintCache(100, fp -> { });
        for (long i = 0; i < 150; i++) {
            lru.touchOrInsert(i);
        }
        lru.touchOrInsert(60);
        LruFingerprintCache copy = new LruFingerprintCache(100, fp -> { });
        copy.readFrom(roundTrip(lru));
        assertThat(copy.toArrayMostRecentFirst()).containsExactly(lru.toArrayMostRecentFirst());
    }

    @Test
    void snapshot_intoASmallerCache_keepsTheMostRecentEntries() throws IOException {
        LruFingerprintCache lru = new LruFingerprintCache(100, fp -> { });
        for (long i = 0; i < 100; i++) {
            lru.touchOrInsert(i);
        }
        List<Long> evicted = new ArrayList<>();
        LruFingerprintCache small = new LruFingerprintCache(10, evicted::add);
        small.readFrom(roundTrip(lru));
        assertThat(small.toArrayMostRecentFirst()).containsExactly(99L, 98L, 97L, 96L, 95L, 94L, 93L, 92L, 91L, 90L);
        assertThat(evicted).isEmpty();
    }

    @Test
    void damagedSnapshot_throws_andLeavesTheCacheEmpty() throws IOException {
        LruFingerprintCache lru = new LruFingerprintCache(10, fp -> { });
        lru.touchOrInsert(1);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        lru.writeTo(new DataOutputStream(bytes));
        byte[] truncated = java.util.Arrays.copyOf(bytes.toByteArray(), bytes.size() - 3);
        LruFingerprintCache target = new LruFingerprintCache(10, fp -> { });
        target.touchOrInsert(7);
        assertThatThrownBy(() -> target.readFrom(new DataInputStream(new ByteArrayInputStream(truncated))))
                .isInstanceOf(IOException.class);
        assertThat(target.size()).isZero();
        assertThatThrownBy(() -> target.readFrom(new DataInputStream(new ByteArrayInputStream(new byte[16]))))
                .hasMessageContaining("not an LRU snapshot");
    }

    @Test
    void badCapacity_isRejectedByName() {
        assertThatThrownBy(() -> new LruFingerprintCache(-1, fp -> { })).hasMessageContaining("was -1");
    }

    private static DataInputStream roundTrip(LruFingerprintCache lru) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        lru.writeTo(new DataOutputStream(bytes));
        return new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
    }
}
