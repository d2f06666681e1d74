package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.RevisitMemo;
import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.scheduler.revisit.ChangeRateEstimator;
import io.github.kcrawler.scheduler.revisit.RevisitPolicy;
import io.github.kcrawler.scheduler.revisit.RevisitQueue;
import io.github.kcrawler.scheduler.revisit.RevisitRecords;
import io.github.kcrawler.scheduler.revisit.RevisitState;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Consumer;

/**
 * One task's revisits with the SAT/L queue as the revisit state (issue 22, {@code revisit-state=satl}, the default;
 * paper 003, DESIGN §4.4). A page's {@link RevisitState} is durable in exactly one place at a time:
 * <ol>
 *   <li>in the task's {@link SatlStateStore} (a SAT/L bucket and its changelog record) until it is due — and, once
 *       due and taken by the frontier, still there: the frontier's entry for it is held in memory ({@link #hold}),
 *       and its changelog record, whose due time has passed, is what a restore would make due again;</li>
 *   <li>on the REVISIT fetch request and, echoed by the fetcher, on its result ({@link RevisitMemo}): the store's
 *       record is deleted ({@link #released}) in the transaction that sends the request;</li>
 *   <li>the next state, computed by {@link RevisitPolicy} from the result alone, is put back into the store.</li>
 * </ol>
 * No step reads a store by key: per revisit, one put and one tombstone on the changelog and one SAT/L append, and
 * no pending-store entry (ours, after issue 22's first version, which deleted the record when the page was taken and
 * wrote a pending entry carrying the state, then deleted that at release: two or three changelog records more per
 * revisit for the same guarantee). A first fetch (or a result that carries no usable memo) starts a fresh state.
 * A due page the frontier cannot take now, or that it evicts, is put back one unit later, in the local buckets only
 * (see {@link #retryLater(RevisitState)}). Durability and restore are {@link SatlStateStore}'s.
 *
 * <p>Memory: a held page costs its {@link RevisitState} (~0.5 KB with its URL) until release; at most
 * {@code revisit-held-max} per task ({@link #roomToHold}), beyond which due pages wait in SAT/L one more unit.
 *
 * <p>Why nothing is lost or requested twice after a kill: a held page's changelog record is a put until the
 * transaction that sends its request commits with the tombstone, so a crash before it restores the put (due at once:
 * the page is taken again) and a crash after it restores nothing (the page is on the request or its result, whose
 * put comes back). If the processor is initialised again over the same open store (no restore), the pages it held
 * are put back into the local buckets, due now ({@link #open}).
 */
final class SatlRevisits implements RevisitStates {
    private static final Logger LOG = LoggerFactory.getLogger(SatlRevisits.class);

    /** A due page the frontier holds under {@code seq}, until its release or eviction. */
    record Held(long seq, RevisitState state) {
    }

    private final KeyValueStore<Bytes, byte[]> store;
    private final SatlStateStore satl;
    private final SchedulerConfig.Revisit config;
    private final CrawlClock clock;
    private final RevisitPolicy policy;
    private final SchedulerMetrics metrics;
    SatlRevisits(SchedulerConfig.Revisit config, KeyValueStore<Bytes, byte[]> store, CrawlClock clock,
                 SchedulerMetrics metrics) {
        this.config = config;
        this.store = store;
        this.satl = SatlStateStore.unwrap(store);
        if (satl == null) {
            throw new IllegalStateException("store " + store.name() + " is not a SAT/L revisit store");
        }
        this.clock = clock;
        this.metrics = metrics;
        long unit = config.unitMs();
        this.policy = new RevisitPolicy(new ChangeRateEstimator(Math.max(1, config.minMs() / unit),
                Math.max(1, config.maxMs() / unit)), unit, Math.max(1, config.initialMs() / unit));
    }

    @Override
    public long open() {
        for (long i = 0; i < satl.junk(); i++) {
            metrics.bad(SchedulerTopology.REVISIT_SATL_STORE, BadRecord.MALFORMED);
        }
        if (!satl.held.isEmpty()) { // a new frontier over the same store: what the old one held is due again
            LOG.info("{} due revisits held by the previous processor go back into the queue", satl.held.size());
            for (Held h : satl.held.values()) {
                schedule(h.state(), Math.max(satl.queue().now(), satl.now()));
            }
            satl.held.clear();
        }
        return satl.queue().size();
    }

    @Override
    public void onResult(String ip, FetchResult r) {
        RevisitState previous = null;
        RevisitMemo memo = r.revisit();
        if (memo != null) {
            if (memo.isUsable()) {
                previous = RevisitState.of(r.url(), r.fingerprint(), ip, r.depth(), memo);
            } else {
                metrics.bad(SchedulerTopology.REVISIT_SATL_STORE, BadRecord.MALFORMED);
            }
        } else if (r.kind() == FetchKind.REVISIT) {
            metrics.revisitWithoutState.increment(); // an older fetcher or scheduler: the history starts afresh
        }
        RevisitPolicy.Decision d = policy.next(previous, r, ip, clock.millis());
        if (d.state() != null) {
            metrics.revisitOutcome(d.outcome());
            RevisitRecords.Fitted f = fit(d.state());
            if (f.fit() != RevisitRecords.Fit.TOO_LARGE) {
                put(r.fingerprint(), RevisitRecords.record(f));
            } else if (satl.queue().contains(r.fingerprint())) {
                delete(r.fingerprint());
            }
            return;
        }
        // No state carried but the page is scheduled (a NEW fetch of a page already known, e.g. from an older
        // scheduler): a 404/410 ends its revisits there too. The check is the queue's in-memory index, not a read.
        boolean gone = r.status() == 404 || r.status() == 410;
        if (gone && previous == null && satl.queue().contains(r.fingerprint())) {
            metrics.revisitOutcome(RevisitPolicy.Outcome.GONE);
            delete(r.fingerprint());
        } else {
            metrics.revisitOutcome(d.outcome());
        }
    }

    @Override
    public long pollDue(Consumer<RevisitState> due) {
        RevisitQueue queue = satl.queue();
        try {
            return queue.poll(Math.max(queue.now(), satl.now()), (key, at, record, length) -> {
                RevisitState s = RevisitRecords.state(record, length);
                if (s != null) {
                    due.accept(s);
                } else {
                    metrics.bad(SchedulerTopology.REVISIT_SATL_STORE, BadRecord.MALFORMED);
                    delete(key); // it left the queue; its changelog record goes too
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("revisit queue read failed", e);
        } finally {
            satl.bucketBytesCounted = countBucketBytes(metrics, queue, satl.bucketBytesCounted);
        }
    }

    /** Adds what {@code queue} wrote to its bucket files since {@code counted} to the metric; returns the new mark. */
    static long countBucketBytes(SchedulerMetrics metrics, RevisitQueue queue, long counted) {
        long now = queue.bytesWritten();
        long base = now < counted ? 0 : counted; // a queue opened anew (task restart) counts from 0
        if (now > base) {
            metrics.revisitBucketBytes.increment(now - base);
        }
        return now;
    }

    @Override
    public boolean roomToHold() {
        return satl.held.size() < config.heldMax();
    }

    @Override
    public boolean hold(RevisitState s, long seq) {
        satl.held.put(s.fingerprint(), new Held(seq, s));
        return true;
    }

    @Override
    public RevisitState released(long fingerprint, long seq) {
        RevisitState s = unhold(fingerprint, seq);
        if (s != null) {
            delete(fingerprint);
        }
        return s;
    }

    @Override
    public boolean evicted(long fingerprint, long seq) {
        RevisitState s = unhold(fingerprint, seq);
        if (s == null) {
            return false;
        }
        retryLater(s);
        return true;
    }

    /** Stops holding the page admitted as {@code fingerprint} under {@code seq}; its state, or null if not held. */
    private RevisitState unhold(long fingerprint, long seq) {
        Held h = satl.held.get(fingerprint);
        if (h == null || h.seq() != seq) {
            return null;
        }
        satl.held.remove(fingerprint);
        return h.state();
    }

    /** Not called: every due page is {@link #hold held}. Returns the memo, as a pending entry would carry it. */
    @Override
    public RevisitMemo taken(RevisitState s) {
        return s.memo();
    }

    /**
     * A due page the frontier could not take (full, or the page already pending) goes back into the queue one unit on
     * — in the local buckets only: it was polled but not {@link #taken}, so its changelog record still holds the same
     * state with a due time that has passed, and a restore would make it due at once, which is what a retry means.
     * So a page that waits for room costs no changelog write per unit.
     */
    @Override
    public void retryLater(RevisitState s) {
        schedule(s, Math.max(satl.queue().now(), satl.now()) + 1);
    }

    /** Puts {@code s} into the local buckets only, due at {@code unit} (its changelog record is left as it is). */
    private void schedule(RevisitState s, long unit) {
        RevisitRecords.Fitted f = fit(s.withDue(unit));
        if (f.fit() != RevisitRecords.Fit.TOO_LARGE) {
            try {
                satl.queue().schedule(s.fingerprint(), f.state().dueUnit(), RevisitRecords.record(f));
            } catch (IOException e) {
                throw new UncheckedIOException("revisit queue write failed", e);
            }
        }
    }

    /**
     * An evicted pending revisit whose entry was in the pending store (written by an earlier version, whose state had
     * left the store when it was taken): put back, logged.
     */
    @Override
    public void retryLater(PendingEntry evicted) {
        RevisitMemo m = evicted.revisit();
        if (m != null && m.isUsable()) {
            RevisitState s = RevisitState.of(evicted.url(), evicted.fingerprint(), evicted.ip(), evicted.depth(), m);
            RevisitRecords.Fitted f = fit(s.withDue(Math.max(satl.queue().now(), satl.now()) + 1));
            if (f.fit() != RevisitRecords.Fit.TOO_LARGE) {
                put(s.fingerprint(), RevisitRecords.record(f));
            }
        } else {
            metrics.revisitWithoutState.increment(); // an entry written before issue 22: its history is lost
            LOG.debug("evicted revisit of {} carried no state", evicted.fingerprint());
        }
    }

    private void put(long fingerprint, byte[] record) {
        store.put(key(fingerprint), record);
        metrics.revisitStoreWrites.increment();
        metrics.revisitRecordBytes.record(record.length);
    }

    private void delete(long fingerprint) {
        store.delete(key(fingerprint));
        metrics.revisitStoreWrites.increment();
    }

    private static Bytes key(long fingerprint) {
        byte[] k = new byte[Long.BYTES];
        for (int i = Long.BYTES - 1; i >= 0; i--) {
            k[i] = (byte) fingerprint;
            fingerprint >>>= 8;
        }
        return Bytes.wrap(k); // the changelog keeps the array: one per record is needed
    }

    private RevisitRecords.Fitted fit(RevisitState s) {
        RevisitRecords.Fitted f = RevisitRecords.fit(s);
        if (f.fit() != RevisitRecords.Fit.AS_IS) {
            metrics.revisitBounded(f.fit());
        }
        return f;
    }

    @Override
    public long storeReads() {
        return satl.reads();
    }

    @Override
    public long storeWrites() {
        return satl.writes();
    }

    @Override
    public long unitMs() {
        return config.unitMs();
    }

    @Override
    public void close() {
        // the store is Streams': it closes it
    }
}
