package io.github.kcrawler.ranker.processor;

import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The persisted key layout of the score stores: it must never change, or restarted tasks would lose scores. */
class FingerprintKeysTest {
    @Test
    void key_isBigEndian_andRoundTrips() {
        assertThat(FingerprintKeys.key(0x0102030405060708L).get()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
        Random random = new Random(3L);
        for (long fp : new long[] {0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, random.nextLong(), random.nextLong()}) {
            assertThat(FingerprintKeys.fingerprint(FingerprintKeys.key(fp))).isEqualTo(fp);
        }
    }

    @Test
    void fingerprint_rejectsKeysOfAnotherLength() {
        assertThatThrownBy(() -> FingerprintKeys.fingerprint(Bytes.wrap(new byte[3])))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 3");
    }
}
