package io.github.kcrawler.dedup.membership;

import io.github.kcrawler.dedup.store.FingerprintSet;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract every {@link UrlSeen} keeps, written once and run against each implementation (the way Kafka
 * tests its stores). Exact implementations must agree with a {@link HashSet} model on every call; a probabilistic
 * one may override {@link #exact()} and is then held only to "never admits a fingerprint twice".
 */
public abstract class UrlSeenContract {
    /** A fresh, empty URL-seen test. */
    protected abstract UrlSeen newSeenTest();

    /**
     * An exact fingerprint set on its own as a URL-seen test (new = added, forget = removed), so the contract checks
     * the set that the tiers of {@link UrlSeenTiers} rest on.
     */
    static UrlSeen exactOver(FingerprintSet set) {
        return new UrlSeen() {
            @Override
            public boolean testAndAdd(long fingerprint) {
                return set.add(fingerprint);
            }

            @Override
            public void forget(long fingerprint) {
                set.remove(fingerprint);
            }
        };
    }

    /** True if the implementation never answers "seen" for a fingerprint it was not given. */
    protected boolean exact() {
        return true;
    }

    @Test
    void newFingerprint_isNewOnce_thenSeen() {
        UrlSeen seen = newSeenTest();
        assertThat(seen.testAndAdd(42L)).isTrue();
        assertThat(seen.testAndAdd(42L)).isFalse();
        assertThat(seen.testAndAdd(42L)).isFalse();
    }

    @Test
    void forget_makesTheFingerprintNewAgain() {
        UrlSeen seen = newSeenTest();
        seen.testAndAdd(7L);
        seen.forget(7L);
        assertThat(seen.testAndAdd(7L)).isTrue();
        assertThat(seen.testAndAdd(7L)).isFalse();
    }

    @Test
    void forgettingAnUnknownFingerprint_changesNothing() {
        UrlSeen seen = newSeenTest();
        seen.testAndAdd(1L);
        seen.forget(2L);
        assertThat(seen.testAndAdd(1L)).isFalse();
        if (exact()) {
            assertThat(seen.testAndAdd(2L)).isTrue();
        }
    }

    @Test
    void extremeFingerprints_areDistinct() {
        UrlSeen seen = newSeenTest();
        long[] fps = {0L, -1L, 1L, Long.MIN_VALUE, Long.MAX_VALUE, 0x0100000000000000L, 0x00000000000000FFL};
        for (long fp : fps) {
            boolean isNew = seen.testAndAdd(fp);
            if (exact()) {
                assertThat(isNew).as("fingerprint %x", fp).isTrue();
            }
        }
        for (long fp : fps) {
            assertThat(seen.testAndAdd(fp)).as("fingerprint %x", fp).isFalse();
        }
    }

    @Test
    void randomOperations_agreeWithAnExactModel() {
        UrlSeen seen = newSeenTest();
        Set<Long> model = new HashSet<>();
        Random random = new Random(20240611L);
        for (int i = 0; i < 20_000; i++) {
            long fp = random.nextInt(2_000) * 0x9E3779B97F4A7C15L; // a small universe so repeats and forgets meet
            if (random.nextInt(10) == 0) {
                seen.forget(fp);
                model.remove(fp);
            } else {
                boolean expectedNew = model.add(fp);
                boolean actualNew = seen.testAndAdd(fp);
                if (exact() || !expectedNew) {
                    assertThat(actualNew).as("operation %d, fingerprint %x", i, fp).isEqualTo(expectedNew);
                }
            }
        }
    }
}
