package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.scheduler.revisit.BucketFileStore;
import io.github.kcrawler.scheduler.revisit.ChangeRateEstimator;
import io.github.kcrawler.scheduler.revisit.RevisitPolicy;
import io.github.kcrawler.scheduler.revisit.RevisitRecords;
import io.github.kcrawler.scheduler.revisit.RevisitState;
import io.github.kcrawler.scheduler.revisit.SatlStore;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The baseline of issue 22 ({@code revisit-state=store}), kept to measure against: one task's revisits with the
 * per-page {@link RevisitState} in a changelog-backed RocksDB store, read ({@code get}) and written ({@code put}) on
 * every fetch result, and copied into paper 003's {@link SatlStore} as an index by due time. The SAT/L files are
 * rebuilt from that store whenever the task starts (they hold nothing the changelog does not), so a crash or a move to
 * another instance loses no page. The default, {@link SatlRevisits}, keeps the state in the SAT/L queue alone.
 */
final class RevisitTracker implements RevisitStates {
    private static final Logger LOG = LoggerFactory.getLogger(RevisitTracker.class);

    private final KeyValueStore<Bytes, RevisitState> states;
    private final Path dir;
    private final CrawlClock clock;
    private final RevisitPolicy policy;
    private final SchedulerConfig.Revisit config;
    private final SchedulerMetrics metrics;
    private SatlStore queue;
    private long reads;
    private long writes;
    private long bucketBytesCounted;

    RevisitTracker(SchedulerConfig.Revisit config, KeyValueStore<Bytes, RevisitState> states, Path taskDir,
                   CrawlClock clock, SchedulerMetrics metrics) {
        this.config = config;
        this.states = states;
        this.dir = taskDir.resolve("revisit-satl");
        this.clock = clock;
        this.metrics = metrics;
        long unit = config.unitMs();
        this.policy = new RevisitPolicy(new ChangeRateEstimator(Math.max(1, config.minMs() / unit),
                Math.max(1, config.maxMs() / unit)), unit, Math.max(1, config.initialMs() / unit));
    }

    /** Rebuilds the SAT/L queue from the state store; returns the number of pages scheduled. */
    @Override
    public long open() {
        try {
            deleteDir();
            queue = SatlStore.open(dir, now(), config.bucketOptions());
            long n = 0;
            List<Bytes> junk = new ArrayList<>();
            List<KeyValue<Bytes, RevisitState>> refitted = new ArrayList<>();
            List<Bytes> unfit = new ArrayList<>();
            try (KeyValueIterator<Bytes, RevisitState> it = states.all()) {
                while (it.hasNext()) {
                    KeyValue<Bytes, RevisitState> kv = it.next();
                    if (kv.value == null || !kv.value.isUsable() || kv.key.get().length != Long.BYTES) {
                        junk.add(kv.key);
                        continue;
                    }
                    RevisitRecords.Fitted f = fit(kv.value); // a state written before validators were bounded
                    if (f.fit() == RevisitRecords.Fit.TOO_LARGE) {
                        unfit.add(kv.key);
                        continue;
                    }
                    if (f.fit() == RevisitRecords.Fit.VALIDATORS_DROPPED) {
                        refitted.add(KeyValue.pair(kv.key, f.state()));
                    }
                    queue.schedule(f.state().fingerprint(), f.state().dueUnit(), f.bytes());
                    n++;
                }
            }
            for (Bytes k : junk) {
                metrics.bad(SchedulerTopology.REVISIT_STORE, BadRecord.MALFORMED);
                states.delete(k);
            }
            for (Bytes k : unfit) {
                states.delete(k);
            }
            for (KeyValue<Bytes, RevisitState> kv : refitted) {
                states.put(kv.key, kv.value);
            }
            return n;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the revisit queue in " + dir, e);
        }
    }

    long now() {
        return policy.unit(clock.millis());
    }

    /** Updates the page's revisit state from a fetch result. */
    @Override
    public void onResult(String ip, FetchResult r) {
        Bytes key = key(r.fingerprint());
        reads++;
        metrics.revisitStoreReads.increment();
        RevisitState previous = states.get(key);
        RevisitPolicy.Decision d = policy.next(previous, r, ip, clock.millis());
        metrics.revisitOutcome(d.outcome());
        try {
            RevisitRecords.Fitted f = d.state() == null ? null : fit(d.state());
            if (f != null && f.fit() != RevisitRecords.Fit.TOO_LARGE) {
                states.put(key, f.state());
                writes++;
                metrics.revisitStoreWrites.increment(); // its record's size is counted by the store's serializer
                queue.schedule(r.fingerprint(), f.state().dueUnit(), f.bytes());
            } else if (previous != null || f != null) {
                states.delete(key);
                writes++;
                metrics.revisitStoreWrites.increment();
                queue.delete(r.fingerprint());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("revisit queue write failed in " + dir, e);
        }
    }

    /** Hands every page due now to {@code due}; returns how many. */
    @Override
    public long pollDue(Consumer<RevisitState> due) {
        try {
            return queue.poll(Math.max(queue.now(), now()), (key, at, record, length) -> {
                RevisitState s = RevisitRecords.state(record, length);
                if (s != null) {
                    due.accept(s);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("revisit queue read failed in " + dir, e);
        } finally {
            bucketBytesCounted = SatlRevisits.countBucketBytes(metrics, queue, bucketBytesCounted);
        }
    }

    /**
     * The state stays in the store, which the result is checked against; the request carries its memo as SAT/L's
     * does, for what reads it downstream: the validators for the fetcher, the body hash the page held for dedup's
     * content references ({@code ContentRefProcessor}).
     */
    @Override
    public io.github.kcrawler.common.model.RevisitMemo taken(RevisitState s) {
        return s.memo();
    }

    @Override
    public void retryLater(PendingEntry evicted) {
        retryLater(evicted.fingerprint());
    }

    @Override
    public long storeReads() {
        return reads;
    }

    @Override
    public long storeWrites() {
        return writes;
    }

    /** A due page the frontier could not take now: try again in one unit (its stored state is unchanged). */
    @Override
    public void retryLater(RevisitState s) {
        RevisitRecords.Fitted f = fit(s);
        if (f.fit() == RevisitRecords.Fit.TOO_LARGE) {
            return; // cannot happen for a state that came out of the queue; never throw for it
        }
        try {
            queue.schedule(s.fingerprint(), Math.max(queue.now(), now()) + 1, f.bytes());
        } catch (IOException e) {
            throw new UncheckedIOException("revisit queue write failed in " + dir, e);
        }
    }

    /** The same for a page known by fingerprint (e.g. a revisit the frontier evicted). */
    void retryLater(long fingerprint) {
        reads++;
        metrics.revisitStoreReads.increment();
        RevisitState s = states.get(key(fingerprint));
        if (s != null) {
            retryLater(s);
        }
    }

    long size() {
        return queue == null ? 0 : queue.size();
    }

    @Override
    public long unitMs() {
        return config.unitMs();
    }

    @Override
    public void close() {
        if (queue != null) {
            try {
                queue.close();
            } catch (IOException e) {
                LOG.warn("closing the revisit queue in {} failed: {}", dir, e.toString());
            }
            queue = null;
        }
        try {
            deleteDir();
        } catch (IOException e) {
            LOG.warn("could not delete the revisit queue files in {}: {}", dir, e.toString());
        }
    }

    private void deleteDir() throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /**
     * The state as a SAT/L record that fits a bucket page, counted when it had to lose its validators or cannot be
     * kept at all (defence in depth: a result from an older fetcher or another producer may carry any ETag).
     */
    private RevisitRecords.Fitted fit(RevisitState s) {
        RevisitRecords.Fitted f = RevisitRecords.fit(s);
        if (f.fit() != RevisitRecords.Fit.AS_IS) {
            metrics.revisitBounded(f.fit());
            LOG.debug("revisit state of {} did not fit a {}-byte record: {}", s.url().length() > 200
                    ? s.url().substring(0, 200) + "..." : s.url(), BucketFileStore.MAX_RECORD_BYTES, f.fit());
        }
        return f;
    }

    static Bytes key(long fingerprint) {
        return Bytes.wrap(ByteBuffer.allocate(Long.BYTES).putLong(fingerprint).array());
    }
}
