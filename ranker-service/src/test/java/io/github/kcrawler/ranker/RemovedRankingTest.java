package io.github.kcrawler.ranker;

import io.github.kcrawler.common.config.Settings;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The back-link count baseline left the service (issue 24): its setting value is refused, saying where it went. */
class RemovedRankingTest {
    @Test
    void backlinks_isRefusedWithTheReason() {
        assertThatThrownBy(() -> RankerConfig.from(Settings.parse(RankerConfig.KEYS, Map.of(),
                new String[] {"--ranking", "backlinks"})))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ranking must be one of ipr-dl1-frontier, ipr-dl1, ipr-vr, ipr-ar, was 'backlinks'")
                .hasMessageContaining("was removed");
    }

    @Test
    void everyOfferedRanking_isIncrementalPageRank() {
        for (RankerConfig.Ranking r : RankerConfig.Ranking.values()) {
            assertThat(r.cutOff()).as(r.key()).isNotNull();
            assertThat(RankerConfig.Ranking.parse(r.key())).isEqualTo(r);
        }
    }
}
