package io.github.kcrawler.dedup.store;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The persisted layout of the fingerprint store: it must never change, or restarted tasks would forget URLs. */
class KeyValueFingerprintSetTest {
    @Test
    void key_isTheFingerprintBigEndian_soStoreOrderIsUnsignedFingerprintOrder() {
        assertThat(KeyValueFingerprintSet.key(0x0102030405060708L).get())
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(KeyValueFingerprintSet.key(-1L).get()).containsOnly((byte) 0xff).hasSize(8);
        assertThat(KeyValueFingerprintSet.key(1L).compareTo(KeyValueFingerprintSet.key(Long.MIN_VALUE))).isNegative();
    }

    @Test
    void marker_isFormatVersionOne() {
        assertThat(KeyValueFingerprintSet.MARKER).containsExactly(1);
    }
}
