package io.github.kcrawler.testing;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The property runner reports a failing try's seed, that seed reproduces the input, and the generators reach their edges. */
class PropertyCheckTest {

    @Test
    void aFailingTryReportsItsSeed_whichReproducesItsInput() {
        List<Long> drawn = new ArrayList<>();
        AssertionError failure = null;
        try {
            PropertyCheck.forAll(1000, g -> {
                long v = g.longIn(0, 1_000);
                drawn.add(v);
                assertThat(v).isLessThan(990);
            });
        } catch (AssertionError e) {
            failure = e;
        }
        assertThat(failure).as("1,000 tries of [0, 1000] reach 990 or more").isNotNull();
        assertThat(failure.getMessage()).contains("PropertyCheckTest#aFailingTryReportsItsSeed_whichReproducesItsInput")
                .contains("-Dkc.seed=").contains("try " + drawn.size() + " of 1000");
        String seedText = failure.getMessage().replaceAll("(?s).*-Dkc\\.seed=(-?[0-9]+).*", "$1");
        long replayed = new Gen(Long.parseLong(seedText)).longIn(0, 1_000);
        assertThat(replayed).isEqualTo(drawn.get(drawn.size() - 1)).isGreaterThanOrEqualTo(990);
    }

    @Test
    void runsTheGivenNumberOfTries_andTheFuzzCountOnDemand() {
        AtomicInteger count = new AtomicInteger();
        PropertyCheck.forAll(37, g -> count.incrementAndGet());
        assertThat(count).hasValue(37);
        String before = System.getProperty(PropertyCheck.FUZZ_TRIES);
        try {
            System.setProperty(PropertyCheck.FUZZ_TRIES, "55");
            count.set(0);
            PropertyCheck.fuzz(3, g -> count.incrementAndGet());
            assertThat(count).hasValue(55);
            count.set(0);
            PropertyCheck.forAll(3, g -> count.incrementAndGet());
            assertThat(count).as("forAll is not scaled").hasValue(3);
            System.setProperty(PropertyCheck.FUZZ_TRIES, "zero");
            count.set(0);
            PropertyCheck.fuzz(3, g -> count.incrementAndGet());
            assertThat(count).hasValue(3);
        } finally {
            if (before == null) {
                System.clearProperty(PropertyCheck.FUZZ_TRIES);
            } else {
                System.setProperty(PropertyCheck.FUZZ_TRIES, before);
            }
        }
        assertThatThrownBy(() -> PropertyCheck.forAll(0, g -> { })).hasMessageContaining("was 0");
    }

    @Test
    void theSameSeedGivesTheSameInputs() {
        Gen a = new Gen(42);
        Gen b = new Gen(42);
        for (int i = 0; i < 100; i++) {
            assertThat(a.string(50)).isEqualTo(b.string(50));
            assertThat(a.bytes(30)).isEqualTo(b.bytes(30));
            assertThat(a.anyLong()).isEqualTo(b.anyLong());
            assertThat(a.doubleIn(2, 60)).isEqualTo(b.doubleIn(2, 60));
        }
    }

    @Test
    void generatorsStayInRange_andReachTheirEdgeCases() {
        Gen g = new Gen(7);
        Set<Integer> ints = new HashSet<>();
        Set<Long> longs = new HashSet<>();
        Set<Integer> lengths = new HashSet<>();
        boolean surrogate = false;
        boolean nonAscii = false;
        boolean doubleMin = false;
        for (int i = 0; i < 20_000; i++) {
            int v = g.intIn(-3, 4);
            assertThat(v).isBetween(-3, 4);
            ints.add(v);
            long l = g.longIn(10_000, 600_000);
            assertThat(l).isBetween(10_000L, 600_000L);
            longs.add(g.anyLong());
            String s = g.string(60);
            assertThat(s.length()).isBetween(0, 60);
            lengths.add(s.length());
            for (char c : s.toCharArray()) {
                surrogate |= Character.isSurrogate(c);
                nonAscii |= c > 0x7F;
                assertThat(c >= '\uE000' && c <= '\uF8FF').as("private use").isFalse();
                assertThat(c == '\uFFFE' || c == '\uFFFF').as("noncharacter").isFalse();
            }
            double d = g.doubleIn(2.0, 60.0);
            assertThat(d).isBetween(2.0, 60.0);
            doubleMin |= d == 2.0;
            assertThat(g.size(1, 8)).isBetween(1, 8);
            assertThat(g.bytes(8, 8)).hasSize(8);
        }
        assertThat(ints).containsExactlyInAnyOrder(-3, -2, -1, 0, 1, 2, 3, 4);
        assertThat(longs).contains(0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE);
        assertThat(lengths).contains(0, 1, 60);
        assertThat(surrogate).isTrue();
        assertThat(nonAscii).isTrue();
        assertThat(doubleMin).isTrue();
        assertThat(g.weighted(0, 1, 0)).isEqualTo(1);
    }
}
