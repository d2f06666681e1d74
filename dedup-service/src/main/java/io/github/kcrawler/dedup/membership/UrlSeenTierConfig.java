package io.github.kcrawler.dedup.membership;

import io.github.kcrawler.common.config.Check;
import io.github.kcrawler.common.config.Setting;
import io.github.kcrawler.common.config.SettingSet;
import io.github.kcrawler.common.config.Settings;

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
    public static final Setting<Integer> LRU_SIZE = Setting.integer("url-seen-lru-size", 1 << 18,
            Check.range(0, LruFingerprintCache.MAX_CAPACITY, "0..2^30"),
            "LRU entries of recently seen URL fingerprints per partition (<= 24 B each; 0 = none)");
    public static final Setting<Long> SBFL_COUNTERS = Setting.longValue("url-seen-sbfl-counters", 1L << 25,
            Check.of(m -> m == 0 || (m >= 64 && m <= StableCounterFilter.MAX_COUNTERS && Long.bitCount(m) == 1),
                    "must be 0 or a power of two in [64, 2^32]"),
            "Stable Bloom Filter Light counters per partition (paper 000; 0 = none)");
    public static final Setting<Integer> SBFL_HASHES = Setting.integer("url-seen-sbfl-hashes", 8, Check.range(1, 64),
            "SBFL hash positions k (smaller than url-seen-sbfl-counters)");
    public static final Setting<Double> SBFL_FPR = Setting.decimal("url-seen-sbfl-fpr", 1e-5,
            Check.of(f -> f > 0.0 && f <= 0.5, "must be in (0, 0.5]"),
            "target stable false-positive rate of the SBFL: the share of new URLs skipped; sets the decrement rate p");
    public static final Setting<Integer> COUNTER_BITS = Setting.integer("url-seen-sbfl-counter-bits", 2,
            Check.of(d -> d == 1 || d == 2 || d == 4 || d == 8, "must be 1, 2, 4 or 8"), "bits per SBFL counter");
    /** The keys, in --help order. */
    public static final SettingSet SETTINGS = SettingSet.of(LRU_SIZE, SBFL_COUNTERS, SBFL_HASHES, SBFL_FPR,
            COUNTER_BITS);

    /** Keys with their defaults, as {@code --help} prints them. */
    public static final Map<String, String> DEFAULTS = SETTINGS.defaults();
    public static final Set<String> KEYS = SETTINGS.keys();

    public UrlSeenTierConfig {
        LRU_SIZE.check(lruSize);
        SBFL_COUNTERS.check(sbflCounters);
        SBFL_HASHES.check(sbflHashes);
        SBFL_FPR.check(sbflFpr);
        COUNTER_BITS.check(counterBits);
        if (sbflCounters != 0 && sbflHashes >= sbflCounters) {
            throw new IllegalArgumentException("url-seen-sbfl-hashes (" + sbflHashes
                    + ") must be smaller than url-seen-sbfl-counters, was " + sbflCounters);
        }
    }

    public static UrlSeenTierConfig defaults() {
        return from(Settings.empty());
    }

    public static UrlSeenTierConfig from(Settings s) {
        return new UrlSeenTierConfig(s.get(LRU_SIZE), s.get(SBFL_COUNTERS), s.get(SBFL_HASHES), s.get(SBFL_FPR),
                s.get(COUNTER_BITS));
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
