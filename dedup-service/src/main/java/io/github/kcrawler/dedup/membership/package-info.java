/**
 * The URL-seen test of paper 000 (Kubota, Ueda, Yamana, "Efficient Duplicated URL Detection for Web Crawlers",
 * {@code ../shared/seeds/000_3fdcccb020a6c8b3.txt}; DESIGN §4.1): has this 64-bit URL fingerprint been admitted
 * before? The cascade {@code UrlSeenTiers} asks, in the paper's order (§4.3, Fig. 4), an LRU cache of
 * fingerprints ({@code LruFingerprintCache}), a Stable Bloom Filter Light fed by the LRU's evictions
 * ({@code StableBloomFilterLight}, §4.2) and the exact fingerprint set (RocksDB in the service, behind an interface),
 * all behind {@code UrlSeen}; the exact set alone, the baseline the cascade is measured against, is the lab's
 * ({@code io.github.kcrawler.lab.baselines.dedup.ExactUrlSeen}).
 * The Stable Bloom Filter of Deng &amp; Rafiei ({@code StableBloomFilter}, random decrements drawn from
 * {@code MersenneTwister64} as the paper did), the number p of decrements per insertion ({@code OptimalP}, the
 * paper's eq. (3) as corrected in DESIGN §4.1) and the tiers' sizes ({@code UrlSeenTierConfig}) complete it.
 *
 * <p>Invariants the classes state and test: a fingerprint is admitted at most once between forgets, because only the
 * exact store admits; the filter tiers trade memory for store lookups, never correctness, their only error being a
 * new URL skipped at the filter's stable false-positive rate; forgetting zeroes an element's k counters, which can
 * only add false negatives; in {@code StableCounterFilter} m is a power of two, a fingerprint's k positions are
 * distinct, and the fractional p is carried in 32.32 fixed point, so exactly {@code floor(n·p̂ + carry)} counters are
 * decremented over n insertions; SBFL's SWAR decrement equals its scalar one. Everything is on primitive arrays,
 * allocation-free per fingerprint, and confined to one stream thread.
 *
 * <p>No Kafka, no RocksDB: the package imports neither (crawler-lab's {@code LayeringTest} enforces it); the
 * dedup-service's processors and stores adapt it to Streams.
 */
package io.github.kcrawler.dedup.membership;
