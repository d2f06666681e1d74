package io.github.kcrawler.scheduler.wheel;

import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * The O(1) politeness scheduler of paper 004 (Morimoto, Ueda, Uchida, Yamana: "An O(1) time complexity web crawling
 * scheduler with guarantee of minimum interval of accesses to a web server", {@code ../shared/seeds/004_*.txt}
 * §3.1–3.3, Algorithms 2 and 3), with the corrections of DESIGN §4.5.
 *
 * <h2>Why</h2>
 * A crawler must not hit one server twice within T, yet keeping a priority queue or a per-server queue for every
 * server costs O(log n) time and memory that grows with the number of URLs (IRLbot's BEAST keeps every overflow URL).
 * This wheel does both in O(1) time per operation and at most {@code B·H/2} stored URLs whatever the size of the web,
 * by <em>dropping</em> a URL when its residue has no free step; a much-linked (high-PageRank) URL is rediscovered
 * after a drop, so the drops cost mostly unimportant pages (the paper's §4: 80% of the PageRank with ~1/10 of
 * IRLbot's storage). The caller sends a {@code crawl.urls.forget} for a dropped URL so the URL-seen test admits it
 * again.
 *
 * <h2>Algorithm</h2>
 * State: array {@code N[0..H-1]} initialised {@code 0, 1, 0, 1, …}; B FIFO queues; step {@code t = 0}.
 * <ul>
 *   <li>{@link #enqueue}: {@code r = floorMod(ipKey, H)}; if {@code N[r] ≥ t + B} drop; if {@code N[r] ≤ t} then
 *   {@code N[r] = t + 2 - ((t ^ N[r]) & 1)} (the case table of §3.2; the printed Algorithm 2 line 8 has the parity
 *   reversed); append to {@code q[N[r] mod B]}; {@code N[r] += 2}.</li>
 *   <li>{@link #next}: {@code t += 1}; hand out and clear {@code q[t mod B]}. Whether T has passed since the
 *   previous Next (Algorithm 3's test is printed backwards) is the caller's business, helped by {@link StepPacer};
 *   the stream layer may also wait for the previous step's fetches to be reported.</li>
 * </ul>
 *
 * <h2>Invariants (checked by {@link #checkInvariants()}, which the tests run after every operation)</h2>
 * <ol>
 *   <li>{@code N[r] ≡ r (mod 2)} for every r, so residue r is only ever scheduled on steps of r's parity: one residue
 *   (hence one IP) never appears in two consecutive steps, and at most once per step — accesses to an IP are at
 *   least one full step, i.e. ≥ T, apart.</li>
 *   <li>The pending items of residue r occupy exactly the steps {@code N[r]-2, N[r]-4, …} that are {@code > t}; they
 *   lie in {@code (t, t+B]}, so a residue holds at most {@code B/2} items. (Step {@code t+B} is reached only by a
 *   reset when B = 2, otherwise the steps lie in {@code (t, t+B)} and the wheel holds at most
 *   {@code (B-1)·H/2} items once full.)</li>
 *   <li>Queue {@code q[i]} holds the items of the single step {@code s ≡ i (mod B)} in {@code (t, t+B]}, at most
 *   one per residue of s's parity: at most {@code H/2} items, and at most {@code B·H/2} in total.</li>
 * </ol>
 *
 * <h2>Restoring after a crash</h2>
 * Persist each item with the step it was given ({@link #schedule} returns it). To restore, create a wheel with
 * {@link #startingAt(int, int, long) startingAt(B, H, t)} and re-enqueue the pending items in increasing step order
 * (FIFO order within a step). This reproduces the state exactly and drops nothing: by invariant 2 the pending items
 * of a residue are a run of steps spaced 2 apart whose first element is {@code t+1} or {@code t+2} (the run began at
 * a reset to {@code t'+1}/{@code t'+2} for some {@code t' ≤ t} and only its head is ever removed). In the fresh wheel
 * every {@code N[r] ≤ t}, so the first re-enqueued item of r resets to the step of r's parity among
 * {@code t+1, t+2} — the original step — and each later one lands 2 further on, again the original step; all of them
 * are {@code ≤ t+B}, so none meets the drop test. Each queue receives its items in their original order. Residues
 * with nothing pending also behave as before, with one exception at B = 2 only: a residue whose last item was handed
 * out at step t itself has {@code N[r] = t+2 = t+B} and drops its next item, where the restored wheel resets it to
 * {@code t+2} and accepts it (still polite: two steps after t). For {@code B ≥ 3}, {@code t+2 < t+B} and the two
 * wheels agree on every future operation (a property test checks this).
 *
 * <h2>Parameters and memory</h2>
 * H even and ≥ 2, B ≥ 2 (the paper used B, H = 1024…2048 for 76M pages). Memory: {@code 8·H} bytes for N plus, per
 * queue, a {@code long[]} that grows by doubling up to {@code H/2} entries and is reused afterwards (no allocation
 * per URL once warm); worst case {@code 8·B·H/2} bytes of handles + {@code 8·H} — 16 MiB + 16 KiB for B = H = 2048.
 * Items are {@code long} handles; the caller maps handles to payloads. A larger H lowers residue collisions (two IPs
 * sharing a residue are spaced as one), a larger B drops fewer URLs; both cost memory.
 *
 * <p>Not thread-safe (one per stream task).
 */
public final class PolitenessWheel {

    /** Returned by {@link #schedule} for a dropped item. */
    public static final long DROPPED = -1L;
    private static final int INITIAL_QUEUE_CAPACITY = 8;
    private static final long[] EMPTY = new long[0];

    private final int queues;
    private final int residues;
    private final long[] nextStep;
    private final long[][] queue;
    private final int[] count;
    private long t;
    private int size;
    private long dropped;
    private long enqueued;
    /** Elementary steps done by enqueue/next (array slots written or copied), tallied only when assertions are on. */
    private long work;

    /** A wheel at step 0 with {@code queues} FIFO queues (B) and {@code residues} residues (H). */
    public PolitenessWheel(int queues, int residues) {
        this(queues, residues, 0L);
    }

    private PolitenessWheel(int queues, int residues, long startStep) {
        if (queues < 2) {
            throw new IllegalArgumentException("queues (B) must be >= 2, was " + queues);
        }
        if (residues < 2 || (residues & 1) != 0) {
            throw new IllegalArgumentException("residues (H) must be even and >= 2, was " + residues);
        }
        if (startStep < 0 || startStep > Long.MAX_VALUE / 2) {
            throw new IllegalArgumentException("start step must be in [0, 2^62], was " + startStep);
        }
        this.queues = queues;
        this.residues = residues;
        this.nextStep = new long[residues];
        this.queue = new long[queues][];
        Arrays.fill(queue, EMPTY);
        this.count = new int[queues];
        this.t = startStep;
        // The paper's 0, 1, 0, 1, … at t = 0; at a later step any value <= t of r's parity behaves the same (the
        // first enqueue resets it), so t - ((t ^ r) & 1), i.e. t or t - 1, is used (>= -1, harmless at t = 0).
        for (int r = 0; r < residues; r++) {
            nextStep[r] = startStep == 0 ? (r & 1) : startStep - ((startStep ^ r) & 1);
        }
    }

    /**
     * An empty wheel whose current step is {@code step}: the next {@link #next} hands out step {@code step + 1}. Used
     * to restore after a crash by re-enqueuing the persisted items in step order (see the class comment).
     */
    public static PolitenessWheel startingAt(int queues, int residues, long step) {
        return new PolitenessWheel(queues, residues, step);
    }

    /** Enqueue of Algorithm 2 (corrected); {@code false} if the item was dropped because its residue is full. */
    public boolean enqueue(long ipKey, long handle) {
        return schedule(ipKey, handle) != DROPPED;
    }

    /** Whether {@link #enqueue} would take an item of this IP now (its residue has a free step); changes nothing. */
    public boolean accepts(long ipKey) {
        return nextStep[(int) Math.floorMod(ipKey, (long) residues)] < t + queues;
    }

    /**
     * Whether {@link #enqueue} would take an item of this IP now <em>and</em> its residue has fewer than
     * {@code waiting} items waiting (a residue's items go out every other step, so it holds k items when its next
     * free step is {@code t + 2k + 1} or {@code t + 2k + 2}); changes nothing.
     */
    public boolean acceptsWithin(long ipKey, int waiting) {
        long n = nextStep[(int) Math.floorMod(ipKey, (long) residues)];
        return n < t + queues && n <= t + 2L * waiting;
    }

    /** Items of this IP's residue waiting in the wheel (its next free step is {@code t + 2k + 1} or {@code + 2}). */
    public int waiting(long ipKey) {
        long n = nextStep[(int) Math.floorMod(ipKey, (long) residues)];
        return (int) Math.max(0, (n - t - 1) / 2);
    }

    /**
     * Like {@link #enqueue} but returns the step at which the item will be handed out (to persist with it), or
     * {@link #DROPPED}.
     */
    public long schedule(long ipKey, long handle) {
        int r = (int) Math.floorMod(ipKey, (long) residues);
        long n = nextStep[r];
        if (n >= t + queues) {
            dropped++;
            return DROPPED;
        }
        if (n <= t) {
            n = t + 2 - ((t ^ n) & 1);
        }
        int i = (int) (n % queues);
        int c = count[i];
        long[] q = queue[i];
        if (c == q.length) {
            q = grow(i, c);
        }
        q[c] = handle;
        count[i] = c + 1;
        nextStep[r] = n + 2;
        size++;
        enqueued++;
        assert tally(1);
        return n;
    }

    private long[] grow(int i, int c) {
        int cap = Math.min(residues / 2, Math.max(INITIAL_QUEUE_CAPACITY, c * 2));
        if (cap <= c) {
            throw new IllegalStateException("queue " + i + " is full at " + c + " items: invariant H/2 broken");
        }
        long[] q = Arrays.copyOf(queue[i], cap);
        queue[i] = q;
        assert tally(c);
        return q;
    }

    /**
     * Next of Algorithm 3: advances to step {@code t + 1} and hands out its batch, copying it into {@code out} in
     * FIFO order and clearing the queue.
     *
     * @param out receives the batch; must have room for {@link #maxBatch()} items (or at least the batch)
     * @return the number of items written to {@code out}
     * @throws IllegalArgumentException if {@code out} is too small for the batch (nothing is changed then)
     */
    public int next(long[] out) {
        int i = (int) ((t + 1) % queues);
        int c = count[i];
        if (out.length < c) {
            throw new IllegalArgumentException("out has room for " + out.length + " items, the batch has " + c);
        }
        t++;
        System.arraycopy(queue[i], 0, out, 0, c);
        count[i] = 0;
        size -= c;
        assert tally(1 + c);
        return c;
    }

    /**
     * Next, handing the batch to {@code sink} in FIFO order; returns the batch size. The sink must not call back
     * into this wheel (with B = 2 an enqueue could reuse the queue being handed out); use {@link #next(long[])} to
     * enqueue while processing the batch.
     */
    public int next(LongConsumer sink) {
        t++;
        int i = (int) (t % queues);
        int c = count[i];
        long[] q = queue[i];
        count[i] = 0;
        size -= c;
        assert tally(1 + c);
        for (int k = 0; k < c; k++) {
            sink.accept(q[k]);
        }
        return c;
    }

    /** Number of items the next {@link #next} will hand out. */
    public int nextBatchSize() {
        return count[(int) ((t + 1) % queues)];
    }

    /** The current step t (the step whose batch was handed out last; 0 before the first Next). */
    public long step() {
        return t;
    }

    /** Items waiting in the wheel; never more than {@link #capacity()}. */
    public int size() {
        return size;
    }

    /** Items dropped by {@link #enqueue} since construction. */
    public long dropped() {
        return dropped;
    }

    /** Items accepted by {@link #enqueue} since construction. */
    public long enqueued() {
        return enqueued;
    }

    /** B. */
    public int queues() {
        return queues;
    }

    /** H. */
    public int residues() {
        return residues;
    }

    /** Largest batch: H/2. */
    public int maxBatch() {
        return residues / 2;
    }

    /** Most items the wheel can hold: B·H/2. */
    public long capacity() {
        return (long) queues * (residues / 2);
    }

    /** Bytes held by the arrays now (N, counts and the queues as grown so far). */
    public long memoryBytes() {
        long bytes = 8L * residues + 4L * queues + 8L * queues;
        for (long[] q : queue) {
            bytes += 8L * q.length;
        }
        return bytes;
    }

    /** The residue (0..H-1) of an IP key. */
    public int residueOf(long ipKey) {
        return (int) Math.floorMod(ipKey, (long) residues);
    }

    /**
     * Elementary steps counted by enqueue and next (one per call plus one per item written or copied, including
     * amortised queue growth); counted only when assertions are enabled, as a test probe that no operation walks
     * over H or B.
     */
    long work() {
        return work;
    }

    private boolean tally(long units) {
        work += units;
        return true;
    }

    /**
     * Checks the invariants of the class comment in O(B + H) (for tests and debugging).
     *
     * @throws IllegalStateException naming the broken invariant
     */
    public void checkInvariants() {
        long total = 0;
        for (int i = 0; i < queues; i++) {
            if (count[i] > residues / 2) {
                throw new IllegalStateException("queue " + i + " holds " + count[i] + " > H/2 items");
            }
            total += count[i];
        }
        if (total != size) {
            throw new IllegalStateException("size " + size + " != sum of queue lengths " + total);
        }
        for (int r = 0; r < residues; r++) {
            long n = nextStep[r];
            if (Math.floorMod(n, 2L) != (r & 1)) {
                throw new IllegalStateException("N[" + r + "] = " + n + " has the wrong parity");
            }
            if (n > t + queues + 2) {
                throw new IllegalStateException("N[" + r + "] = " + n + " beyond t + B + 2 = " + (t + queues + 2));
            }
        }
    }

    @Override
    public String toString() {
        return "PolitenessWheel[B=" + queues + ", H=" + residues + ", t=" + t + ", size=" + size + ", dropped="
                + dropped + "]";
    }
}
