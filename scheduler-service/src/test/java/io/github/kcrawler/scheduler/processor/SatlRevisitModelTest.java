package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.RevisitMemo;
import io.github.kcrawler.common.time.ManualClock;
import io.github.kcrawler.kafka.embedded.SurvivingStoreSupplier;
import io.github.kcrawler.scheduler.SchedulerConfig;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 22, property test: the scheduler's revisit state with {@code revisit-state=satl}, driven through its topology
 * by random fetch outcomes (unchanged 200, changed 200, 304 with or without a new ETag, 500, 404) answered after random
 * delays, against an exact model written here independently of {@code RevisitPolicy}: per page n, X, the observed
 * units, the changed span and its length classes, the interval (Cho–Garcia-Molina's irregular estimator, clamped), validators, body hash, first and last fetch, due time. Every
 * REVISIT request must carry exactly the model's state, come no earlier than the model's due time less
 * {@code revisit-early-fraction} of the distance it was scheduled at (SAT/L's bound), and come once per
 * due time (never while the page is out on a request); a gone page never comes back; and, at the end, every live page
 * not out on a request comes due. Also counts: 0 random store reads, and with {@code revisit-state=store} the same
 * run reads the store once per result. Seeded {@link SplittableRandom}; the seed prints
 * ({@code -Dkcrawler.seed=S} reruns it).
 */
class SatlRevisitModelTest {
    private static final long T = 100;
    private static final long TICK = 20;
    private static final long UNIT = 100;
    private static final long INITIAL = 500;
    private static final long MIN = 100;
    private static final long MAX = 5_000;
    private static final long START = 1_700_000_000_000L;

    private final Path stateDir = Path.of("target", "ttd-state", UUID.randomUUID().toString());
    private final ManualClock clock = new ManualClock(START);
    private SchedulerDriver d;

    /** The model's view of one page. */
    private static final class Page {
        final String url;
        final String ip;
        long n;
        long x;
        long observed;
        long changedUnits;
        final long[] classes = new long[21]; // changed intervals by ⌊log2 units⌋, capped at 20
        long interval;
        long first;
        long last;
        long dueUnit;
        /** The unit the due time was set at: SAT/L may deliver up to revisit-early-fraction of the distance early. */
        long scheduledUnit;
        String etag;
        String hash;
        boolean gone;
        boolean out; // on a request not yet answered

        Page(String url, String ip) {
            this.url = url;
            this.ip = ip;
        }
    }

    /**
     * Paper 004's wheel at B = H = 1024 with a step timeout of 1 s: the last phase answers no request, so the wheel's
     * 32 steps in flight fill up and each later step waits for the one 32 back to time out (10 s by default).
     */
    private void open(SchedulerConfig.RevisitStateMode mode) {
        KafkaSettings kafka = new KafkaSettings("127.0.0.1:1", "", 1, stateDir, Map.of());
        SchedulerConfig config = new SchedulerConfig(kafka, T, TICK, 1000, 1000, 1, 100, "127.0.0.1", 0,
                new SchedulerConfig.Wheel(SchedulerConfig.Order.PRIORITY, 1024, 1024, 1_000),
                SchedulerConfig.Revisit.defaults())
                .withRevisit(new SchedulerConfig.Revisit(true, UNIT, INITIAL, MIN, MAX, 1 << 20, mode, heldMax));
        d = SchedulerDriver.of(config, clock, pending);
    }

    /** revisit-held-max of the next {@link #open}. */
    private int heldMax = SchedulerConfig.Revisit.HELD_MAX.defaultValue();
    /** The pending store, its writes counted: only revisits pass through it in these runs. */
    private final SurvivingStoreSupplier pending = new SurvivingStoreSupplier(SchedulerTopology.PENDING_STORE);
    /** Most due pages the SAT/L variant held at once, seen after each step of the run. */
    private int mostHeld;

    @AfterEach
    void close() {
        if (d != null) {
            d.close();
        }
    }

    private static long unit(long ms) {
        return Math.floorDiv(ms, UNIT);
    }

    /** The estimator, written out: r = -ln((n - X + 0.5)/(n + 0.5)), interval = clamp(round(I / r)). */
    /**
     * Issue 21: the default estimator — X = 0: the half-change rule ln((n + 0.5)/n) / Ī; otherwise Cho &amp;
     * Garcia-Molina's irregular-interval estimator (its root is tested in ChangeRateEstimatorTest) over the page's
     * power-of-two length classes of changed intervals, kept here independently of RevisitPolicy.
     */
    private static long interval(Page p) {
        double meanInterval = (double) p.observed / p.n;
        double lambda = p.x == 0 ? Math.log((p.n + 0.5) / p.n) / meanInterval
                : io.github.kcrawler.scheduler.revisit.ChangeRateEstimator.irregular(p.classes, 0, p.changedUnits,
                p.observed, p.n, p.x);
        long min = MIN / UNIT;
        long max = MAX / UNIT;
        double next = 1 / lambda;
        return next >= max ? max : Math.max(min, Math.round(next));
    }

    private double ops(String op) {
        var c = d.registry.find(MetricNames.SCHEDULER_REVISIT_STORE_OPS).tags("op", op).counter();
        return c == null ? 0 : c.count();
    }

    private static FetchResult result(String url, FetchKind kind, long step, int status, String hash, String etag,
                                      RevisitMemo memo, long now) {
        FetchOutcome outcome = status == 200 ? FetchOutcome.OK : status == 304 ? FetchOutcome.NOT_MODIFIED
                : FetchOutcome.HTTP_ERROR;
        return new FetchResult(FetchResult.VERSION, url, Fingerprints.url(url), 1, step, kind, status, outcome, now,
                0, 1, hash, 10, "text/html", null, etag, null, 0, null, memo);
    }

    @Test
    void satl_revisitStateFollowsTheExactModel_withNoStoreReads() {
        long seed = Long.getLong("kcrawler.seed", System.nanoTime());
        System.out.println("SatlRevisitModelTest seed " + seed + " (rerun with -Dkcrawler.seed=" + seed + ")");
        long revisits = run(SchedulerConfig.RevisitStateMode.SATL, new SplittableRandom(seed), "seed " + seed);
        assertThat(revisits).as("seed %d: revisits answered", seed).isGreaterThan(100);
        assertThat(ops("read")).as("seed %d: random store reads", seed).isZero();
        assertThat(SatlStateStore.unwrap(d.driver.getKeyValueStore(SchedulerTopology.REVISIT_SATL_STORE)).reads())
                .as("gets, ranges and scans of the SAT/L store").isZero();
        // per revisit: the put of its next state and the tombstone when its request went out; the due page waited
        // in the frontier held in memory, with no pending-store entry
        assertThat(ops("write")).as("seed %d", seed).isLessThanOrEqualTo(2.0 * (revisits + 40) + 40);
        assertThat(pending.puts() + pending.deletes()).as("seed %d: pending-store writes", seed).isZero();
        assertThat(mostHeld).as("seed %d: due pages held at once", seed).isPositive();
        assertThat(d.counter(MetricNames.SCHEDULER_REVISITS_HELD_FULL)).as("seed %d: below the bound", seed).isZero();
    }

    @Test
    void satl_withAHeldBoundOfTwo_duePagesBeyondItWaitInSatl_andStillComeOnceEach() {
        long seed = Long.getLong("kcrawler.seed", System.nanoTime());
        System.out.println("SatlRevisitModelTest (held 2) seed " + seed + " (rerun with -Dkcrawler.seed=" + seed + ")");
        heldMax = 2;
        long revisits = run(SchedulerConfig.RevisitStateMode.SATL, new SplittableRandom(seed), "seed " + seed);
        assertThat(revisits).as("seed %d: revisits answered", seed).isGreaterThan(100);
        assertThat(mostHeld).as("seed %d: due pages held at once", seed).isEqualTo(2);
        assertThat(d.counter(MetricNames.SCHEDULER_REVISITS_HELD_FULL)).as("seed %d: waits at the bound", seed)
                .isPositive();
        assertThat(pending.puts() + pending.deletes()).as("seed %d: pending-store writes", seed).isZero();
    }

    @Test
    void store_baselineFollowsTheSameModel_andReadsTheStorePerResult() {
        long seed = Long.getLong("kcrawler.seed", System.nanoTime());
        System.out.println("SatlRevisitModelTest (store) seed " + seed + " (rerun with -Dkcrawler.seed=" + seed + ")");
        long revisits = run(SchedulerConfig.RevisitStateMode.STORE, new SplittableRandom(seed), "seed " + seed);
        assertThat(ops("read")).as("seed %d: one get per result", seed).isGreaterThanOrEqualTo(revisits);
        // a put and a delete per due page (the Streams cache may fold the pair into the delete alone)
        assertThat(pending.puts() + pending.deletes()).as("seed %d: pending-store writes", seed)
                .isGreaterThanOrEqualTo(revisits);
    }

    /** Runs the random scenario; returns the number of revisit results piped. */
    private long run(SchedulerConfig.RevisitStateMode mode, SplittableRandom rnd, String where) {
        open(mode);
        boolean satl = mode == SchedulerConfig.RevisitStateMode.SATL;
        Map<String, Page> pages = new HashMap<>();
        for (int p = 0; p < 40; p++) {
            String ip = "10.0.0." + (p % 8 + 1);
            String url = "http://" + ip + "/p" + p;
            Page page = new Page(url, ip);
            page.etag = rnd.nextBoolean() ? "\"e0\"" : null;
            page.hash = "h0-" + p;
            long now = clock.millis();
            d.results.pipeInput(ip, result(url, FetchKind.NEW, 0, 200, page.hash, page.etag, null, now));
            page.first = now;
            page.last = now;
            page.interval = INITIAL / UNIT;
            page.dueUnit = unit(now) + page.interval;
            page.scheduledUnit = unit(now);
            pages.put(url, page);
            d.advance(TICK);
        }
        List<KeyValue<FetchRequest, Page>> waiting = new ArrayList<>();
        long answered = 0;
        for (int round = 0; round < 300; round++) {
            d.advance(TICK * rnd.nextInt(1, 10));
            if (satl) {
                int held = SatlStateStore.unwrap(d.driver.getKeyValueStore(SchedulerTopology.REVISIT_SATL_STORE))
                        .held.size();
                assertThat(held).as(where + " round " + round + ": due pages held").isLessThanOrEqualTo(heldMax);
                mostHeld = Math.max(mostHeld, held);
            }
            for (KeyValue<String, FetchRequest> kv : d.requests.readKeyValuesToList()) {
                FetchRequest r = kv.value;
                Page page = pages.get(r.url());
                String at = where + " round " + round + " " + r.url();
                assertThat(page).as(at).isNotNull();
                assertThat(r.kind()).as(at).isEqualTo(FetchKind.REVISIT);
                assertThat(page.gone).as(at + ": a gone page comes back").isFalse();
                assertThat(page.out).as(at + ": requested while out on a request").isFalse();
                // revisit-early-fraction (default 1/12) of the distance; the queue's own now may lag a unit behind
                long early = (long) Math.floor(SchedulerConfig.Revisit.EARLY_FRACTION.defaultValue()
                        * (page.dueUnit - page.scheduledUnit + 1));
                assertThat(unit(clock.millis())).as(at + ": not before its due time less the early fraction")
                        .isGreaterThanOrEqualTo(page.dueUnit - early);
                // the validators are sent once, in the memo; the store baseline sends the memo too (dedup's content
                // references read the body hash the page held from it), though its own state stays in its store
                assertThat(r.etag()).as(at).isNull();
                assertThat(r.lastModified()).as(at).isNull();
                RevisitMemo m = r.revisit();
                assertThat(m).as(at).isNotNull();
                assertThat(new long[]{m.visits(), m.changes(), m.observedUnits(), m.intervalUnits(),
                        m.firstFetchedMs(), m.lastFetchedMs()}).as(at + ": n, X, observed, interval, first, last")
                        .containsExactly(page.n, page.x, page.observed, page.interval, page.first, page.last);
                assertThat(m.changedUnits()).as(at + ": changed span").isEqualTo(page.changedUnits);
                for (int b = 0; b < 21; b++) {
                    assertThat(m.changedIntervals().count(b)).as(at + ": length class " + b)
                            .isEqualTo(page.classes[b]);
                }
                assertThat(m.contentHash()).as(at).isEqualTo(page.hash);
                assertThat(m.etag()).as(at).isEqualTo(page.etag);
                page.out = true;
                waiting.add(KeyValue.pair(r, page));
            }
            // answer some of the waiting requests, in random order
            for (int i = waiting.size() - 1; i >= 0; i--) {
                if (rnd.nextInt(3) == 0) {
                    continue; // later
                }
                KeyValue<FetchRequest, Page> w = waiting.remove(i);
                answer(w.key, w.value, rnd);
                answered++;
            }
        }
        for (KeyValue<FetchRequest, Page> w : waiting) {
            answer(w.key, w.value, rnd);
            answered++;
        }
        // liveness: with nothing answered any more, every live page comes due, once
        d.advance(MAX + 2_000);
        Map<String, Integer> seen = new HashMap<>();
        for (FetchRequest r : d.requests.readValuesToList()) {
            seen.merge(r.url(), 1, Integer::sum);
        }
        for (Page p : pages.values()) {
            assertThat(seen.getOrDefault(p.url, 0)).as(where + ": final requests of " + p.url)
                    .isEqualTo(p.gone ? 0 : 1);
        }
        return answered;
    }

    private void answer(FetchRequest r, Page page, SplittableRandom rnd) {
        long now = clock.millis();
        int pick = rnd.nextInt(100);
        page.out = false;
        if (pick < 3) { // gone
            d.results.pipeInput(page.ip, result(r.url(), r.kind(), r.step(), 404, null, null, r.revisit(), now));
            page.gone = true;
            return;
        }
        if (pick < 13) { // a server error: same history, retried after the interval in force
            d.results.pipeInput(page.ip, result(r.url(), r.kind(), r.step(), 500, null, null, r.revisit(), now));
            page.dueUnit = unit(now) + Math.max(MIN / UNIT, page.interval);
            page.scheduledUnit = unit(now);
            return;
        }
        boolean changed;
        String etag;
        if (pick < 50) { // 304, with or without a fresh ETag
            etag = rnd.nextBoolean() ? null : "\"e" + rnd.nextInt(1000) + "\"";
            d.results.pipeInput(page.ip, result(r.url(), r.kind(), r.step(), 304, null, etag, r.revisit(), now));
            changed = false;
            if (etag != null) {
                page.etag = etag;
            }
        } else {
            changed = pick >= 75;
            String hash = changed ? "h" + rnd.nextLong() : page.hash;
            etag = rnd.nextBoolean() ? null : "\"e" + rnd.nextInt(1000) + "\"";
            d.results.pipeInput(page.ip, result(r.url(), r.kind(), r.step(), 200, hash, etag, r.revisit(), now));
            page.hash = hash;
            page.etag = etag; // a 200 replaces the validators, absent ones included
        }
        page.n++;
        page.x += changed ? 1 : 0;
        long elapsed = Math.max(1, unit(now) - unit(page.last));
        page.observed += elapsed;
        if (changed) {
            page.changedUnits += elapsed;
            page.classes[Math.min(20, 63 - Long.numberOfLeadingZeros(elapsed))]++;
        }
        page.interval = interval(page);
        page.last = now;
        page.dueUnit = unit(now) + page.interval;
        page.scheduledUnit = unit(now);
    }
}
