package io.github.kcrawler.scheduler.politeness;

import java.util.Arrays;

/**
 * The URLs of a {@link WheelFrontier}'s priority pool set aside, per residue, because their residue already had its
 * share of the lookahead waiting in the wheel ({@code wheel-lookahead}, ours). Without them a busy host whose URLs top
 * the pool would take every refill attempt, and the worse URLs of the partition's other IPs would never be reached.
 *
 * <p>A parked URL stays <em>held</em> in the {@link PriorityFront} (out of its buckets, still indexed), and the lists
 * are chained through the held entries' spare links ({@link PriorityFront#setHeldLink}), so parking costs no memory
 * per URL: two {@code int} heads and tails per residue. Each list is FIFO, which is the pool's best-first order at
 * the time the URLs were met. Each URL of a residue handed out lets the residue's oldest parked URL back into the
 * pool ({@link #unparkOne}), where it competes again by its newest score.
 *
 * <p>Invariants: a slot is in at most one list, and only while it is held; {@link #size()} is the number of slots in
 * all lists. A residue has parked URLs only while it has URLs waiting in the wheel or its cap of released and
 * unreported URLs ({@link ResidueFlights}; the caller parks only then), and each of its releases, and each of its
 * reports while it is at its cap, lets one back, so every list empties as the residue is served. O(1) per operation but {@link #unparkAll} (after a
 * fault: O(H + parked)). Not thread-safe.
 */
final class ParkedUrls {
    private static final int NONE = -1;

    private final PriorityFront pool;
    private final int[] head;
    private final int[] tail;
    private int size;

    ParkedUrls(PriorityFront pool, int residues) {
        this.pool = pool;
        this.head = new int[residues];
        this.tail = new int[residues];
        Arrays.fill(head, NONE);
        Arrays.fill(tail, NONE);
    }

    /** Appends a held pool slot to its residue's list. */
    void park(int residue, int slot) {
        pool.setHeldLink(slot, NONE);
        if (tail[residue] == NONE) {
            head[residue] = slot;
        } else {
            pool.setHeldLink(tail[residue], slot);
        }
        tail[residue] = slot;
        size++;
    }

    /** A URL of this residue was handed out: its oldest parked URL, if any, goes back into the pool's buckets. */
    void unparkOne(int residue) {
        int slot = head[residue];
        if (slot == NONE) {
            return;
        }
        int next = pool.heldLink(slot);
        head[residue] = next;
        if (next == NONE) {
            tail[residue] = NONE;
        }
        size--;
        pool.requeue(slot);
    }

    /** Every parked URL goes back into the pool's buckets (the caps they waited for were cleared). */
    void unparkAll() {
        for (int r = 0; r < head.length && size > 0; r++) {
            while (head[r] != NONE) {
                unparkOne(r);
            }
        }
    }

    /** URLs parked in all residues. */
    int size() {
        return size;
    }

    /** Heap bytes of the lists' arrays, as {@link FrontierBound} counts them. */
    long memoryBytes() {
        return memoryBytes(head.length);
    }

    /** {@link #memoryBytes()} for this many residues, before the lists are built. */
    static long memoryBytes(int residues) {
        return 2 * (16 + 4L * residues);
    }
}
