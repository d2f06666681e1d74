package io.github.kcrawler.dedup.membership;

import io.github.kcrawler.common.config.Settings;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Sizes of the two in-memory tiers of the URL-seen test, per partition (one stream task). They trade memory for
 * storage lookups only, never correctness (the store is exact); the filter's target false-positive rate is the
 * fraction of new URLs that reach the filter and are skipped anyway, so it is a crawl-coverage knob.
 *
 * <p>Defaults (laptop, a few partitions per instance): LRU 2^18 entries (~6.0 MB measured, 22.9 B/entry), SBFL
 * 2^25 2-bit counters (8 MiB), k = 8, FPR 10^-5 (the paper's conservative setting: p ≈ 84.7, some tens of URLs lost
 * per 10^6 misses at most) — about 14 MB per partition, {@link #memoryBytes()}. The paper's aggressive setting
 * (k = 4, FPR = 1%) saves more memory at equal hit rate but skips ~1% of the new URLs that miss the LRU.
 *
 * @param lruSize      LRU entries, 0..2^30 (0: no LRU)
 * @param sbflCounters SBFL counters m, 0 (no SBFL: LRU then store) or a power of two in [64, 2^32]
 * @param sbflHashes   SBFL hash positions k, 1..64
 * @param sbflFpr      target stable false-positive rate of the SBFL, (0, 0.5]; sets p by {@link OptimalP}
 * @param counterBits  bits per SBFL counter: 1, 2, 4 or 8 (Max = 2^d − 1)
 */
public record UrlSeenTierConfig(int lruSize, long sbflCounters, int sbflHashes, double sbflFpr, int counterBits) {
    public static final int DEFAULT_LRU_SIZE = 1 << 18;
    public static final long DEFAULT_SBFL_COUNTERS = 1L << 25;
    public static final int DEFAULT_SBFL_HASHES = 8;
    public static final double DEFAULT_SBFL_FPR = 1e-5;
    public static final int DEFAULT_COUNTER_BITS = 2;

    /** Keys with their defaults, as {@code --help} prints them. */
    public static final Map<String, String> DEFAULTS;
    public static final Set<String> KEYS;

    static {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("url-seen-lru-size", Integer.toString(DEFAULT_LRU_SIZE));
        d.put("url-seen-sbfl-counters", Long.toString(DEFAULT_SBFL_COUNTERS));
        d.put("url-seen-sbfl-hashes", Integer.toString(DEFAULT_SBFL_HASHES));
        d.put("url-seen-sbfl-fpr", Double.toString(DEFAULT_SBFL_FPR));
        d.put("url-seen-sbfl-counter-bits", Integer.toString(DEFAULT_COUNTER_BITS));
        DEFAULTS = Collections.unmodifiableMap(d);
        KEYS = Collections.unmodifiableSet(d.keySet());
    }

    public UrlSeenTierConfig {
        if (lruSize < 0 || lruSize > LruFingerprintCache.MAX_CAPACITY) {
            throw new IllegalArgumentException("url-seen-lru-size must be in 0..2^30, was " + lruSize);
        }
        if (sbflCounters != 0 && (sbflCounters < 64 || sbflCounters > StableCounterFilter.MAX_COUNTERS
                || Long.bitCount(sbflCounters) != 1)) {
            throw new IllegalArgumentException(
                    "url-seen-sbfl-counters must be 0 or a power of two in [64, 2^32], was " + sbflCounters);
        }
        if (sbflHashes < 1 || sbflHashes > 64) {
            throw new IllegalArgumentException("url-seen-sbfl-hashes must be in 1..64, was " + sbflHashes);
        }
        if (!(sbflFpr > 0.0 && sbflFpr <= 0.5)) {
            throw new IllegalArgumentException("url-seen-sbfl-fpr must be in (0, 0.5], was " + sbflFpr);
        }
        if (counterBits != 1 && counterBits != 2 && counterBits != 4 && counterBits != 8) {
            throw new IllegalArgumentException("url-seen-sbfl-counter-bits must be 1, 2, 4 or 8, was " + counterBits);
        }
        if (sbflCounters != 0 && sbflHashes >= sbflCounters) {
            throw new IllegalArgumentException("url-seen-sbfl-hashes (" + sbflHashes
                    + ") must be smaller than url-seen-sbfl-counters, was " + sbflCounters);
        }
    }

    public static UrlSeenTierConfig defaults() {
        return new UrlSeenTierConfig(DEFAULT_LRU_SIZE, DEFAULT_SBFL_COUNTERS, DEFAULT_SBFL_HASHES, DEFAULT_SBFL_FPR,
                DEFAULT_COUNTER_BITS);
    }

    public static UrlSeenTierConfig from(Settings s) {
        return new UrlSeenTierConfig(s.integer("url-seen-lru-size", DEFAULT_LRU_SIZE),
                s.longValue("url-seen-sbfl-counters", DEFAULT_SBFL_COUNTERS),
                s.integer("url-seen-sbfl-hashes", DEFAULT_SBFL_HASHES),
                s.doubleValue("url-seen-sbfl-fpr", DEFAULT_SBFL_FPR),
                s.integer("url-seen-sbfl-counter-bits", DEFAULT_COUNTER_BITS));
    }

    /** p, the counters decremented per SBFL insertion (0 if there is no SBFL). */
    public double decrementsPerInsertion() {
        return sbflCounters == 0 ? 0.0 : OptimalP.of(sbflCounters, sbflHashes, sbflFpr, (1 << counterBits) - 1);
    }

    /** A fresh, empty SWAR SBFL of this geometry, or the disabled filter. */
    public FingerprintFilter newFilter() {
        return sbflCounters == 0 ? FingerprintFilter.disabled()
                : new StableBloomFilterLight(sbflCounters, sbflHashes, decrementsPerInsertion(), counterBits,
                        StableBloomFilterLight.Decrement.SWAR);
    }

    /** Bytes the LRU and the SBFL of one partition hold (array sizes, as {@link LruFingerprintCache#memoryBytes()}). */
    public long memoryBytes() {
        long sbfl = sbflCounters == 0 ? 0 : 16L + sbflCounters * counterBits / 8;
        return LruFingerprintCache.memoryBytesFor(lruSize) + sbfl;
    }
}
