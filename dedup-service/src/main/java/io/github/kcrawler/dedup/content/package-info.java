/**
 * Content-duplicate detection by paper 001's IMP-CB Filter (Wu Jiaqi et al., "基于 Counting Bloom Filter
 * 的海量网页快速去重研究", {@code ../shared/seeds/001_27eb44211cbeca99.txt}; DESIGN §4.2): identical page bodies
 * across URLs, by the 128-bit fingerprint of the normalised body. {@code ImpCbFilter} puts a {@code
 * CountingBloomFilter} (4-bit counters, the paper's k = 8 and m/N = 20) in front of a fingerprint DB ({@code
 * ContentFingerprintDb}, records encoded by {@code ContentRecord}: format version, refCount, the k counter positions),
 * so that a new body, the common case, costs no DB read. Removal, which the paper gives only for saturated counters,
 * is completed with {@code SaturatedCounts}, an exact sparse count of the positions whose counter is saturated.
 * {@code InMemoryContentFingerprintDb} is the heap DB of the tests; the service's DB, a Kafka Streams store
 * ({@code KeyValueContentFingerprintDb}), and the plain RocksDB one of the benchmark ({@code
 * RocksDbContentFingerprintDb}) live in {@code dedup.store}.
 *
 * <p>Invariants ({@code ImpCbFilter.checkInvariants}, property-tested against an exact model): every counter equals
 * min(t(p), 15), t(p) being the references to position p among the stored records, hence no false negative; the
 * index of saturated counts holds p exactly when counter(p) is 15, with value t(p); every stored record's positions are
 * those the filter computes for its key. The DB is written before the counters change, so a failed write leaves
 * both as they were. Record decoding is total: invalid input is reported, never thrown. Hot paths take the fingerprint
 * as two {@code long}s and allocate nothing; one instance per stream task.
 *
 * <p>No Kafka, no RocksDB: the package imports neither (crawler-lab's {@code LayeringTest} enforces it).
 */
package io.github.kcrawler.dedup.content;
