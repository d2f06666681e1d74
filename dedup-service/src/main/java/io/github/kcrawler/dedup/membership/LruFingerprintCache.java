package io.github.kcrawler.dedup.membership;

import io.github.kcrawler.common.fingerprint.Fingerprints;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.function.LongConsumer;

/**
 * The first tier of the URL-seen test (seed 000 §4.3, Fig. 4): an LRU cache of 64-bit URL fingerprints. A hit moves
 * the fingerprint to the head; a miss inserts it at the head and, when the cache is full, evicts the tail to the
 * eviction listener — the Stable Bloom Filter Light, in the paper's method. Broder et al. (2003) found ~2^18 entries
 * enough for ~80% hit rate on a crawl; the paper accounts an LRU entry at 20 bytes.
 *
 * <p>Layout, chosen for memory and O(1) everything: one open-addressing table with linear probing, whose slots are
 * also the nodes of an intrusive doubly-linked recency list — three parallel primitive arrays {@code long[] key},
 * {@code int[] prev}, {@code int[] next}, i.e. 16 bytes per slot and no object per entry. The table has
 * {@code ceil(capacity / 0.7)} slots (load ≤ 0.7, ~2.2 probes per hit), so an entry costs ≤ 16 / 0.7 ≈ 22.9 bytes
 * ({@link #bytesPerEntry()}, asserted ≤ 24 by the tests). An empty slot is marked by {@code next == EMPTY}, so
 * every 64-bit value, 0 included, is a valid fingerprint. Removal uses backward-shift deletion (no tombstones, so
 * probe lengths never degrade); a moved entry's list neighbours are re-pointed at its new slot.
 *
 * <p>Not thread-safe (one per stream task). The listener is called after the cache is consistent again and must not
 * call back into the cache. Capacity 0 is allowed: every insertion is then evicted at once (SBFL alone).
 */
public final class LruFingerprintCache {
    static final int SNAPSHOT_MAGIC = 0x4B4C5255; // "KLRU"
    static final int SNAPSHOT_VERSION = 1;
    /** Largest capacity: the slot count must stay below 2^31. */
    public static final int MAX_CAPACITY = 1 << 30;
    private static final double MAX_LOAD = 0.7;
    private static final int NIL = -1;
    private static final int EMPTY = -2;

    private final int capacity;
    private final int slots;
    private final long[] keys;
    private final int[] prev;
    private final int[] next;
    private final LongConsumer onEvict;
    private int head = NIL;
    private int tail = NIL;
    private int size;

    /**
     * @param capacity entries kept, in [0, {@link #MAX_CAPACITY}]
     * @param onEvict  receives each evicted fingerprint (the least recently used one)
     */
    public LruFingerprintCache(int capacity, LongConsumer onEvict) {
        if (capacity < 0 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("LRU capacity must be in [0, 2^30], was " + capacity);
        }
        this.onEvict = java.util.Objects.requireNonNull(onEvict, "onEvict");
        this.capacity = capacity;
        this.slots = slotsFor(capacity);
        this.keys = new long[slots];
        this.prev = new int[slots];
        this.next = new int[slots];
        java.util.Arrays.fill(next, EMPTY);
    }

    /**
     * The LRU step of the URL-seen test.
     *
     * @return true on a hit (the fingerprint is now the most recent); false on a miss (it was inserted, and the
     *         least recent entry evicted to the listener if the cache was full)
     */
    public boolean touchOrInsert(long fingerprint) {
        int slot = find(fingerprint);
        if (slot >= 0) {
            if (slot != head) {
                unlink(slot);
                linkAtHead(slot);
            }
            return true;
        }
        if (capacity == 0) {
            onEvict.accept(fingerprint);
            return false;
        }
        boolean evict = size == capacity;
        long evicted = 0;
        if (evict) {
            evicted = keys[tail];
            removeSlot(tail);
        }
        insertNew(fingerprint);
        if (evict) {
            onEvict.accept(evicted);
        }
        return false;
    }

    /** True if the fingerprint is cached; does not change its recency. */
    public boolean contains(long fingerprint) {
        return find(fingerprint) >= 0;
    }

    /** Removes the fingerprint (not passed to the listener); returns whether it was cached. */
    public boolean remove(long fingerprint) {
        int slot = find(fingerprint);
        if (slot < 0) {
            return false;
        }
        removeSlot(slot);
        return true;
    }

    /** Empties the cache without calling the listener. */
    public void clear() {
        java.util.Arrays.fill(next, EMPTY);
        head = NIL;
        tail = NIL;
        size = 0;
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return capacity;
    }

    /** Bytes held by the three arrays, headers included. */
    public long memoryBytes() {
        return memoryBytesFor(capacity);
    }

    /** What {@link #memoryBytes()} is for a cache of this capacity, without allocating one. */
    public static long memoryBytesFor(int capacity) {
        return 3 * 16L + slotsFor(capacity) * (long) (Long.BYTES + 2 * Integer.BYTES);
    }

    private static int slotsFor(int capacity) {
        return capacity == 0 ? 1 : (int) Math.ceil(capacity / MAX_LOAD) + 1;
    }

    /** {@link #memoryBytes()} per entry of capacity (the paper's accounting uses 20). */
    public double bytesPerEntry() {
        return capacity == 0 ? 0.0 : memoryBytes() / (double) capacity;
    }

    /** The cached fingerprints, most recent first (O(size); for tests and snapshots). */
    public long[] toArrayMostRecentFirst() {
        long[] out = new long[size];
        int i = 0;
        for (int s = head; s != NIL; s = next[s]) {
            out[i++] = keys[s];
        }
        return out;
    }

    /** Writes the entries, least recent first (format version 1). */
    public void writeTo(DataOutput out) throws IOException {
        out.writeInt(SNAPSHOT_MAGIC);
        out.writeByte(SNAPSHOT_VERSION);
        out.writeInt(size);
        for (int s = tail; s != NIL; s = prev[s]) {
            out.writeLong(keys[s]);
        }
    }

    /**
     * Replaces the content by a snapshot. A snapshot larger than this cache keeps only its most recent entries
     * (so the LRU size may change between runs); nothing is passed to the listener. On damage it throws and leaves
     * the cache empty.
     */
    public void readFrom(DataInput in) throws IOException {
        clear();
        try {
            int magic = in.readInt();
            if (magic != SNAPSHOT_MAGIC) {
                throw new IOException("not an LRU snapshot: magic " + Integer.toHexString(magic));
            }
            int version = in.readUnsignedByte();
            if (version != SNAPSHOT_VERSION) {
                throw new IOException("LRU snapshot version " + version + " is not supported");
            }
            int count = in.readInt();
            if (count < 0 || count > MAX_CAPACITY) {
                throw new IOException("damaged LRU snapshot: " + count + " entries");
            }
            for (int i = 0; i < count; i++) {
                long fp = in.readLong();
                if (i < count - capacity || find(fp) >= 0) {
                    continue; // older than what fits, or a duplicate in a damaged snapshot
                }
                insertNew(fp);
            }
        } catch (IOException | RuntimeException e) {
            clear();
            throw e;
        }
    }

    private int home(long fingerprint) {
        return (int) (((Fingerprints.fmix64(fingerprint) >>> 32) * slots) >>> 32);
    }

    private int find(long fingerprint) {
        int s = home(fingerprint);
        while (next[s] != EMPTY) {
            if (keys[s] == fingerprint) {
                return s;
            }
            if (++s == slots) {
                s = 0;
            }
        }
        return -1;
    }

    /** Inserts an absent fingerprint at the head; the caller guarantees size < capacity. */
    private void insertNew(long fingerprint) {
        int s = home(fingerprint);
        while (next[s] != EMPTY) {
            if (++s == slots) {
                s = 0;
            }
        }
        keys[s] = fingerprint;
        linkAtHead(s);
        size++;
        assert size <= capacity : "LRU over capacity: " + size + " > " + capacity;
    }

    private void linkAtHead(int s) {
        prev[s] = NIL;
        next[s] = head;
        if (head != NIL) {
            prev[head] = s;
        } else {
            tail = s;
        }
        head = s;
    }

    private void unlink(int s) {
        int p = prev[s];
        int n = next[s];
        if (p != NIL) {
            next[p] = n;
        } else {
            head = n;
        }
        if (n != NIL) {
            prev[n] = p;
        } else {
            tail = p;
        }
    }

    /** Unlinks and deletes slot {@code hole}, shifting later entries of its probe run back (Knuth 6.4 R). */
    private void removeSlot(int hole) {
        unlink(hole);
        size--;
        int j = hole;
        while (true) {
            if (++j == slots) {
                j = 0;
            }
            if (next[j] == EMPTY) {
                break;
            }
            int h = home(keys[j]);
            boolean stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
            if (stays) {
                continue;
            }
            moveSlot(j, hole);
            hole = j;
        }
        next[hole] = EMPTY;
    }

    /** Moves the live entry of slot {@code from} into the free slot {@code to}, re-pointing its neighbours. */
    private void moveSlot(int from, int to) {
        keys[to] = keys[from];
        int p = prev[from];
        int n = next[from];
        prev[to] = p;
        next[to] = n;
        if (p != NIL) {
            next[p] = to;
        } else {
            head = to;
        }
        if (n != NIL) {
            prev[n] = to;
        } else {
            tail = to;
        }
    }
}
