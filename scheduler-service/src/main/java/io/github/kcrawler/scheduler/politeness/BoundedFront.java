package io.github.kcrawler.scheduler.politeness;

import io.github.kcrawler.scheduler.memory.ChunkedIntArray;
import io.github.kcrawler.scheduler.memory.ChunkedLongArray;

import java.util.function.Consumer;

/**
 * The PRIORITY frontier's index of pending URLs within its memory bound, and what happens at the bound (ours, not
 * paper 004's): the {@link PriorityFront} of {@code poolCapacity} slots, per used slot the URL's admission sequence
 * and IP id ({@link IpTable}), and beyond the bound the {@link Spill}: the pool's worst waiting URL evicted for a
 * better one is deferred there (without a spill it goes to the eviction sink, which forgets it), and free slots are
 * filled back from it best first. {@link WheelFrontier} decides when (admission, restore, before each step); this class
 * keeps the slots' data consistent with the pool: a slot's sequence and IP id are set when it is added and its IP is
 * released when it is removed, so {@link #view} of a used slot is always the URL that was added there.
 *
 * <p>Memory: the pool allocated up front ({@link PriorityFront#memoryBytes()}) plus 12 bytes per slot ever used (the
 * chunked arrays grow with the highest slot); a deferred URL costs nothing here. Not thread-safe: one per frontier.
 */
final class BoundedFront {
    /** The order of the waiting URLs: scores in buckets, held entries, slots. */
    final PriorityFront pool;
    private final ChunkedLongArray seq = new ChunkedLongArray(0);
    private final ChunkedIntArray ip = new ChunkedIntArray(0);
    private final IpTable ips;
    /** Where URLs beyond the bound wait; null: the pool evicts to {@link #evicted} (the caller forgets them). */
    private final Spill spill;
    private final Consumer<PendingUrl> evicted;
    private long takenBack;

    BoundedFront(int capacity, IpTable ips, Spill spill, Consumer<PendingUrl> evicted) {
        this.pool = new PriorityFront(capacity);
        this.ips = ips;
        this.spill = spill;
        this.evicted = evicted;
    }

    /** Adds a URL to a free slot ({@code held}: placed in the wheel at once) and returns the slot. */
    int add(String urlIp, long fingerprint, long admissionSeq, double score, boolean held) {
        int slot = pool.add(fingerprint, score, held);
        seq.set(slot, admissionSeq);
        ip.set(slot, ips.acquire(urlIp));
        return slot;
    }

    /** The URL in a used slot. */
    PendingUrl view(int slot) {
        return new PendingUrl(ips.text(ip.get(slot)), pool.keyAt(slot), seq.get(slot), pool.scoreAt(slot));
    }

    /** The wheel's key of the IP of the URL in a used slot. */
    long wheelKey(int slot) {
        return ips.wheelKey(ip.get(slot));
    }

    /** Frees a used slot (the URL was released or leaves). */
    void remove(int slot) {
        ips.release(ip.get(slot));
        pool.removeAt(slot);
    }

    /**
     * The pool's worst waiting URL leaves to make room: into the spill, from which it comes back when there is room;
     * without a spill the caller forgets it (or retries a revisit later).
     */
    void evict(int slot) {
        PendingUrl url = view(slot);
        remove(slot);
        if (spill != null) {
            spill.defer(url);
        } else {
            evicted.accept(url);
        }
    }

    boolean hasSpill() {
        return spill != null;
    }

    /** Defers a restored URL that is beyond the bound (it was lowered by configuration); needs a spill. */
    void defer(PendingUrl url) {
        spill.defer(url);
    }

    /**
     * Hands deferred URLs back to {@code sink}, best first, as many as the pool has free slots and at most
     * {@code max} (the most one step can release, so the work per step stays bounded, O(1) per URL).
     */
    void takeBack(int max, Spill.Sink sink) {
        if (spill == null || spill.size() == 0) {
            return;
        }
        int room = Math.min(pool.capacity() - pool.size(), max);
        if (room > 0) {
            spill.takeBack(room, sink);
        }
    }

    /** Counts a URL the sink took back. */
    void tookBack() {
        takenBack++;
    }

    /** URLs deferred to the spill and not taken back yet (0 without a spill). */
    long deferred() {
        return spill == null ? 0 : spill.size();
    }

    /** URLs taken back from the spill so far. */
    long takenBack() {
        return takenBack;
    }

    /** Heap bytes of the pool and the per-slot arrays, as {@link FrontierBound} counts them. */
    long memoryBytes() {
        return pool.memoryBytes() + seq.memoryBytes() + ip.memoryBytes();
    }
}
