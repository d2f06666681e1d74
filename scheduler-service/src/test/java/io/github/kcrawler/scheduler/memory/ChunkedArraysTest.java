package io.github.kcrawler.scheduler.memory;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Both chunked arrays against a plain array: same reads after random writes; growth in whole chunks, no copy. */
class ChunkedArraysTest {

    @Test
    void readsWhatAPlainArrayReads() {
        forAll(50, g -> readsWhatAPlainArrayReads(g.intIn(1, 40_000), g.anyLong()));
    }

    void readsWhatAPlainArrayReads(int size, long seed) {
        Random r = new Random(seed);
        long[] expectLong = new long[size];
        int[] expectInt = new int[size];
        java.util.Arrays.fill(expectLong, -7);
        java.util.Arrays.fill(expectInt, -1);
        ChunkedLongArray longs = new ChunkedLongArray(-7);
        ChunkedIntArray ints = new ChunkedIntArray(-1);
        longs.ensureCapacity(size);
        ints.ensureCapacity(size);
        for (int k = 0; k < 2 * size; k++) {
            int i = r.nextInt(size);
            long v = r.nextLong();
            expectLong[i] = v;
            expectInt[i] = (int) v;
            longs.set(i, v);
            ints.set(i, (int) v);
        }
        for (int i = 0; i < size; i++) {
            assertThat(longs.get(i)).isEqualTo(expectLong[i]);
            assertThat(ints.get(i)).isEqualTo(expectInt[i]);
        }
        assertThat(longs.capacity()).isEqualTo(ints.capacity())
                .isEqualTo((size + ChunkedLongArray.CHUNK - 1) / ChunkedLongArray.CHUNK * ChunkedLongArray.CHUNK);
    }

    @Test
    void growsInWholeChunksAsEntriesAreSet() {
        ChunkedLongArray a = new ChunkedLongArray(Long.MIN_VALUE);
        assertThat(a.capacity()).isZero();
        a.set(0, 1);
        assertThat(a.capacity()).isEqualTo(ChunkedLongArray.CHUNK);
        a.set(10 * ChunkedLongArray.CHUNK + 5, 2); // far ahead: every chunk up to it, filled
        assertThat(a.capacity()).isEqualTo(11 * ChunkedLongArray.CHUNK);
        assertThat(a.get(3 * ChunkedLongArray.CHUNK)).isEqualTo(Long.MIN_VALUE);
        assertThat(a.get(10 * ChunkedLongArray.CHUNK + 5)).isEqualTo(2);
        assertThat(a.get(0)).isEqualTo(1);
        // 11 chunks of 32 KiB: no array the size of the whole
        long chunks = 11L * 8 * ChunkedLongArray.CHUNK;
        assertThat(a.memoryBytes()).isBetween(chunks, chunks + 4096);
        a.ensureCapacity(5);
        assertThat(a.capacity()).isEqualTo(11 * ChunkedLongArray.CHUNK);
        assertThatThrownBy(() -> a.ensureCapacity(-1)).hasMessageContaining("was -1");
    }
}
