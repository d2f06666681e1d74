package io.github.kcrawler.common.service;

import io.github.kcrawler.common.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class KafkaReachabilityTest {
    @Test
    void unreachableOnlyAfterTheWindowWithoutAnAnswerAndReachableAgainWithTheNextAnswer() {
        ManualClock clock = new ManualClock(1_000_000);
        KafkaReachability r = new KafkaReachability(clock, Duration.ofSeconds(30));
        assertThat(r.reachable()).as("start-up counts as the window's start").isTrue();
        clock.advance(30_000);
        assertThat(r.reachable()).isTrue();
        clock.advance(1);
        assertThat(r.reachable()).as("no answer since start-up for 30 s").isFalse();
        assertThat(r.reachable()).isFalse();
        r.answered();
        assertThat(r.reachable()).isTrue();
        clock.advance(29_999);
        assertThat(r.reachable()).isTrue();
        clock.advance(2);
        assertThat(r.reachable()).as("broker gone for 30 s").isFalse();
        clock.advance(600_000);
        r.answered();
        assertThat(r.reachable()).as("back with the first answer").isTrue();
        assertThat(r.changes()).as("each change counted (and logged) once, however often it is asked").isEqualTo(4);
        r.close();
    }
}
