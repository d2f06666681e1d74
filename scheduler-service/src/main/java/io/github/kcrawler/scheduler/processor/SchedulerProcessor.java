package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.common.model.AdmittedUrls;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.ForgetUrl;
import io.github.kcrawler.common.model.LinkShare;
import io.github.kcrawler.common.model.RankScore;
import io.github.kcrawler.common.model.RankScoreBatch;
import io.github.kcrawler.common.model.RevisitMemo;
import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.common.serde.Decoded;
import io.github.kcrawler.common.serde.InputCheck;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.scheduler.politeness.Frontier;
import io.github.kcrawler.scheduler.politeness.PendingUrl;
import io.github.kcrawler.scheduler.politeness.WheelFrontier;
import io.github.kcrawler.scheduler.politeness.WheelOrder;
import io.github.kcrawler.scheduler.revisit.RevisitState;
import io.micrometer.core.instrument.Counter;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One stream task's scheduler: feeds admissions, scores and fetch results of its partition into a {@link Frontier}
 * and, from a wall-clock punctuator, turns the frontier's releases into fetch requests.
 *
 * <p>Why nothing is lost: the pending URLs live in a changelog-backed store; the frontier is only an index over it,
 * rebuilt from the store in {@link #init} (which Streams calls after restoring the store, and again after a task is
 * revived). A URL is put into the store while its admission record is processed and deleted while its fetch request
 * is forwarded, inside the same exactly-once transaction, so after any crash each admitted URL is either pending or
 * requested, never both, never neither.
 *
 * <p>Store writes (issue 19): an admitted URL costs one put (at admission, with the score known then: the
 * ranker's if it came first, else 0) and one delete (at its release; the Streams cache turns the pair into one
 * tombstone when both fall in one commit interval). A rank score is <em>not</em> written to the store: it only orders
 * the frontier's pool, and counted per fetched page ({@code bench e2e --max-pages 20000}, changelog records read back
 * from the broker's log) rewriting it cost more than the put and the delete together under {@code wheel-lookahead=128}
 * — 3.59 rewrites per page against 2.83 puts and 1.08 deletes, and 73 % of the rewrites were a URL's first score,
 * which arrives about a flush of the ranker after its admission, so no rewrite rule that keeps the first score saves
 * much. The former rule (rewrite when a waiting URL's score bucket changes) is gone; {@code PendingStoreWritesTest}
 * counts the writes.
 *
 * <p>First scores (ours, thirty-fourth session): an admitted URL starts at its link share ({@link LinkShare}: the
 * receipt the linking page gives it under incremental PageRank, carried from this scheduler's score of that page
 * through its fetch request, the fetcher and dedup), or at the ranker's score if that came first and is larger.
 * Before, it started at 0 and waited for the ranker's first score — about two seconds for a URL on another partition
 * (BENCHMARKS.md, thirty-third session). A request carries the URL's score at its release, which is what the fetcher
 * derives its links' share from.
 *
 * <p>What a restart restores, then: every pending URL exactly (nothing lost, nothing requested twice: that argument
 * above does not involve scores), each with its admission-time score, in admission order within a score bucket. The
 * pool's order is therefore approximate until the ranker publishes a URL's next score (it does so whenever the URL
 * receives a receipt, i.e. whenever another fetched page links to it, so well-linked URLs are re-ranked first).
 *
 * <p>Pacing: the wheel's steps are paced by {@code pacing} ({@link io.github.kcrawler.scheduler.wheel.Pacing}):
 * {@code pipelined} (ours, default) or {@code paper}; see {@link WheelFrontier}. One punctuation may take several
 * steps, so each request carries the step that released it, and each fetch result is credited to that step.
 *
 * <p>The frontier is paper 004's politeness wheel ({@link WheelFrontier}, {@code order} priority or fifo). A URL the
 * wheel or the priority front drops is deleted from the store and sent to {@code crawl.urls.forget}, in the same
 * transaction, so dedup admits it again when rediscovered.
 *
 * <p>What a restart forgets: each IP's next allowed time (memory only). Right after a restart an IP may get a
 * request sooner than T after its last one; the fetcher's per-IP guard still enforces T at the server, and fetch
 * results arriving after the restart re-seed the times.
 */
final class SchedulerProcessor implements Processor<String, Decoded<?>, String, Object> {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulerProcessor.class);

    private final SchedulerConfig config;
    private final CrawlClock clock;
    private final SchedulerMetrics metrics;
    private final LocalFrontiers frontiers;

    private ProcessorContext<String, Object> context;
    private KeyValueStore<String, PendingEntry> store;
    private WheelFrontier frontier;
    /** PRIORITY order: where URLs beyond the frontier's memory bound wait (in the pending store), else null. */
    private StoreSpill spill;
    private LocalFrontiers.Slot slot;
    private RevisitStates revisits;
    private long nextSeq;

    SchedulerProcessor(SchedulerConfig config, CrawlClock clock, SchedulerMetrics metrics, LocalFrontiers frontiers) {
        this.config = config;
        this.clock = clock;
        this.metrics = metrics;
        this.frontiers = frontiers;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.store = context.getStateStore(SchedulerTopology.PENDING_STORE);
        this.spill = config.wheel().order() == SchedulerConfig.Order.PRIORITY
                ? new StoreSpill(store, metrics.deferred, metrics.takenBack) : null;
        this.frontier = newFrontier();
        LOG.debug("task {}: {}", context.taskId(), frontier.bound().describe());
        rebuild();
        if (slot != null) {
            frontiers.unregister(context.taskId(), slot);
        }
        slot = frontiers.register(context.taskId());
        publish();
        context.schedule(Duration.ofMillis(config.tickMs()), PunctuationType.WALL_CLOCK_TIME, now -> tick());
        if (revisits != null) {
            revisits.close();
            revisits = null;
        }
        if (config.revisit().enabled()) {
            revisits = config.revisit().state() == SchedulerConfig.RevisitStateMode.SATL
                    ? new SatlRevisits(config.revisit(), context.getStateStore(SchedulerTopology.REVISIT_SATL_STORE),
                    clock, metrics)
                    : new RevisitTracker(config.revisit(), context.getStateStore(SchedulerTopology.REVISIT_STORE),
                    context.stateDir().toPath(), clock, metrics);
            long pages = revisits.open();
            if (pages > 0) {
                LOG.info("task {}: {} fetched pages scheduled for revisits", context.taskId(), pages);
            }
            context.schedule(Duration.ofMillis(revisits.unitMs()), PunctuationType.WALL_CLOCK_TIME,
                    now -> revisitTick());
        }
    }

    private WheelFrontier newFrontier() {
        SchedulerConfig.Wheel w = config.wheel();
        return new WheelFrontier(clock, w.order() == SchedulerConfig.Order.FIFO ? WheelOrder.FIFO
                : WheelOrder.PRIORITY, w.pacingFor(config.politenessMs()), w.queues(), w.residues(),
                config.maxPending(), config.scoreCacheSize(), this::evicted, spill, w.lookahead());
    }

    /**
     * The priority pool evicted a pending URL to make room for a better one: drop it and forget it — or, for a
     * revisit, try it again in one revisit unit (the URL-seen test must not forget a page it has fetched).
     */
    private void evicted(PendingUrl url) {
        if (revisits != null && revisits.evicted(url.fingerprint(), url.seq())) {
            metrics.droppedFrontierFull.increment(); // a held revisit: retried one unit on, no store involved
            return;
        }
        String key = PendingEntry.key(url.ip(), url.seq());
        PendingEntry entry = store.get(key);
        store.delete(key);
        metrics.droppedFrontierFull.increment();
        if (entry != null && entry.kind() == FetchKind.REVISIT) {
            if (revisits != null) {
                revisits.retryLater(entry);
            }
        } else if (entry != null) {
            ForgetUrl forget = ForgetUrl.of(entry.fingerprint(), entry.url(), SchedulerMetrics.FORGET_REASON);
            context.forward(new Record<String, Object>(url.ip(), forget, clock.millis()), SchedulerTopology.FORGET_SINK);
        }
    }

    /** Puts every stored pending URL back into a fresh frontier, in admission order. */
    private void rebuild() {
        long maxSeq = -1;
        List<String> discard = new ArrayList<>();
        List<PendingEntry> entries = new ArrayList<>();
        List<KeyValue<String, PendingEntry>> moved = new ArrayList<>();
        try (KeyValueIterator<String, PendingEntry> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<String, PendingEntry> kv = it.next();
                PendingEntry entry = kv.value;
                if (entry != null && entry.isUsable() && StoreSpill.isSpillKey(kv.key, entry)) {
                    if (spill != null) {
                        spill.restored(); // deferred: stays in the store until the frontier takes it back
                        maxSeq = Math.max(maxSeq, entry.seq()); // its seq stays taken
                        continue;
                    }
                    moved.add(kv); // deferred under order=priority, now another order: restored as pending
                    entries.add(entry);
                    continue;
                }
                if (entry == null || !entry.isUsable() || !kv.key.equals(entry.key())) {
                    metrics.bad(SchedulerTopology.PENDING_STORE, BadRecord.MALFORMED);
                    discard.add(kv.key);
                    continue;
                }
                entries.add(entry);
            }
        }
        for (KeyValue<String, PendingEntry> kv : moved) {
            store.delete(kv.key);
            store.put(kv.value.key(), kv.value);
        }
        entries.sort(Comparator.comparingLong(PendingEntry::seq)); // the store is ordered by IP first
        for (PendingEntry entry : entries) {
            if (!frontier.restore(entry.toPendingUrl())) {
                metrics.droppedDuplicate.increment();
                discard.add(entry.key());
                continue;
            }
            maxSeq = Math.max(maxSeq, entry.seq());
        }
        discard.forEach(store::delete);
        nextSeq = maxSeq + 1;
        long deferred = spill == null ? 0 : spill.size();
        if (frontier.size() > 0 || deferred > 0 || !discard.isEmpty()) {
            LOG.info("task {}: restored {} pending URLs for {} IPs, {} deferred in the spill ({} unusable entries "
                    + "discarded)", context.taskId(), frontier.size(), frontier.activeIps(), deferred, discard.size());
        }
    }

    @Override
    public void process(Record<String, Decoded<?>> record) {
        Decoded<?> decoded = record.value();
        if (InputCheck.usable(record, context, false, metrics::bad) == null) {
            return; // the IP key is checked below, with its length
        }
        String ip = record.key();
        if (!InputChecks.usableIp(ip)) {
            metrics.bad(decoded.topic(), BadRecord.MISSING_KEY);
            return;
        }
        BadRecord problem;
        Object value = decoded.value();
        if (value instanceof AdmittedUrls admitted) {
            problem = admitEach(ip, admitted, decoded.topic(), record.timestamp());
        } else if (value instanceof RankScoreBatch batch) {
            problem = InputChecks.validate(batch);
            if (problem == null) {
                for (RankScore score : batch.scores()) { // each entry as one score record was applied before
                    BadRecord bad = InputChecks.validate(score);
                    if (bad == null) {
                        score(score);
                    } else {
                        metrics.bad(decoded.topic(), bad);
                    }
                }
            }
        } else if (value instanceof FetchResult result) {
            problem = result.v() < 1 || result.v() > FetchResult.VERSION ? BadRecord.UNSUPPORTED_VERSION : null;
            if (problem == null) {
                frontier.fetched(ip, result.fetchedAt(), result.step());
                if (revisits != null && result.url() != null && !result.url().isBlank()) {
                    revisits.onResult(ip, result);
                }
            }
        } else {
            problem = BadRecord.MALFORMED;
        }
        if (problem != null) {
            metrics.bad(decoded.topic(), problem);
        }
        publish();
    }

    /**
     * Admits each entry of one admitted record, in order, exactly as a lone admission under the entry's IP (the
     * record key where a format-1 entry has none; dedup grouped the entries so every IP is on this partition), with
     * the record's link share as its initial score. An entry that cannot be used is counted under its reason and
     * skipped; the rest of the record is used. A share that cannot be used (not finite, negative) is counted and
     * the entries are admitted at 0, as without one.
     *
     * @return why the whole record cannot be used, or null
     */
    private BadRecord admitEach(String key, AdmittedUrls admitted, String topic, long timestamp) {
        if (admitted.v() < 1 || admitted.v() > AdmittedUrls.VERSION) {
            return BadRecord.UNSUPPORTED_VERSION;
        }
        if (admitted.depth() < 0) {
            return BadRecord.NEGATIVE_DEPTH;
        }
        if (admitted.urls().isEmpty()) {
            return BadRecord.MALFORMED;
        }
        double initialScore = 0.0; // the first score the linking page gives each entry, when it says
        if (!LinkShare.usable(admitted.share())) {
            metrics.bad(topic, BadRecord.INVALID_AMOUNT); // the entries are still admitted, at 0 as before
        } else if (admitted.share() != null) {
            initialScore = admitted.share();
        }
        for (AdmittedUrls.Entry e : admitted.urls()) {
            String ip = e.ip() == null ? key : e.ip();
            BadRecord problem = !InputChecks.usableIp(ip) ? BadRecord.MISSING_KEY : InputChecks.validate(e);
            if (problem == null) {
                admit(ip, e.url(), admitted.depth(), e.fingerprint(), timestamp, initialScore);
            } else {
                metrics.bad(topic, problem);
            }
        }
        return null;
    }

    private void admit(String ip, String url, int depth, long fingerprint, long timestamp, double initialScore) {
        long seq = nextSeq;
        switch (frontier.admit(ip, fingerprint, seq, initialScore)) {
            case QUEUED -> {
                nextSeq++;
                PendingUrl queued = frontier.pending(fingerprint);
                store.put(PendingEntry.key(ip, seq), PendingEntry.of(ip, url, depth, fingerprint, seq, queued.score(),
                        timestamp));
            }
            case DUPLICATE -> metrics.droppedDuplicate.increment();
            case DEFERRED -> { // over the frontier's memory bound: kept in the store's spill, not dropped
                nextSeq++;
                double score = frontier.deferredScore();
                spill.put(PendingEntry.of(ip, url, depth, fingerprint, seq, score, timestamp));
            }
            case FRONTIER_FULL -> forget(ip, url, fingerprint, timestamp, metrics.droppedFrontierFull);
            case IP_FULL -> forget(ip, url, fingerprint, timestamp, metrics.droppedIpFull);
        }
    }

    private void forget(String ip, String url, long fingerprint, long timestamp, Counter counter) {
        counter.increment();
        ForgetUrl forget = ForgetUrl.of(fingerprint, url, SchedulerMetrics.FORGET_REASON);
        context.forward(new Record<String, Object>(ip, forget, timestamp), SchedulerTopology.FORGET_SINK);
    }

    /** Reorders the frontier only: the stored entry keeps its admission-time score (see the class comment). */
    private void score(RankScore score) {
        frontier.updateScore(score.fingerprint(), score.score());
    }

    /**
     * Pages whose revisit is due enter the frontier as fetch requests of kind REVISIT — straight into the politeness
     * wheel, not through the priority pool, so a pool full of well-scored new URLs cannot starve them.
     */
    private void revisitTick() {
        long nowUnit = clock.millis() / revisits.unitMs();
        revisits.pollDue(state -> {
            if (!revisits.roomToHold()) {
                metrics.revisitsHeldFull.increment();
                revisits.retryLater(state);
                return;
            }
            long seq = nextSeq;
            switch (frontier.admitToWheel(state.ip(), state.fingerprint(), seq)) {
                case QUEUED -> {
                    nextSeq++;
                    // revisit-state=satl holds the page in memory, its record staying in SAT/L until release; the
                    // store baseline writes a pending entry
                    if (!revisits.hold(state, seq)) {
                        RevisitMemo memo = revisits.taken(state);
                        store.put(PendingEntry.key(state.ip(), seq), revisitEntry(state, seq, memo));
                    }
                    metrics.revisitsDue.increment();
                    metrics.revisitEarly(state.dueUnit() - nowUnit, state.intervalUnits());
                }
                // already pending: the store variant's result reschedules it; the SAT/L variant keeps the state in
                // the queue until then (put back, one unit on; the pending fetch's result replaces it by key)
                case DUPLICATE -> {
                    if (config.revisit().state() == SchedulerConfig.RevisitStateMode.SATL) {
                        revisits.retryLater(state);
                    }
                }
                case FRONTIER_FULL, IP_FULL, DEFERRED -> revisits.retryLater(state); // DEFERRED: not from the wheel
            }
        });
        publish();
    }

    private void tick() {
        long now = clock.millis();
        long before = frontier.steps();
        long timedOutBefore = frontier.stepsAfterTimeout();
        // one call may take several steps (pipelined pacing); during the callback step() is the URL's step
        frontier.releaseReady((url, notBefore) -> release(url, notBefore, frontier.step(), now));
        long timedOut = frontier.stepsAfterTimeout() - timedOutBefore;
        metrics.stepsTimedOut.increment(timedOut);
        metrics.stepsReported.increment(frontier.steps() - before - timedOut);
        publish();
    }

    /**
     * A due page's pending entry. The validators are sent once: inside the memo when there is one (the fetcher reads
     * them there), else as the entry's and the request's own etag and lastModified.
     */
    private PendingEntry revisitEntry(RevisitState state, long seq, RevisitMemo memo) {
        return PendingEntry.revisit(state.ip(), state.url(), state.depth(), state.fingerprint(), seq,
                frontier.pending(state.fingerprint()).score(), clock.millis(),
                memo == null ? state.etag() : null, memo == null ? state.lastModified() : null, memo);
    }

    private void release(PendingUrl url, long notBefore, long step, long now) {
        RevisitState held = revisits == null ? null : revisits.released(url.fingerprint(), url.seq());
        if (held != null) { // its SAT/L record is deleted in this transaction, which sends the request
            FetchRequest request = FetchRequest.revisit(held.url(), held.fingerprint(), held.depth(), step,
                    notBefore, null, null, held.memo());
            context.forward(new Record<String, Object>(url.ip(), request, now), SchedulerTopology.REQUESTS_SINK);
            metrics.released.increment();
            return;
        }
        String key = PendingEntry.key(url.ip(), url.seq());
        PendingEntry entry = store.get(key);
        if (entry == null) {
            // The index and the store are built together; this is a bug, not bad input. Say so loudly.
            LOG.error("task {}: released URL {} has no stored entry under {}", context.taskId(), url, key);
            metrics.bad(SchedulerTopology.PENDING_STORE, BadRecord.MALFORMED);
            return;
        }
        store.delete(key);
        FetchRequest request = entry.toRequest(step, notBefore, url.score());
        context.forward(new Record<String, Object>(url.ip(), request, now), SchedulerTopology.REQUESTS_SINK);
        metrics.released.increment();
    }

    private void publish() {
        long deferred = spill == null ? 0 : spill.size(); // deferred URLs are pending too (idle means none of either)
        slot.update(frontier.size() + deferred, frontier.activeIps(), deferred);
    }

    @Override
    public void close() {
        if (revisits != null) {
            revisits.close();
            revisits = null;
        }
        if (slot != null && context != null) {
            frontiers.unregister(context.taskId(), slot);
            slot = null;
        }
    }
}
