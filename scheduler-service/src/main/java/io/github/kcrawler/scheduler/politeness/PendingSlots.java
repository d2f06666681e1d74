package io.github.kcrawler.scheduler.politeness;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;

import java.util.Arrays;

/**
 * Pending URLs of a {@link WheelFrontier} that are not in its priority pool — every URL in FIFO order; in PRIORITY
 * order only the URLs restored beyond the pool's capacity and the one fingerprint the pool reserves — on primitive
 * arrays. The URL text, depth and validators stay in the scheduler's RocksDB {@code pending} store.
 *
 * <p>Layout: a URL lives in a slot ({@code long fingerprint, long seq, double score, int ip} — 28 bytes, the IP as an
 * {@link IpTable} id), found by fingerprint through a fastutil {@code Long2IntOpenHashMap} (≤ 16 bytes per entry at
 * load ≤ 3/4). Freed slots are reused; the arrays grow by doubling and never shrink. Invariant: a fingerprint maps
 * to at most one live slot, and every live slot holds one user of its IP id. Not thread-safe.
 */
final class PendingSlots {
    private static final int INITIAL_SLOTS = 64;
    private static final int NONE = -1;

    private final IpTable ips;
    private final SlotIndex slotByFingerprint = new SlotIndex();
    private final IntArrayList freeSlots = new IntArrayList();
    private long[] fingerprints = new long[INITIAL_SLOTS];
    private long[] seqs = new long[INITIAL_SLOTS];
    private double[] scores = new double[INITIAL_SLOTS];
    private int[] ipOf = new int[INITIAL_SLOTS];
    private int used;

    /** The fingerprint-to-slot table, with its table size readable. */
    private static final class SlotIndex extends Long2IntOpenHashMap {
        private static final long serialVersionUID = 1L;

        long memoryBytes() {
            return 8L * key.length + 4L * value.length + 2 * 16;
        }
    }

    PendingSlots(IpTable ips) {
        this.ips = ips;
        slotByFingerprint.defaultReturnValue(NONE);
    }

    /** The slot of a pending fingerprint, or -1. */
    int slotOf(long fingerprint) {
        return slotByFingerprint.get(fingerprint);
    }

    /** Stores a URL that is not pending yet and returns its slot. */
    int add(String ip, long fingerprint, long seq, double score) {
        int slot = freeSlots.isEmpty() ? newSlot() : freeSlots.popInt();
        fingerprints[slot] = fingerprint;
        seqs[slot] = seq;
        scores[slot] = score + 0.0; // -0.0 stored as 0.0, as PendingUrl does
        ipOf[slot] = ips.acquire(ip);
        slotByFingerprint.put(fingerprint, slot);
        return slot;
    }

    /** Frees a live slot (and its IP's use). */
    void remove(int slot) {
        slotByFingerprint.remove(fingerprints[slot]);
        ips.release(ipOf[slot]);
        freeSlots.add(slot);
    }

    /** The URL in a live slot, as the frontier's callers see it. */
    PendingUrl view(int slot) {
        return new PendingUrl(ips.text(ipOf[slot]), fingerprints[slot], seqs[slot], scores[slot]);
    }

    void score(int slot, double score) {
        scores[slot] = score + 0.0;
    }

    long wheelKey(int slot) {
        return ips.wheelKey(ipOf[slot]);
    }

    int size() {
        return slotByFingerprint.size();
    }

    /** Bytes held now: the slot arrays (28 bytes a slot), the fingerprint table and the free-slot list. */
    long memoryBytes() {
        return 28L * fingerprints.length + 4 * 16 + slotByFingerprint.memoryBytes() + 16
                + 4L * freeSlots.elements().length;
    }

    private int newSlot() {
        if (used == fingerprints.length) {
            int n = Math.toIntExact(Math.min(Integer.MAX_VALUE - 8L, 2L * used));
            fingerprints = Arrays.copyOf(fingerprints, n);
            seqs = Arrays.copyOf(seqs, n);
            scores = Arrays.copyOf(scores, n);
            ipOf = Arrays.copyOf(ipOf, n);
        }
        return used++;
    }
}
