package io.github.kcrawler.scheduler.politeness;

import io.github.kcrawler.common.time.ManualClock;
import io.github.kcrawler.scheduler.politeness.Frontier.Admission;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link WheelFrontier}'s primitive index ({@link PendingSlots}) against an exact model, a map from fingerprint to
 * {@link PendingUrl}: after every operation of a random mix (admissions, revisits into the wheel, score updates, steps,
 * fetch reports and a restart that restores every pending URL into a new frontier) the frontier holds exactly the
 * model's URLs with the model's fields, counts the model's IPs, and every URL leaves exactly once, released or
 * evicted, with the fields it had when it left. Small B, H, pool and IP counts make slots, IPs and wheel handles be
 * freed and reused often.
 */
class WheelFrontierModelTest {
    private static final long T = 100;

    @Test
    void theIndexAgreesWithAnExactModel() {
        forAll(300, g -> theIndexAgreesWithAnExactModel(
                g.longIn(0, 1_000_000),
                g.bool(),
                g.intIn(1, 12),
                g.intIn(1, 40)));
    }

    void theIndexAgreesWithAnExactModel(long seed, boolean priority, int ipCount, int poolCapacity) {
        Random random = new Random(seed);
        ManualClock clock = new ManualClock(1_000);
        WheelOrder order = priority ? WheelOrder.PRIORITY : WheelOrder.FIFO;
        Map<Long, PendingUrl> model = new HashMap<>();
        Set<Long> left = new HashSet<>();
        List<PendingUrl> evicted = new ArrayList<>();
        WheelFrontier f = new WheelFrontier(clock, order, T, 3 * T, 4, 8, poolCapacity, 16, evicted::add);
        long seq = 0;
        for (int op = 0; op < 400; op++) {
            int kind = random.nextInt(100);
            long fp = random.nextInt(60) - 30L + (random.nextInt(50) == 0 ? Long.MIN_VALUE : 0);
            String ip = "127.0.0." + random.nextInt(ipCount);
            if (kind < 40) {
                Admission a = random.nextInt(5) == 0 ? f.admitToWheel(ip, fp, seq) : f.admit(ip, fp, seq);
                if (model.containsKey(fp)) {
                    assertThat(a).isEqualTo(Admission.DUPLICATE);
                } else if (a == Admission.QUEUED) {
                    model.put(fp, f.pending(fp));
                    assertThat(f.pending(fp).ip()).isEqualTo(ip);
                    assertThat(f.pending(fp).seq()).isEqualTo(seq);
                    left.remove(fp);
                    seq++;
                }
            } else if (kind < 60) {
                double score = random.nextInt(10) * 1.5;
                PendingUrl moved = f.updateScore(fp, score);
                if (model.containsKey(fp)) {
                    assertThat(moved).isEqualTo(model.get(fp).withScore(score));
                    model.put(fp, moved);
                } else {
                    assertThat(moved).isNull();
                }
            } else if (kind < 95) {
                clock.advance(random.nextInt((int) T * 2));
                List<PendingUrl> released = new ArrayList<>();
                f.releaseReady((url, notBefore) -> released.add(url));
                for (PendingUrl url : released) {
                    assertThat(model.remove(url.fingerprint())).as("released as pending").isEqualTo(url);
                    assertThat(left.add(url.fingerprint())).isTrue();
                    if (random.nextInt(4) > 0) {
                        f.fetched(url.ip(), clock.millis());
                    }
                }
            } else {
                WheelFrontier g = new WheelFrontier(clock, order, T, 3 * T, 4, 8, Math.max(1, poolCapacity / 2),
                        16, evicted::add);
                model.values().stream().sorted((a, b) -> Long.compare(a.seq(), b.seq()))
                        .forEach(u -> assertThat(g.restore(u)).isTrue());
                f = g;
            }
            for (PendingUrl e : evicted) {
                assertThat(model.remove(e.fingerprint())).as("evicted as pending").isEqualTo(e);
                assertThat(left.add(e.fingerprint())).isTrue();
            }
            evicted.clear();
            assertThat(f.size()).isEqualTo(model.size());
            assertThat(f.activeIps()).isEqualTo(model.values().stream().map(PendingUrl::ip).distinct().count());
            for (PendingUrl u : model.values()) {
                assertThat(f.pending(u.fingerprint())).isEqualTo(u);
            }
        }
        // Conservation: with nothing more admitted, every pending URL is released exactly once.
        for (int tick = 0; tick < 100_000 && f.size() > 0; tick++) {
            clock.advance(T);
            f.releaseReady((url, notBefore) -> assertThat(model.remove(url.fingerprint())).isEqualTo(url));
        }
        assertThat(model).isEmpty();
        assertThat(f.size()).isZero();
        assertThat(f.activeIps()).isZero();
        assertThat(f.inWheel()).isZero();
    }
}
