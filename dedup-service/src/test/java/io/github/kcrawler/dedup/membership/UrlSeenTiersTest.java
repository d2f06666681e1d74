package io.github.kcrawler.dedup.membership;

import io.github.kcrawler.dedup.store.FingerprintSet;
import io.github.kcrawler.dedup.store.HashFingerprintSet;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The tiered URL-seen test: the paper's order, evictions into the filter, forget, counters and snapshots. */
class UrlSeenTiersTest {

    /** A store that counts its calls, to see which tier answered. */
    private static final class CountingStore implements FingerprintSet {
        final HashFingerprintSet set = new HashFingerprintSet();
        int adds;
        int removes;

        @Override
        public boolean add(long fingerprint) {
            adds++;
            return set.add(fingerprint);
        }

        @Override
        public boolean contains(long fingerprint) {
            return set.contains(fingerprint);
        }

        @Override
        public void remove(long fingerprint) {
            removes++;
            set.remove(fingerprint);
        }
    }

    private static StableBloomFilterLight sbfl() {
        return StableBloomFilterLight.forTargetFpr(1L << 16, 8, 1e-5, 2);
    }

    @Test
    void lruHit_answersWithoutTheFilterOrTheStore() {
        CountingStore store = new CountingStore();
        UrlSeenTiers seen = new UrlSeenTiers(4, sbfl(), store);
        assertThat(seen.testAndAdd(1L)).isTrue();
        assertThat(seen.testAndAdd(1L)).isFalse();
        assertThat(store.adds).isEqualTo(1);
        assertThat(seen.lruHits()).isEqualTo(1);
        assertThat(seen.sbflPositives()).isZero();
    }

    @Test
    void lruEviction_goesIntoTheFilter_whichThenAnswersForIt() {
        CountingStore store = new CountingStore();
        StableBloomFilterLight filter = sbfl();
        UrlSeenTiers seen = new UrlSeenTiers(2, filter, store);
        seen.testAndAdd(1L);
        seen.testAndAdd(2L);
        assertThat(filter.mightContain(1L)).isFalse();
        seen.testAndAdd(3L); // evicts 1 into the filter
        assertThat(filter.mightContain(1L)).isTrue();
        assertThat(seen.lru().contains(1L)).isFalse();
        int addsBefore = store.adds;
        assertThat(seen.testAndAdd(1L)).isFalse(); // answered by the filter
        assertThat(store.adds).isEqualTo(addsBefore);
        assertThat(seen.sbflPositives()).isEqualTo(1);
        assertThat(seen.lru().contains(1L)).isTrue(); // and back at the head of the LRU
    }

    @Test
    void filterIsAskedBeforeTheEvictedFingerprintIsPut() {
        // the filter is asked about the current fingerprint before the eviction it caused is inserted: with a
        // one-counter-per-element filter, a fingerprint colliding with the evicted one must still miss
        StableBloomFilterLight filter = new StableBloomFilterLight(64, 1, 0.0, 2, StableBloomFilterLight.Decrement.SWAR);
        long evicted = 5L;
        long pos = filter.positions(evicted)[0];
        long twin = 6L;
        while (filter.positions(twin)[0] != pos) {
            twin++;
        }
        UrlSeenTiers seen = new UrlSeenTiers(1, filter, new HashFingerprintSet());
        seen.testAndAdd(evicted);
        assertThat(seen.testAndAdd(twin)).isTrue(); // evicts 5 into the filter only after asking about the twin
        assertThat(filter.mightContain(twin)).isTrue();
    }

    @Test
    void storeDecides_whenBothCachesMiss() {
        CountingStore store = new CountingStore();
        UrlSeenTiers seen = new UrlSeenTiers(1, FingerprintFilter.disabled(), store);
        seen.testAndAdd(1L);
        seen.testAndAdd(2L); // evicts 1; no filter
        assertThat(seen.testAndAdd(1L)).isFalse(); // store hit
        assertThat(seen.storageLookups()).isEqualTo(3);
        assertThat(seen.storageHits()).isEqualTo(1);
        assertThat(seen.newUrls()).isEqualTo(2);
    }

    @Test
    void forget_clearsEveryTier_soTheUrlIsAdmittedAgain() {
        CountingStore store = new CountingStore();
        StableBloomFilterLight filter = sbfl();
        UrlSeenTiers seen = new UrlSeenTiers(1, filter, store);
        seen.testAndAdd(1L);
        seen.testAndAdd(2L); // 1 now in the filter and the store, 2 in the LRU and the store
        seen.forget(1L);
        seen.forget(2L);
        assertThat(filter.mightContain(1L)).isFalse();
        assertThat(seen.lru().contains(2L)).isFalse();
        assertThat(store.set.size()).isZero();
        assertThat(seen.testAndAdd(1L)).isTrue();
        assertThat(seen.testAndAdd(2L)).isTrue();
        assertThat(seen.forgets()).isEqualTo(2);
    }

    /**
     * Against exact sets: a fingerprint is never admitted twice between forgets, and a new one is skipped only by a
     * filter false positive (a skipped one may be admitted later, when it falls through to the store).
     */
    @Test
    void neverAdmitsTwice_andMissesFewNewUrls() {
        forAll(10, g -> neverAdmitsTwice_andMissesFewNewUrls(g.intIn(0, 2_000), g.anyLong()));
    }

    void neverAdmitsTwice_andMissesFewNewUrls(int lruSize, long seed) {
        UrlSeenTiers seen = new UrlSeenTiers(lruSize,
                StableBloomFilterLight.forTargetFpr(1L << 16, 8, 1e-4, 2), new HashFingerprintSet());
        Set<Long> admitted = new HashSet<>();
        Set<Long> tested = new HashSet<>();
        SplittableRandom random = new SplittableRandom(seed);
        long skippedNew = 0;
        for (int i = 0; i < 50_000; i++) {
            long fp = (long) (Math.pow(random.nextDouble(), 3) * 30_000) * 0x9E3779B97F4A7C15L; // skewed popularity
            if (random.nextInt(100) == 0) {
                seen.forget(fp);
                tested.remove(fp);
                admitted.remove(fp);
                continue;
            }
            boolean firstTest = tested.add(fp);
            if (seen.testAndAdd(fp)) {
                assertThat(admitted.add(fp)).as("admitted twice: %x", fp).isTrue();
            } else if (firstTest) {
                skippedNew++;
                assertThat(seen.sbflPositives()).as("only the filter may skip a new URL").isPositive();
            }
        }
        assertThat(skippedNew).isLessThanOrEqualTo(seen.sbflPositives());
        assertThat(skippedNew / (double) (seen.newUrls() + skippedNew)).isLessThan(0.002);
        assertThat(seen.tests()).isEqualTo(seen.lruHits() + seen.sbflPositives() + seen.storageLookups());
        assertThat(seen.storageLookups()).isEqualTo(seen.storageHits() + seen.newUrls());
    }

    @Test
    void snapshot_restoresBothCaches_andItsTag() throws IOException {
        UrlSeenTiers seen = new UrlSeenTiers(100, sbfl(), new HashFingerprintSet());
        for (long i = 0; i < 1_000; i++) {
            seen.testAndAdd(i * 0x9E3779B97F4A7C15L);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        seen.snapshotTo(bytes, 4242L);
        UrlSeenTiers restored = new UrlSeenTiers(100, sbfl(), new HashFingerprintSet());
        assertThat(restored.restoreFrom(new ByteArrayInputStream(bytes.toByteArray()))).isEqualTo(4242L);
        assertThat(restored.lru().toArrayMostRecentFirst()).containsExactly(seen.lru().toArrayMostRecentFirst());
        assertThat(((StableBloomFilterLight) restored.filter()).words)
                .isEqualTo(((StableBloomFilterLight) seen.filter()).words);
        assertThat(restored.probe(5 * 0x9E3779B97F4A7C15L)).isEqualTo(UrlSeenTiers.FILTER_POSITIVE);
    }

    @Test
    void snapshotOfAnotherGeometry_isRefused_andLeavesTheCachesCold() throws IOException {
        UrlSeenTiers seen = new UrlSeenTiers(10, sbfl(), new HashFingerprintSet());
        for (long i = 0; i < 100; i++) {
            seen.testAndAdd(i);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        seen.snapshotTo(bytes, 1L);
        UrlSeenTiers other = new UrlSeenTiers(10, StableBloomFilterLight.forTargetFpr(1L << 15, 8, 1e-5, 2),
                new HashFingerprintSet());
        assertThatThrownBy(() -> other.restoreFrom(new ByteArrayInputStream(bytes.toByteArray())))
                .isInstanceOf(IOException.class).hasMessageContaining("m=65536");
        assertThat(other.lru().size()).isZero();
        assertThat(((StableBloomFilterLight) other.filter()).zeroCounters()).isEqualTo(1L << 15);
        assertThatThrownBy(() -> other.restoreFrom(new ByteArrayInputStream(new byte[3])))
                .isInstanceOf(IOException.class);
    }

    @Test
    void config_buildsTheTiers_andAccountsTheirMemory() {
        UrlSeenTierConfig config = UrlSeenTierConfig.defaults();
        UrlSeenTiers seen = UrlSeenTiers.create(config, new HashFingerprintSet());
        assertThat(seen.memoryBytes()).isEqualTo(config.memoryBytes());
        assertThat(config.decrementsPerInsertion()).isBetween(84.0, 85.0);
        UrlSeenTierConfig lruOnly = new UrlSeenTierConfig(1000, 0, 8, 1e-5, 2);
        assertThat(lruOnly.newFilter()).isSameAs(FingerprintFilter.disabled());
        assertThatThrownBy(() -> new UrlSeenTierConfig(1000, 1000, 8, 1e-5, 2))
                .hasMessageContaining("url-seen-sbfl-counters").hasMessageContaining("1000");
        assertThatThrownBy(() -> new UrlSeenTierConfig(1000, 1L << 20, 8, 0.0, 2))
                .hasMessageContaining("url-seen-sbfl-fpr");
        assertThatThrownBy(() -> new UrlSeenTierConfig(-1, 1L << 20, 8, 0.01, 2))
                .hasMessageContaining("url-seen-lru-size");
    }
}
