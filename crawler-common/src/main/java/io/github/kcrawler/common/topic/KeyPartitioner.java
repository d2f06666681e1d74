package io.github.kcrawler.common.topic;

import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.utils.Utils;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The partition Kafka's default producer partitioner gives a record with a non-null String key:
 * {@code toPositive(murmur2(utf8(key))) % partitions}. Every crawler topic is keyed by host IP and has the same
 * partition count (DESIGN §2), so this tells, without a producer, which partition — and so which stream task —
 * owns a key. Services use it to group a page's records by target partition and to do in place the work whose
 * source and target share a partition.
 *
 * <p>Invariant: {@code partition(key, n) == BuiltInPartitioner.partitionForKey(bytes, n)} for every key and n;
 * {@link #checkAgainstKafka()} verifies it at start-up against the client library actually loaded, so a Kafka
 * upgrade that changed the hash would stop the service instead of silently mis-routing work.
 */
public final class KeyPartitioner {
    private KeyPartitioner() {
    }

    /** The partition of {@code key} among {@code partitions}, exactly as Kafka's default partitioner computes it. */
    public static int partition(String key, int partitions) {
        if (partitions <= 0) {
            throw new IllegalArgumentException("partitions must be > 0, was " + partitions);
        }
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /**
     * The entries whose IP is ({@code same}) or is not on {@code key}'s partition among {@code partitions}, in order.
     * The fetcher leaves out of its discovered records the URLs a page's result carries, and dedup takes exactly
     * those from the result (issue 19); both sides select with this. Links of one host come in runs, so an IP is
     * hashed once per run.
     */
    public static <E> List<E> onPartitionOf(String key, List<E> entries, Function<E, String> ipOf, int partitions,
                                            boolean same) {
        int own = partition(key, partitions);
        List<E> out = new ArrayList<>(entries.size());
        String lastIp = null;
        boolean lastOwn = false;
        for (E e : entries) {
            String ip = ipOf.apply(e);
            if (!ip.equals(lastIp)) {
                lastIp = ip;
                lastOwn = partition(ip, partitions) == own;
            }
            if (lastOwn == same) {
                out.add(e);
            }
        }
        return out;
    }

    /**
     * Compares {@link #partition} with the loaded Kafka client's own {@code BuiltInPartitioner.partitionForKey} on
     * a fixed set of keys and partition counts; throws {@link IllegalStateException} on the first difference.
     */
    public static void checkAgainstKafka() {
        String[] keys = {"127.0.0.1", "10.1.2.3", "::1", "2001:db8::17", "", "127.2.0.44", "192.168.255.255"};
        for (int n : new int[]{1, 2, 3, 4, 7, 12, 64, 1000}) {
            for (String key : keys) {
                int ours = partition(key, n);
                int kafka = BuiltInPartitioner.partitionForKey(key.getBytes(StandardCharsets.UTF_8), n);
                if (ours != kafka) {
                    throw new IllegalStateException("KeyPartitioner disagrees with Kafka's partitioner for key '"
                            + key + "' and " + n + " partitions: " + ours + " vs " + kafka);
                }
            }
        }
    }
}
