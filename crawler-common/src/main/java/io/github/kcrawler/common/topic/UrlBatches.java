package io.github.kcrawler.common.topic;

import io.github.kcrawler.common.config.Check;
import io.github.kcrawler.common.config.Setting;
import io.github.kcrawler.common.config.SettingSet;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.model.AdmittedUrls;
import io.github.kcrawler.common.model.DiscoveredUrls;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Groups URLs by the partition their IP belongs to and cuts each group into records of bounded size: how a page's
 * outlinks, a list of seeds, or the admissions of one discovered record become one record per target partition
 * instead of one per URL (issue 19).
 *
 * <p>Invariants: (1) every entry of a produced record has {@code KeyPartitioner.partition(entry.ip, n) ==
 * KeyPartitioner.partition(record key, n)} — the key is the IP of the record's first entry, so Kafka's default
 * partitioner puts the record exactly where each of its entries would have gone alone (co-partitioning holds);
 * (2) every entry appears in exactly one record, and entries keep their input order within a partition;
 * (3) no record has more than {@link Limits#maxEntries} entries or an estimated JSON size above
 * {@link Limits#maxBytes} — unless a single entry is larger by itself, which then travels alone (URL length is
 * bounded upstream by the scope's {@code max-url-length}). The byte estimate is an upper bound of the compact JSON
 * ({@link #entryBytes}), so with {@code maxBytes} well under the topic's {@code max.message.bytes} (1 MiB by
 * default) a page with 100,000 links still never produces a record the broker refuses.
 */
public final class UrlBatches {
    /** A record value with the key it must be produced under. */
    public record Keyed<V>(String key, V value) {
    }

    /**
     * Where a group is cut: the settings {@code batch-max-urls} and {@code batch-max-bytes}, declared here once for
     * every service that writes URL batches (fetcher and seeds: discovered; dedup: admitted).
     *
     * @param maxEntries entries per record ({@code batch-max-urls}), 1..1,000,000
     * @param maxBytes   estimated JSON bytes per record ({@code batch-max-bytes}), {@link #MIN_BYTES}..
     *                   {@link #MAX_BYTES}; keep it below the topics' {@code max.message.bytes} and the producers'
     *                   {@code max.request.size} (both 1 MiB by default)
     */
    public record Limits(int maxEntries, int maxBytes) {
        public static final int MIN_BYTES = 4 * 1024;
        public static final int MAX_BYTES = 1_000_000;
        public static final int DEFAULT_MAX_ENTRIES = 1000;
        /** A quarter of Kafka's default 1 MiB message limit. */
        public static final int DEFAULT_MAX_BYTES = 256 * 1024;
        public static final Setting<Integer> MAX_URLS =
                Setting.integer("batch-max-urls", DEFAULT_MAX_ENTRIES,
                        Check.range(1, 1_000_000),
                        "URL entries in one record of URLs; more are cut into several records");
        public static final Setting<Integer> MAX_URL_BYTES =
                Setting.integer("batch-max-bytes", DEFAULT_MAX_BYTES,
                        Check.range(MIN_BYTES, MAX_BYTES),
                        "estimated JSON bytes in one record of URLs; keep below the topics' max.message.bytes");
        /** Both keys, declared once here for every service that writes URL batches. */
        public static final SettingSet SETTINGS =
                SettingSet.of(MAX_URLS, MAX_URL_BYTES);

        public Limits {
            MAX_URLS.check(maxEntries);
            MAX_URL_BYTES.check(maxBytes);
        }

        /** Reads {@code batch-max-urls} and {@code batch-max-bytes} (defaults where unset). */
        public static Limits from(Settings s) {
            return new Limits(s.get(MAX_URLS), s.get(MAX_URL_BYTES));
        }
    }

    /** 1,000 entries or 256 KiB. */
    public static final Limits DEFAULT_LIMITS = new Limits(Limits.DEFAULT_MAX_ENTRIES, Limits.DEFAULT_MAX_BYTES);

    /** JSON bytes of a record without its entries, beyond its source URL ({@code v}, depth, time, share, brackets). */
    static final int HEADER_BYTES = 128;
    /** JSON bytes of an entry beyond its URL and IP (field names, quotes, a 20-digit fingerprint, commas). */
    static final int ENTRY_OVERHEAD_BYTES = 64;

    private UrlBatches() {
    }

    /**
     * The discovered-URL records for {@code entries} found on {@code source} at {@code depth}: one per target
     * partition among {@code partitions}, more where a group exceeds {@code limits}.
     *
     * @throws IllegalArgumentException if an entry has no IP (the caller's mistake: no IP, no partition)
     */
    public static List<Keyed<DiscoveredUrls>> discovered(List<DiscoveredUrls.Entry> entries, int partitions,
                                                         String source, int depth, long discoveredAt, Limits limits) {
        return discovered(entries, partitions, source, depth, discoveredAt, null, limits);
    }

    /** As {@link #discovered(List, int, String, int, long, Limits)}, every record carrying {@code share}. */
    public static List<Keyed<DiscoveredUrls>> discovered(List<DiscoveredUrls.Entry> entries, int partitions,
                                                         String source, int depth, long discoveredAt, Double share,
                                                         Limits limits) {
        int header = HEADER_BYTES + (source == null ? 0 : jsonBytes(source));
        return group(entries, partitions, limits, header, DiscoveredUrls.Entry::ip,
                e -> entryBytes(e.url(), e.ip()),
                batch -> DiscoveredUrls.of(source, depth, discoveredAt, batch, share));
    }

    /** The admitted-URL records for {@code entries} at {@code depth}, grouped and cut like {@link #discovered}. */
    public static List<Keyed<AdmittedUrls>> admitted(List<AdmittedUrls.Entry> entries, int partitions, int depth,
                                                     Limits limits) {
        return admitted(entries, partitions, depth, null, limits);
    }

    /** As {@link #admitted(List, int, int, Limits)}, every record carrying {@code share}. */
    public static List<Keyed<AdmittedUrls>> admitted(List<AdmittedUrls.Entry> entries, int partitions, int depth,
                                                     Double share, Limits limits) {
        return group(entries, partitions, limits, HEADER_BYTES, AdmittedUrls.Entry::ip,
                e -> entryBytes(e.url(), e.ip()), batch -> AdmittedUrls.of(depth, batch, share));
    }

    private static <E, V> List<Keyed<V>> group(List<E> entries, int partitions, Limits limits, int headerBytes,
                                               Function<E, String> ipOf, java.util.function.ToIntFunction<E> bytesOf,
                                               Function<List<E>, V> make) {
        if (entries.isEmpty()) {
            return List.of();
        }
        // Per partition in order of first appearance; one list per partition, not per entry.
        Map<Integer, List<E>> byPartition = new LinkedHashMap<>();
        String lastIp = null;
        List<E> last = null;
        for (E e : entries) {
            String ip = ipOf.apply(e);
            if (ip == null) {
                throw new IllegalArgumentException("an entry without an IP has no partition: " + e);
            }
            if (!ip.equals(lastIp)) { // links of one host come in runs: hash each run once
                last = byPartition.computeIfAbsent(KeyPartitioner.partition(ip, partitions), p -> new ArrayList<>());
                lastIp = ip;
            }
            last.add(e);
        }
        List<Keyed<V>> out = new ArrayList<>(byPartition.size());
        for (List<E> group : byPartition.values()) {
            assert onePartition(group, ipOf, partitions) : "a group spans partitions";
            int from = 0;
            long bytes = headerBytes;
            for (int i = 0; i < group.size(); i++) {
                int b = bytesOf.applyAsInt(group.get(i));
                if (i > from && (i - from >= limits.maxEntries() || bytes + b > limits.maxBytes())) {
                    out.add(cut(group, from, i, ipOf, make));
                    from = i;
                    bytes = headerBytes;
                }
                bytes += b;
            }
            out.add(cut(group, from, group.size(), ipOf, make));
        }
        return out;
    }

    private static <E, V> Keyed<V> cut(List<E> group, int from, int to, Function<E, String> ipOf,
                                       Function<List<E>, V> make) {
        List<E> part = from == 0 && to == group.size() ? group : group.subList(from, to);
        return new Keyed<>(ipOf.apply(part.get(0)), make.apply(part));
    }

    /** Invariant (1), for asserts: every entry of {@code part} is on the partition of its first entry's IP. */
    private static <E> boolean onePartition(List<E> part, Function<E, String> ipOf, int partitions) {
        int p = KeyPartitioner.partition(ipOf.apply(part.get(0)), partitions);
        for (E e : part) {
            if (KeyPartitioner.partition(ipOf.apply(e), partitions) != p) {
                return false;
            }
        }
        return true;
    }

    /** An upper bound of the compact JSON bytes of one entry with this URL and IP. */
    public static int entryBytes(String url, String ip) {
        return ENTRY_OVERHEAD_BYTES + jsonBytes(url) + (ip == null ? 0 : jsonBytes(ip));
    }

    /** An upper bound of the bytes of {@code s} as a JSON string body in UTF-8 (escapes counted at 6 bytes). */
    static int jsonBytes(String s) {
        if (s == null) {
            return 0;
        }
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            n += c < 0x20 || c == '"' || c == '\\' ? 6 : c < 0x80 ? 1 : 3;
        }
        return n;
    }
}
