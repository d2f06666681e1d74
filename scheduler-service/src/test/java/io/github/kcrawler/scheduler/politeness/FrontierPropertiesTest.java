package io.github.kcrawler.scheduler.politeness;

import io.github.kcrawler.testing.Gen;
import io.github.kcrawler.common.time.ManualClock;
import io.github.kcrawler.scheduler.politeness.Frontier.Admission;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random interleavings of admissions, score updates, fetch results, clock moves and ticks, checked against an
 * exact model (a plain map of pending URLs and an LRU map of early scores): releases for one IP are at least T
 * apart, each IP releases its best URL (ties FIFO), the bounds refuse exactly what they should, and every queued
 * URL is released exactly once.
 */
class FrontierPropertiesTest {
    private static final long T = 500;
    private static final long TICK = 20;
    private static final int MAX_PENDING = 12;
    private static final int MAX_PER_IP = 5;
    private static final int SCORE_CACHE = 4;
    private static final int IPS = 4;

    sealed interface Action permits Admit, Readmit, Score, Advance, Tick, Fetched {
    }

    record Admit(int ip) implements Action {
    }

    /** Admits again a fingerprint that may still be pending (must be refused as a duplicate if so). */
    record Readmit(int back) implements Action {
    }

    /** Score for the fingerprint {@code offset} away from the next one to be admitted (negative: already seen). */
    record Score(int offset, double score) implements Action {
    }

    record Advance(long millis) implements Action {
    }

    record Tick() implements Action {
    }

    record Fetched(int ip, long ago) implements Action {
    }

    /** 1 to 150 actions: admit 5, readmit 1, score 3, advance 3, tick 4, fetched 1 (relative weights). */
    static List<Action> scripts(Gen g) {
        return g.list(1, 150, x -> switch (x.weighted(5, 1, 3, 3, 4, 1)) {
            case 0 -> new Admit(x.intIn(0, IPS - 1));
            case 1 -> new Readmit(x.intIn(1, 6));
            case 2 -> new Score(x.intIn(-8, 3), x.ofDoubles(0.0, -0.0, 0.25, 0.5, 1.0, -1.0));
            case 3 -> new Advance(x.longIn(0, 700));
            case 4 -> new Tick();
            default -> new Fetched(x.intIn(0, IPS - 1), x.longIn(-100, 1500));
        });
    }

    @Test
    void releasesArePoliteBestFirstAndExactlyOnce() {
        forAll(400, g -> releasesArePoliteBestFirstAndExactlyOnce(scripts(g)));
    }

    void releasesArePoliteBestFirstAndExactlyOnce(List<Action> script) {
        new Run().play(script);
    }

    /** One run: the frontier under test and the model it is checked against. */
    private static final class Run {
        final ManualClock clock = new ManualClock(1_000_000);
        final PerIpPriorityFrontier frontier = new PerIpPriorityFrontier(clock, T, TICK, MAX_PENDING, MAX_PER_IP,
                SCORE_CACHE);
        final Map<Long, PendingUrl> pending = new HashMap<>();
        final LinkedHashMap<Long, Double> earlyScores = new LinkedHashMap<>();
        final Map<String, Long> lastNotBefore = new HashMap<>();
        /** Releases per admission (seq): a fingerprint may be admitted again after its release. */
        final Map<Long, Integer> releaseCount = new HashMap<>();
        long nextFp = 1;
        long seq;
        int queued;

        void play(List<Action> script) {
            for (Action action : script) {
                apply(action);
                frontier.checkInvariants();
                assertThat(frontier.size()).isEqualTo(pending.size());
            }
            // Drain: with time moving, everything still pending must come out.
            int guard = 0;
            while (!pending.isEmpty()) {
                assertThat(guard++).as("drain terminates").isLessThan(MAX_PER_IP * (int) (T / TICK) * 4);
                clock.advance(TICK);
                tick();
            }
            assertThat(frontier.size()).isZero();
            assertThat(frontier.activeIps()).isZero();
            assertThat(releaseCount.values()).allMatch(n -> n == 1);
            assertThat(releaseCount).hasSize(queued);
        }

        void apply(Action action) {
            if (action instanceof Admit a) {
                admit("10.0.0." + a.ip(), nextFp++);
            } else if (action instanceof Readmit r) {
                long fp = nextFp - r.back();
                if (fp > 0) {
                    PendingUrl p = pending.get(fp);
                    admit(p != null ? p.ip() : "10.0.0.0", fp);
                }
            } else if (action instanceof Score s) {
                score(nextFp + s.offset(), s.score());
            } else if (action instanceof Advance a) {
                clock.advance(a.millis());
            } else if (action instanceof Tick) {
                tick();
            } else if (action instanceof Fetched f) {
                frontier.fetched("10.0.0." + f.ip(), clock.millis() - f.ago());
            }
        }

        void admit(String ip, long fp) {
            Admission expected;
            long sameIp = pending.values().stream().filter(p -> p.ip().equals(ip)).count();
            if (pending.containsKey(fp)) {
                expected = Admission.DUPLICATE;
            } else if (pending.size() >= MAX_PENDING) {
                expected = Admission.FRONTIER_FULL;
            } else if (sameIp >= MAX_PER_IP) {
                expected = Admission.IP_FULL;
            } else {
                expected = Admission.QUEUED;
            }
            long s = seq++;
            assertThat(frontier.admit(ip, fp, s)).isEqualTo(expected);
            if (expected == Admission.QUEUED) {
                Double early = earlyScores.remove(fp);
                PendingUrl url = new PendingUrl(ip, fp, s, early == null ? 0.0 : early);
                pending.put(fp, url);
                assertThat(frontier.pending(fp)).isEqualTo(url);
                queued++;
            }
        }

        void score(long fp, double score) {
            PendingUrl p = pending.get(fp);
            PendingUrl moved = frontier.updateScore(fp, score);
            if (p != null) {
                PendingUrl expected = p.withScore(score);
                assertThat(moved).isEqualTo(expected);
                pending.put(fp, expected);
            } else {
                assertThat(moved).isNull();
                earlyScores.remove(fp);
                earlyScores.put(fp, score);
                if (earlyScores.size() > SCORE_CACHE) {
                    earlyScores.remove(earlyScores.keySet().iterator().next());
                }
            }
        }

        void tick() {
            long now = clock.millis();
            frontier.releaseReady((url, notBefore) -> {
                PendingUrl expected = pending.remove(url.fingerprint());
                assertThat(url).as("released URL is the pending one").isEqualTo(expected);
                for (PendingUrl other : pending.values()) {
                    if (other.ip().equals(url.ip())) {
                        boolean better = other.score() > url.score()
                                || (other.score() == url.score() && other.seq() < url.seq());
                        assertThat(better).as("%s released before better %s", url, other).isFalse();
                    }
                }
                assertThat(notBefore).isGreaterThanOrEqualTo(now).isLessThanOrEqualTo(now + TICK);
                Long last = lastNotBefore.put(url.ip(), notBefore);
                if (last != null) {
                    assertThat(notBefore - last).as("gap for %s", url.ip()).isGreaterThanOrEqualTo(T);
                }
                releaseCount.merge(url.seq(), 1, Integer::sum); // one admission = one seq
            });
        }
    }
}
