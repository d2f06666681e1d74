package io.github.kcrawler.ranker.routing;

import io.github.kcrawler.common.topic.KeyPartitioner;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Groups the entries one input record (or one flush) sends to other partitions into one batch per target partition
 * (issue 19, record economy): the ranker writes one record per target partition instead of one per link. Kafka-free
 * apart from {@link KeyPartitioner}, which is Kafka's key hash and nothing else.
 *
 * <p>Each batch is keyed by the IP of its first entry; every entry of a batch has an IP that
 * {@link KeyPartitioner#partition hashes} to the same partition, so under Kafka's default partitioner the record
 * lands on the partition owning every entry's host (all crawler topics are co-partitioned and keyed by IP).
 *
 * <p>Invariants: {@link #drain} emits at most one batch per partition unless a group exceeds {@code maxEntries} or
 * {@code maxBytes} (estimated from the entries' text), in which case it is cut into the fewest batches within both
 * limits, entries kept in insertion order; after {@code drain} the batches are empty. The group lists are reused, so
 * a steady state allocates only the emitted batches.
 *
 * @param <E> entry type
 */
public final class PartitionBatches<E> {
    /** Receives one batch: the key it travels under and its entries (a fresh list the receiver may keep). */
    @FunctionalInterface
    public interface Emitter<E> {
        void emit(String key, List<E> entries);
    }

    private final int partitions;
    private final int maxEntries;
    private final long maxBytes;
    private final List<List<E>> groups;
    private final List<List<String>> keys;
    private final List<IntArrayList> sizes;
    private final long[] bytes;
    private final int[] touched;
    private int touchedCount;

    /**
     * @param partitions the partition count of the crawl's topics (> 0)
     * @param maxEntries most entries in one emitted batch (> 0)
     * @param maxBytes   most estimated bytes in one emitted batch (> 0); one entry larger than this still travels,
     *                   alone
     */
    public PartitionBatches(int partitions, int maxEntries, long maxBytes) {
        if (partitions <= 0 || maxEntries <= 0 || maxBytes <= 0) {
            throw new IllegalArgumentException("partitions, maxEntries and maxBytes must be > 0, were " + partitions
                    + ", " + maxEntries + ", " + maxBytes);
        }
        this.partitions = partitions;
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
        this.groups = new ArrayList<>(partitions);
        this.keys = new ArrayList<>(partitions);
        this.sizes = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            groups.add(new ArrayList<>());
            keys.add(new ArrayList<>());
            sizes.add(new IntArrayList());
        }
        this.bytes = new long[partitions];
        this.touched = new int[partitions];
    }

    public int partitions() {
        return partitions;
    }

    /** The partition owning {@code ip}, exactly as Kafka's default partitioner places a record keyed by it. */
    public int partitionOf(String ip) {
        return KeyPartitioner.partition(ip, partitions);
    }

    /**
     * Adds {@code entry} for the host {@code ip} to the batch of {@code partition}.
     *
     * @param partition {@code partitionOf(ip)}, passed in because the caller usually computed it already
     * @param size      estimated serialized size of the entry in bytes
     */
    public void add(int partition, String ip, E entry, int size) {
        assert partition == partitionOf(ip) : ip + " belongs to " + partitionOf(ip) + ", not " + partition;
        List<E> group = groups.get(partition);
        if (group.isEmpty()) {
            touched[touchedCount++] = partition;
        }
        group.add(Objects.requireNonNull(entry, "entry"));
        keys.get(partition).add(ip);
        sizes.get(partition).add(Math.max(0, size));
        bytes[partition] += Math.max(0, size);
    }

    public boolean isEmpty() {
        return touchedCount == 0;
    }

    /** Emits every non-empty group, in the order the partitions were first added to, and empties them. */
    public void drain(Emitter<E> emitter) {
        for (int t = 0; t < touchedCount; t++) {
            int p = touched[t];
            List<E> group = groups.get(p);
            List<String> groupKeys = keys.get(p);
            if (group.size() <= maxEntries && bytes[p] <= maxBytes) {
                emitter.emit(groupKeys.get(0), new ArrayList<>(group));
            } else {
                cut(group, groupKeys, sizes.get(p), emitter);
            }
            group.clear();
            groupKeys.clear();
            sizes.get(p).clear();
            bytes[p] = 0;
        }
        touchedCount = 0;
    }

    private void cut(List<E> group, List<String> groupKeys, IntArrayList groupSizes, Emitter<E> emitter) {
        int from = 0;
        while (from < group.size()) {
            int to = from + 1; // an entry larger than maxBytes travels alone
            long size = groupSizes.getInt(from);
            while (to < group.size() && to - from < maxEntries && size + groupSizes.getInt(to) <= maxBytes) {
                size += groupSizes.getInt(to);
                to++;
            }
            emitter.emit(groupKeys.get(from), new ArrayList<>(group.subList(from, to)));
            from = to;
        }
    }
}
