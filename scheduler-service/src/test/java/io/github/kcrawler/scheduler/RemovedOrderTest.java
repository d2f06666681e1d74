package io.github.kcrawler.scheduler;

import io.github.kcrawler.common.config.Settings;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The foundation's per-IP heap left the scheduler (issue 24): {@code order=per-ip} is refused, saying so. */
class RemovedOrderTest {
    @Test
    void perIp_isRefusedWithTheReason() {
        assertThatThrownBy(() -> SchedulerConfig.from(Settings.parse(SchedulerConfig.KEYS,
                Map.of("CRAWLER_ORDER", "per-ip"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("order must be priority or fifo, was 'per-ip'")
                .hasMessageContaining("per-IP heap was removed");
    }

    @Test
    void everyOfferedOrder_runsOnTheWheel() {
        for (SchedulerConfig.Order o : SchedulerConfig.Order.values()) {
            SchedulerConfig c = SchedulerConfig.from(Settings.parse(SchedulerConfig.KEYS, Map.of(), "--order",
                    o.key()));
            assertThat(c.frontierBound().urls()).as(o.key()).isPositive();
        }
    }
}
