package io.github.kcrawler.dedup.content;

import java.util.Arrays;

/**
 * Sparse exact counts for the saturated counters of an {@link ImpCbFilter}: an open-addressing int → int map
 * (linear probing, backward-shift deletion, no boxing, no tombstones). Keys are counter positions ≥ 0; −1 marks an
 * empty slot. Grows at 50% load, never shrinks.
 */
final class SaturatedCounts {
    private static final int EMPTY = -1;

    private int[] keys;
    private int[] values;
    private int size;

    SaturatedCounts() {
        this(16);
    }

    SaturatedCounts(int capacity) {
        int c = Integer.highestOneBit(Math.max(16, capacity - 1) << 1);
        keys = new int[c];
        values = new int[c];
        Arrays.fill(keys, EMPTY);
    }

    int size() {
        return size;
    }

    long memoryBytes() {
        return 8L * keys.length;
    }

    /** The count of {@code position}, 0 when absent. */
    int get(int position) {
        int mask = keys.length - 1;
        for (int i = slot(position, mask); ; i = (i + 1) & mask) {
            int k = keys[i];
            if (k == position) {
                return values[i];
            }
            if (k == EMPTY) {
                return 0;
            }
        }
    }

    boolean contains(int position) {
        return get(position) != 0;
    }

    /** Sets the count of {@code position}; a count of 0 removes it. */
    void put(int position, int count) {
        if (count == 0) {
            remove(position);
            return;
        }
        int mask = keys.length - 1;
        for (int i = slot(position, mask); ; i = (i + 1) & mask) {
            int k = keys[i];
            if (k == position) {
                values[i] = count;
                return;
            }
            if (k == EMPTY) {
                keys[i] = position;
                values[i] = count;
                if (++size * 2 > keys.length) {
                    grow();
                }
                return;
            }
        }
    }

    /** Adds one to the count of {@code position} (which must be present) and returns the new count. */
    int increment(int position) {
        int mask = keys.length - 1;
        for (int i = slot(position, mask); ; i = (i + 1) & mask) {
            int k = keys[i];
            if (k == position) {
                return ++values[i];
            }
            if (k == EMPTY) {
                throw new IllegalStateException("no saturated count for position " + position);
            }
        }
    }

    void remove(int position) {
        int mask = keys.length - 1;
        int i = slot(position, mask);
        while (keys[i] != position) {
            if (keys[i] == EMPTY) {
                return;
            }
            i = (i + 1) & mask;
        }
        // backward-shift: move later entries of the probe run into the hole when their home allows it
        int hole = i;
        for (int j = (hole + 1) & mask; keys[j] != EMPTY; j = (j + 1) & mask) {
            int home = slot(keys[j], mask);
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                keys[hole] = keys[j];
                values[hole] = values[j];
                hole = j;
            }
        }
        keys[hole] = EMPTY;
        size--;
    }

    void clear() {
        Arrays.fill(keys, EMPTY);
        size = 0;
    }

    private void grow() {
        int[] oldKeys = keys;
        int[] oldValues = values;
        keys = new int[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        Arrays.fill(keys, EMPTY);
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY) {
                put(oldKeys[i], oldValues[i]);
            }
        }
    }

    private static int slot(int position, int mask) {
        int h = position * 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }
}
