package io.github.kcrawler.scheduler.politeness;

/**
 * The priority front of {@code --order priority} (DESIGN §4.5, last point; ours, not paper 004's): a bounded pool of
 * admitted URLs, keyed by 64-bit fingerprint with a {@code double} score (the ranker's incremental PageRank estimate,
 * paper 002), from which the best URLs enter paper 004's {@link io.github.kcrawler.scheduler.wheel.PolitenessWheel}
 * first. When the pool is full the worst URL is evicted and returned, so the caller can send
 * {@code crawl.urls.forget} for it — as the wheel does for a drop, memory stays bounded and a much-linked URL comes
 * back.
 *
 * <h2>Buckets: why the order is approximate, and how much</h2>
 * A heap would cost O(log n) per operation; instead scores fall into {@value #BUCKETS} log-linear buckets: bucket 0
 * for scores that are not {@code > 0} (zero, negative, NaN), then for every binary octave {@code [2^e, 2^(e+1))},
 * {@code e = -63 … 63}, {@value #SUB_BUCKETS} equal-width sub-buckets (the top 3 mantissa bits), so one bucket spans
 * a score ratio of at most 9/8; scores below 2^-63 share the lowest positive bucket and scores ≥ 2^64 (and +∞) the
 * highest. Order between buckets is exact; inside a bucket it is FIFO (insertion order, or the order of arrival in
 * the bucket after a {@link #rescore} moved an entry there). {@link #pollBest()} takes the oldest entry of the
 * highest non-empty bucket; eviction takes the newest entry of the lowest one — i.e. the last entry in the order
 * (bucket descending, then FIFO), which is what the tests compare against an exact model.
 *
 * <h2>Layout and cost</h2>
 * Primitive arrays only: per slot {@code long fp}, {@code double score}, {@code int bucket, prev, next} (intrusive
 * doubly-linked FIFO per bucket, free slots chained through {@code next}); an open-addressing table of
 * {@code int} slot references with linear probing and backward-shift deletion (no tombstones), at least twice the
 * capacity in size (load ≤ 1/2); and a two-level bitmap of non-empty buckets (16 words + one summary word), so the
 * best and worst buckets are found with two leading/trailing-zero counts. Every operation is O(1) (expected, for
 * the hash lookup). Memory: {@code 28 bytes per slot + 4·(table size ≥ 2·capacity)}, i.e. ≈ 36–44 bytes per entry,
 * allocated up front.
 *
 * <h2>Held entries</h2>
 * An entry can be <em>held</em> ({@link #holdBest}, {@link #add add(fp, score, true)}): taken out of the order but
 * kept in its slot, still counted against the capacity and found by {@link #slotOf}. The frontier holds the URLs it
 * has placed in the politeness wheel, so one preallocated structure indexes every pending URL of a PRIORITY
 * frontier and {@code capacity} bounds them all; a held entry is never polled or evicted, and a full pool whose
 * entries are all held refuses newcomers. The slot API ({@link #slotOf}, {@link #keyAt}, {@link #worstSlot},
 * {@link #requeue}, {@link #removeAt}) lets the caller keep its own per-entry data in arrays indexed by slot.
 *
 * <p>The fingerprint {@link #NONE} ({@code Long.MIN_VALUE}) is reserved as the "nothing" answer and rejected as a
 * key; a caller whose hash can produce it maps it to another value. Not thread-safe (one per stream task).
 */
public final class PriorityFront {

    /** Returned when nothing was evicted or the pool is empty; not a valid fingerprint. */
    public static final long NONE = Long.MIN_VALUE;
    /** Number of score buckets. */
    public static final int BUCKETS = 1 + 127 * 8;
    static final int SUB_BUCKETS = 8;
    private static final int MIN_EXP = -63;
    private static final int MAX_EXP = 63;
    /** Largest capacity (the hash table must stay below 2^31 entries). */
    public static final int MAX_CAPACITY = 1 << 28;
    private static final int NIL = -1;
    /** {@code bucketOf} of a held entry: in the pool, in no bucket. */
    private static final int HELD = -2;

    private final int capacity;
    private final long[] keys;
    private final double[] scores;
    private final int[] bucketOf;
    private final int[] prev;
    private final int[] next;
    private final int[] table;
    private final int mask;
    private final int[] head = new int[BUCKETS];
    private final int[] tail = new int[BUCKETS];
    private final long[] bits = new long[(BUCKETS + 63) / 64];
    private long summary;
    private int free;
    private int size;
    private int held;

    public PriorityFront(int capacity) {
        if (capacity < 1 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("pool capacity must be in [1, " + MAX_CAPACITY + "], was " + capacity);
        }
        this.capacity = capacity;
        this.keys = new long[capacity];
        this.scores = new double[capacity];
        this.bucketOf = new int[capacity];
        this.prev = new int[capacity];
        this.next = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            next[i] = i + 1 < capacity ? i + 1 : NIL;
        }
        this.free = 0;
        int tableSize = tableSize(capacity);
        this.table = new int[tableSize];
        this.mask = tableSize - 1;
        java.util.Arrays.fill(table, NIL);
        java.util.Arrays.fill(head, NIL);
        java.util.Arrays.fill(tail, NIL);
    }

    /** The bucket of a score (0 … {@link #BUCKETS}-1; larger is better). */
    public static int bucket(double score) {
        if (!(score > 0)) {
            return 0;
        }
        int e = Math.getExponent(score);
        if (e < MIN_EXP) {
            return 1;
        }
        if (e > MAX_EXP) {
            return BUCKETS - 1;
        }
        int sub = (int) ((Double.doubleToRawLongBits(score) >>> (52 - 3)) & (SUB_BUCKETS - 1));
        return 1 + (e - MIN_EXP) * SUB_BUCKETS + sub;
    }

    /**
     * Adds {@code fp} with {@code score}; an entry already present is rescored instead.
     *
     * @return the fingerprint that left the pool because it was full — the worst entry, which is {@code fp} itself
     *         when its bucket is not above the lowest occupied one — or {@link #NONE} if nothing left
     */
    public long offer(long fp, double score) {
        checkKey(fp);
        int slot = find(fp);
        if (slot != NIL) {
            moveTo(slot, score);
            return NONE;
        }
        long evicted = NONE;
        if (size == capacity) {
            int victim = victimFor(score);
            if (victim == NIL) {
                return fp;
            }
            evicted = keys[victim];
            removeSlot(victim);
        }
        insert(fp, score, false);
        return evicted;
    }

    /** Gives {@code fp} a new score, moving it to the back of its new bucket if the bucket changes; false if absent. */
    public boolean rescore(long fp, double score) {
        if (fp == NONE) {
            return false;
        }
        int slot = find(fp);
        if (slot == NIL) {
            return false;
        }
        moveTo(slot, score);
        return true;
    }

    /** Removes {@code fp}; false if absent. */
    public boolean remove(long fp) {
        if (fp == NONE) {
            return false;
        }
        int slot = find(fp);
        if (slot == NIL) {
            return false;
        }
        removeSlot(slot);
        return true;
    }

    /** Removes and returns the oldest entry of the best non-empty bucket, or {@link #NONE} if the pool is empty. */
    public long pollBest() {
        if (size == held) {
            return NONE;
        }
        int s = head[highestBucket()];
        long fp = keys[s];
        removeSlot(s);
        return fp;
    }

    /** The fingerprint {@link #pollBest()} would return, or {@link #NONE}. */
    public long peekBest() {
        return size == held ? NONE : keys[head[highestBucket()]];
    }

    /** The score of {@code fp}, or NaN if absent. */
    public double scoreOf(long fp) {
        int slot = fp == NONE ? NIL : find(fp);
        return slot == NIL ? Double.NaN : scores[slot];
    }

    public boolean contains(long fp) {
        return fp != NONE && find(fp) != NIL;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int capacity() {
        return capacity;
    }

    /** Entries held out of the order. */
    public int held() {
        return held;
    }

    // --- Slot API: for a caller that keeps its own data per entry in arrays indexed by slot (0 … capacity-1). A slot
    // stays its entry's until the entry leaves the pool. A held entry still counts against the capacity and is found
    // by slotOf, but is never polled, evicted or moved by its score until it is requeued.

    /** The slot of {@code fp}, or -1. */
    public int slotOf(long fp) {
        return fp == NONE ? NIL : find(fp);
    }

    public long keyAt(int slot) {
        return keys[slot];
    }

    public double scoreAt(int slot) {
        return scores[slot];
    }

    public boolean isHeld(int slot) {
        return bucketOf[slot] == HELD;
    }

    /** The worst waiting entry's slot — the newest entry of the lowest bucket — or -1 if none waits. */
    public int worstSlot() {
        return size == held ? NIL : tail[lowestBucket()];
    }

    /**
     * The slot a full pool gives up for a newcomer with {@code score} ({@link #offer} evicts it): the worst waiting
     * entry, if the newcomer's bucket is above its bucket; else -1, and {@link #offer} refuses the newcomer.
     */
    public int victimFor(double score) {
        int worst = worstSlot();
        return worst != NIL && bucket(score) > bucketOf[worst] ? worst : NIL;
    }

    /**
     * Adds {@code fp}, waiting ({@code held} false) or held, into a free slot and returns the slot. Evicts nothing:
     * the caller makes room first ({@link #worstSlot}, {@link #removeAt}).
     *
     * @throws IllegalStateException if the pool is full or already holds {@code fp}
     */
    public int add(long fp, double score, boolean held) {
        checkKey(fp);
        if (size == capacity || find(fp) != NIL) {
            throw new IllegalStateException(size == capacity ? "pool is full (" + capacity + ")"
                    : "fingerprint " + fp + " is already in the pool");
        }
        return insert(fp, score, held);
    }

    /** Takes the entry {@link #pollBest()} would return out of the order, keeps it held, and returns its slot (-1 if none waits). */
    public int holdBest() {
        if (size == held) {
            return NIL;
        }
        int s = head[highestBucket()];
        unlink(s);
        bucketOf[s] = HELD;
        held++;
        return s;
    }

    /**
     * A held entry's spare link: its bucket links are unused while it is held, so a caller may chain held slots into
     * lists of its own (no memory beyond the pool's). Reset when the entry is requeued or removed.
     */
    public void setHeldLink(int slot, int link) {
        if (bucketOf[slot] != HELD) {
            throw new IllegalStateException("slot " + slot + " is not held");
        }
        next[slot] = link;
    }

    /** The link set by {@link #setHeldLink} on a held entry. */
    public int heldLink(int slot) {
        if (bucketOf[slot] != HELD) {
            throw new IllegalStateException("slot " + slot + " is not held");
        }
        return next[slot];
    }

    /** Puts a held entry back at the back of its score's bucket. */
    public void requeue(int slot) {
        if (bucketOf[slot] != HELD) {
            throw new IllegalStateException("slot " + slot + " is not held");
        }
        held--;
        link(slot, bucket(scores[slot]));
    }

    /** Removes the entry in {@code slot}, waiting or held. */
    public void removeAt(int slot) {
        removeSlot(slot);
    }

    /** Bytes of the arrays (allocated up front). */
    public long memoryBytes() {
        return 28L * capacity + 4L * table.length + 8L * BUCKETS + 8L * bits.length;
    }

    /** {@link #memoryBytes()} of a pool of this capacity, before it is built. */
    public static long memoryBytes(int capacity) {
        return 28L * capacity + 4L * tableSize(capacity) + 8L * BUCKETS + 8L * ((BUCKETS + 63) / 64);
    }

    private static int tableSize(int capacity) {
        return Integer.highestOneBit(capacity) << 2;
    }

    private void checkKey(long fp) {
        if (fp == NONE) {
            throw new IllegalArgumentException("fingerprint " + fp + " is reserved as PriorityFront.NONE");
        }
    }

    private int insert(long fp, double score, boolean held) {
        int s = free;
        free = next[s];
        keys[s] = fp;
        scores[s] = score;
        if (held) {
            bucketOf[s] = HELD;
            this.held++;
        } else {
            link(s, bucket(score));
        }
        insertIntoTable(fp, s);
        size++;
        return s;
    }

    private void moveTo(int slot, double score) {
        scores[slot] = score;
        if (bucketOf[slot] == HELD) {
            return;
        }
        int b = bucket(score);
        if (b != bucketOf[slot]) {
            unlink(slot);
            link(slot, b);
        }
    }

    private void removeSlot(int s) {
        if (bucketOf[s] == HELD) {
            held--;
        } else {
            unlink(s);
        }
        deleteFromTable(keys[s]);
        next[s] = free;
        free = s;
        size--;
    }

    private void link(int s, int b) {
        bucketOf[s] = b;
        next[s] = NIL;
        int t = tail[b];
        prev[s] = t;
        if (t == NIL) {
            head[b] = s;
            bits[b >>> 6] |= 1L << b;
            summary |= 1L << (b >>> 6);
        } else {
            next[t] = s;
        }
        tail[b] = s;
    }

    private void unlink(int s) {
        int b = bucketOf[s];
        int p = prev[s];
        int n = next[s];
        if (p == NIL) {
            head[b] = n;
        } else {
            next[p] = n;
        }
        if (n == NIL) {
            tail[b] = p;
        } else {
            prev[n] = p;
        }
        if (head[b] == NIL) {
            int w = b >>> 6;
            bits[w] &= ~(1L << b);
            if (bits[w] == 0) {
                summary &= ~(1L << w);
            }
        }
    }

    private int highestBucket() {
        int w = 63 - Long.numberOfLeadingZeros(summary);
        return (w << 6) + 63 - Long.numberOfLeadingZeros(bits[w]);
    }

    private int lowestBucket() {
        int w = Long.numberOfTrailingZeros(summary);
        return (w << 6) + Long.numberOfTrailingZeros(bits[w]);
    }

    private static int hash(long fp) {
        long h = fp * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    private int find(long fp) {
        int i = hash(fp) & mask;
        while (true) {
            int s = table[i];
            if (s == NIL) {
                return NIL;
            }
            if (keys[s] == fp) {
                return s;
            }
            i = (i + 1) & mask;
        }
    }

    private void insertIntoTable(long fp, int slot) {
        int i = hash(fp) & mask;
        while (table[i] != NIL) {
            i = (i + 1) & mask;
        }
        table[i] = slot;
    }

    /** Backward-shift deletion: later entries of the probe run move up so lookups never need tombstones. */
    private void deleteFromTable(long fp) {
        int i = hash(fp) & mask;
        while (keys[table[i]] != fp) {
            i = (i + 1) & mask;
        }
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            int s = table[j];
            if (s == NIL) {
                break;
            }
            int home = hash(keys[s]) & mask;
            // move s into the hole at i unless its home lies cyclically in (i, j]
            boolean stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
            if (!stays) {
                table[i] = s;
                i = j;
            }
        }
        table[i] = NIL;
    }

    /** Checks the structure in O(capacity) (for tests). */
    void checkInvariants() {
        int counted = 0;
        for (int b = 0; b < BUCKETS; b++) {
            boolean nonEmpty = head[b] != NIL;
            if (nonEmpty != ((bits[b >>> 6] >>> b & 1) != 0)) {
                throw new IllegalStateException("bitmap disagrees at bucket " + b);
            }
            int p = NIL;
            for (int s = head[b]; s != NIL; s = next[s]) {
                if (prev[s] != p || bucketOf[s] != b || find(keys[s]) != s) {
                    throw new IllegalStateException("broken list or index at bucket " + b + " slot " + s);
                }
                p = s;
                counted++;
            }
            if (tail[b] != p) {
                throw new IllegalStateException("tail of bucket " + b + " is wrong");
            }
        }
        for (int w = 0; w < bits.length; w++) {
            if ((bits[w] != 0) != ((summary >>> w & 1) != 0)) {
                throw new IllegalStateException("summary disagrees at word " + w);
            }
        }
        int heldSeen = 0;
        for (int i = 0; i < table.length; i++) {
            if (table[i] != NIL && bucketOf[table[i]] == HELD) {
                heldSeen++;
            }
        }
        if (counted + heldSeen != size || heldSeen != held || size > capacity) {
            throw new IllegalStateException("size " + size + " but " + counted + " linked and " + heldSeen
                    + " held (" + held + " counted), capacity " + capacity);
        }
    }
}
