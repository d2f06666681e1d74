package io.github.kcrawler.scheduler.politeness;

import io.github.kcrawler.scheduler.memory.ChunkedIntArray;
import io.github.kcrawler.scheduler.memory.ChunkedLongArray;

import it.unimi.dsi.fastutil.HashCommon;

import java.util.Locale;

/**
 * The memory bound of one partition's {@link WheelFrontier}, all of it, in one place: how many URLs it indexes in
 * memory at most ({@link #urls()}) and how many heap bytes its arrays and tables can reach ({@link #bytes()}),
 * computed from its parameters (B {@code wheel-queues}, H {@code wheel-residues}, {@code max-pending},
 * {@code score-cache-size}). {@link WheelFrontier#memoryBytes()} counts the same things from the live arrays, and
 * {@code FrontierBoundTest} checks at 10× the bound's URL count that neither the count nor the bytes ever exceed it.
 *
 * <h2>What the paper states (paper 004, §3.1–3.3; DESIGN §4.5)</h2>
 * The politeness wheel holds at most {@code B·H/2} URLs whatever the size of the web ({@code B} FIFO queues of at most
 * {@code H/2} URLs each, one per residue of the step's parity) plus the array {@code N[0..H-1]}; a URL whose
 * residue has no free step is dropped. Here a URL in the wheel is an 8-byte handle, so the wheel is at most
 * {@code 8·H + 12·B + B·(16 + 8·H/2)} bytes ({@link #wheelBytes()}, with the queues' array headers), plus the
 * {@code 12·H/2} bytes of the step's batch buffers.
 *
 * <h2>What we add (ours), and its bound</h2>
 * <ul>
 *   <li><b>PRIORITY order</b>: the priority pool ({@link PriorityFront}) indexes every URL of the frontier in
 *   memory — the URLs waiting for the wheel <em>and</em> those placed in it (held) — so {@code max-pending} bounds
 *   the whole frontier: {@code urls = max-pending + 1} (the one fingerprint the pool reserves, {@link
 *   PriorityFront#NONE}, lives in a side slot). The default {@code max-pending} is {@code B·H/2} at the default
 *   B = H = 1,024 (524,288), so by default the whole frontier holds what the paper's wheel alone may hold. A URL
 *   beyond the bound is not dropped: it is deferred to the {@link Spill} (the scheduler's durable pending store) and
 *   taken back, best first, as slots free — the frontier keeps no per-URL data about it. Bytes: the pool's arrays,
 *   allocated up front ({@link PriorityFront#memoryBytes(int)}: 28 bytes a slot plus a hash table of 2–4 ints a
 *   slot), and per slot the URL's admission sequence and IP id (12 bytes, in 32 KiB chunks).</li>
 *   <li><b>FIFO order</b> (the paper's scheduler): the wheel is the frontier; {@code urls = B·H/2} side slots
 *   (28 bytes each plus the fingerprint table). URLs restored after a restart that the wheel cannot take at once wait
 *   in an overflow queue; there are no more of them than were pending before, so the bound holds as long as B and H
 *   were not lowered across the restart.</li>
 *   <li>The <b>IP table</b> ({@link IpTable}): one entry per IP with a URL in memory, so at most {@code urls}
 *   entries: 20 bytes an id, a text-to-id table, and the IP's {@code String} ({@code 40 + 2·}{@value #MAX_IP_CHARS}
 *   bytes at most: the scheduler refuses longer IP keys where they enter).</li>
 *   <li>The <b>score cache</b>: scores that arrived for URLs not pending yet (or deferred), at most
 *   {@code score-cache-size} entries, oldest dropped first (24 bytes a table slot).</li>
 * </ul>
 *
 * <h2>How bytes are counted</h2>
 * Array payloads at their capacity (references 8 bytes), 16 bytes per array object, fastutil hash tables at their
 * table size (which grows by doubling once the load passes 3/4, and never beyond the smallest power of two whose
 * 3/4 exceeds the most entries they hold), growable lists at twice what they hold. Fixed-size objects (the frontier,
 * its pacer) are left out: a few hundred bytes.
 *
 * @param urls            most URLs held in memory (pool + side slots, or the wheel's side slots in FIFO order)
 * @param wheelUrls       the paper's bound: most URLs in the wheel, B·H/2 (a subset of {@code urls} in PRIORITY order)
 * @param bytes           most heap bytes of the whole frontier: the sum of the parts below
 * @param wheelBytes      the paper's structure: N, the B queues at H/2 handles each, the batch buffers
 * @param indexBytes      ours: the priority pool with its per-slot sequence and IP id (PRIORITY), or the side slots
 *                        holding every URL (FIFO), and the overflow queue
 * @param ipBytes         ours: the IP table and the IPs' strings
 * @param scoreCacheBytes ours: the score cache
 */
public record FrontierBound(WheelOrder order, int queues, int residues, int poolCapacity, int scoreCache,
                            long urls, long wheelUrls, long bytes, long wheelBytes, long indexBytes, long ipBytes,
                            long scoreCacheBytes) {
    /** Longest IP text the bound allows for (the scheduler refuses longer record keys). */
    public static final int MAX_IP_CHARS = 64;

    /** The bound of a {@link WheelFrontier} with these parameters (with a {@link Spill} in PRIORITY order). */
    public static FrontierBound of(WheelOrder order, int queues, int residues, int poolCapacity,
                                   int scoreCache) {
        long wheelUrls = (long) queues * (residues / 2);
        long wheelBytes = 8L * residues + 12L * queues + queues * (16 + 8L * (residues / 2)) + 12L * (residues / 2)
                + 32;
        long urls;
        long index;
        if (order == WheelOrder.PRIORITY) {
            urls = poolCapacity + 1L;
            index = PriorityFront.memoryBytes(poolCapacity) + chunked(poolCapacity, 8, ChunkedLongArray.CHUNK)
                    + chunked(poolCapacity, 4, ChunkedIntArray.CHUNK) + sideBytes(1) + 16 + 4L * 4
                    + ParkedUrls.memoryBytes(residues) // the lookahead's parked lists and per-residue counts, if any
                    + ResidueFlights.memoryBytes(residues);
        } else {
            urls = wheelUrls;
            index = sideBytes(urls) + 16 + 4L * Math.max(4, 2 * pow2(urls));
        }
        long ips = 20L * Math.max(16, pow2(urls)) + 3 * 16 + hashTable(urls, 12) + 16 + 4L * (2 * Math.max(16,
                pow2(urls)) + 10) + urls * (40L + 2L * MAX_IP_CHARS);
        long cache = hashTable(scoreCache + 1L, 24) + 16;
        return new FrontierBound(order, queues, residues, poolCapacity, scoreCache, urls, wheelUrls,
                wheelBytes + index + ips + cache, wheelBytes, index, ips, cache);
    }

    /** Bytes per URL of the bound: {@link #bytes()} / {@link #urls()}. */
    public double bytesPerUrl() {
        return bytes / (double) urls;
    }

    /** The bound in a line, for the log and the documentation. */
    public String describe() {
        return String.format(Locale.ROOT, "frontier bound per partition (%s): %,d URLs in memory (the paper's wheel: "
                        + "%,d = B·H/2 of them at most), %,d bytes (%.1f MiB: wheel %,d [paper 004], index %,d, IP "
                        + "table %,d, score cache %,d [ours]); beyond it URLs wait in the durable spill",
                order.name().toLowerCase(Locale.ROOT), urls, wheelUrls, bytes, bytes / 1048576.0, wheelBytes,
                indexBytes, ipBytes, scoreCacheBytes);
    }

    /** PendingSlots with at most {@code slots} live slots. */
    private static long sideBytes(long slots) {
        long len = Math.max(64, pow2(slots));
        return 28L * len + 4 * 16 + hashTable(slots, 12) + 16 + 4L * (2 * len + 10);
    }

    /** A fastutil open hash table holding at most {@code entries}: {@code slotBytes} per slot, n + 1 slots. */
    private static long hashTable(long entries, int slotBytes) {
        long n = Math.max(32, HashCommon.bigArraySize(entries + 1, 0.75f)); // 32: fastutil's default table
        return slotBytes * (n + 1) + 3 * 16;
    }

    /** A chunked array of at most {@code size} entries of {@code width} bytes. */
    private static long chunked(long size, int width, int chunk) {
        long need = (size + chunk - 1) / chunk;
        return need * (16 + (long) width * chunk) + 16 + 8L * Math.max(4, 2 * need);
    }

    private static long pow2(long n) {
        return n <= 1 ? 1 : Long.highestOneBit(n - 1) << 1;
    }
}
