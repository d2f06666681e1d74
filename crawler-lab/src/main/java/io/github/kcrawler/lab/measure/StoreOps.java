package io.github.kcrawler.lab.measure;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * State-store operations per fetched page, counted by RocksDB ({@link CountingRocksDbConfigSetter}) between the
 * start and the end of the measured crawl.
 *
 * @param total  reads + writes + seeks + nexts per page
 * @param reads  keys read per page
 * @param writes keys written (puts and deletes) per page
 * @param seeks  iterator seeks per page
 * @param nexts  iterator steps per page
 * @param stores total operations per page per store name, largest first
 */
public record StoreOps(double total, double reads, double writes, double seeks, double nexts,
                       Map<String, Double> stores) {
    public StoreOps {
        stores = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(stores));
    }

    /** The operations between two snapshots of {@link CountingRocksDbConfigSetter#counts()}, per page. */
    public static StoreOps between(Map<String, long[]> start, Map<String, long[]> end, long pages) {
        long[] sum = new long[4];
        Map<String, Long> perStore = new LinkedHashMap<>();
        for (Map.Entry<String, long[]> e : end.entrySet()) {
            long[] before = start.getOrDefault(e.getKey(), new long[4]);
            long storeTotal = 0;
            for (int i = 0; i < 4; i++) {
                long d = e.getValue()[i] - before[i];
                sum[i] += d;
                storeTotal += d;
            }
            perStore.put(e.getKey(), storeTotal);
        }
        double p = pages > 0 ? pages : Double.POSITIVE_INFINITY;
        Map<String, Double> stores = new LinkedHashMap<>();
        perStore.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()
                .thenComparing(Map.Entry.comparingByKey())).forEach(e -> stores.put(e.getKey(), e.getValue() / p));
        return new StoreOps((sum[0] + sum[1] + sum[2] + sum[3]) / p, sum[0] / p, sum[1] / p, sum[2] / p, sum[3] / p,
                stores);
    }
}
