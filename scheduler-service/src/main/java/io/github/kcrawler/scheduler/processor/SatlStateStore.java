package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.scheduler.revisit.RevisitQueue;
import io.github.kcrawler.scheduler.revisit.RevisitRecords;
import io.github.kcrawler.scheduler.revisit.SatlStore;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A task's revisit state as a Kafka Streams state store whose storage <em>is</em> paper 003's SAT/L queue
 * ({@link SatlStore}; issue 22): the innermost store under Streams' change-logging and metered layers
 * ({@code Stores.keyValueStoreBuilder(supplier(...), ...)}, logging on, caching off). Key: the page's URL fingerprint
 * (8 bytes); value: its revisit record ({@link RevisitRecords#record}: the binary form of
 * {@link io.github.kcrawler.scheduler.revisit.RevisitStateCodec} — format byte, due unit, the state — typically ~110
 * bytes, at most {@link RevisitRecords#MAX_RECORD_BYTES}); a null value removes the page. Records of the earlier form
 * (8-byte due unit, then the state's JSON), written before the binary codec, are still restored as they are and read
 * when they come due, so a changelog from before the change needs no migration.
 *
 * <p>What is written per revisit. A due page leaves the queue by {@code poll} and waits in the frontier, held in
 * memory ({@link SatlRevisits#hold}); its changelog record stays as it is. When the frontier releases it, the
 * processor deletes its key (one tombstone, 8 bytes of key, on the changelog) in the transaction that sends the
 * REVISIT request, which carries the state; the state comes back on the result, and the processor puts the next state
 * (one changelog record of the record's size, one SAT/L append of the same bytes; {@code bench revisits} reports both
 * as {@code changelogBytesPerRevisit} and {@code bucketBytesPerRevisit}). The append goes to a write buffer; it reaches
 * a bucket file only when the buffers are full, and then, under {@code revisit-flush-order=farthest-first} (ours),
 * the buffers due last go first, so a record's re-queues into finer buckets as its time nears (paper 003 §3, strict
 * timing) mostly stay in memory until processed. No read of any store: {@link #get},
 * {@link #range} and {@link #all} are never called by the processor and are counted ({@link #reads()}) so tests can
 * hold it to that.
 *
 * <p>Why nothing is lost or duplicated after a kill at any point. Under exactly-once, a task's changelog writes, its
 * pending-store writes, its requests and its input offsets commit together or not at all. Committed, a fetched page
 * is in exactly one place: in this store's changelog (a put: not yet due, or due and held by the frontier, which a
 * restore makes due at once), in the pending store (a REVISIT entry with its memo, written by an earlier version of
 * the processor), or on a fetch request or its result not yet consumed (the memo), each move between two places one
 * transaction. The store is not persistent ({@link #persistent()} false): Streams keeps no checkpoint for it, so
 * at every task start — after a clean stop, a crash, or a move to another instance — the local SAT/L files are
 * deleted and the compacted changelog is replayed from its beginning into fresh buckets (a sequential read of the
 * topic; each record appended to its bucket's write buffer, no random I/O). Replay keeps the last value per key, so a
 * page is scheduled once whatever the number of its records; an aborted transaction's records are not read
 * (read-committed restore). A tombstone replayed removes the key.
 *
 * <p>Changelog order: records are keyed by fingerprint, so compaction keeps exactly one per page; they are not
 * bucket-ordered (a bucket key would need a tombstone for the old bucket on every move, and the changelog is read
 * sequentially either way). A record whose due time has passed by the time it is restored is placed in the current
 * unit and comes due at the next poll.
 *
 * <p>Bad records in the changelog (wrong key length, value not a revisit record) are skipped and counted
 * ({@link #junk()}), never thrown: the task must start.
 */
final class SatlStateStore implements KeyValueStore<Bytes, byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(SatlStateStore.class);
    static final String DIR = "revisit-satl";

    private final String name;
    private final CrawlClock clock;
    private final SchedulerConfig.Revisit config;
    private Path dir;
    private SatlStore queue;
    private Position position = Position.emptyPosition();
    private long reads;
    private long writes;
    private long bytesWritten;
    private long restored;
    private long junk;
    /**
     * The queue's {@code bytesWritten()} when last added to {@code crawler.scheduler.revisit.bucket.bytes}: kept with
     * the queue, so a processor re-initialised over the same queue does not count its bytes twice.
     */
    long bucketBytesCounted;
    /**
     * Due pages the frontier took and has not released yet ({@link SatlRevisits#hold}), by fingerprint: their
     * changelog records still hold them (with a due time that has passed), so they are in memory only for building
     * the request. Kept with the queue, for the same reason as {@link #bucketBytesCounted}; emptied by {@link #init},
     * whose replay makes every one of them due again.
     */
    final Long2ObjectOpenHashMap<SatlRevisits.Held> held = new Long2ObjectOpenHashMap<>();

    SatlStateStore(String name, CrawlClock clock, SchedulerConfig.Revisit config) {
        this.name = name;
        this.clock = clock;
        this.config = config;
    }

    /** A supplier of these stores, for {@code Stores.keyValueStoreBuilder} (logging on, caching off). */
    static KeyValueBytesStoreSupplier supplier(String name, CrawlClock clock, SchedulerConfig.Revisit config) {
        return new KeyValueBytesStoreSupplier() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public KeyValueStore<Bytes, byte[]> get() {
                return new SatlStateStore(name, clock, config);
            }

            @Override
            public String metricsScope() {
                return "satl";
            }
        };
    }

    /** The innermost {@code SatlStateStore} under Streams' wrapping layers, or null if {@code store} is not one. */
    static SatlStateStore unwrap(StateStore store) {
        StateStore s = store;
        while (s instanceof org.apache.kafka.streams.state.internals.WrappedStateStore<?, ?, ?> w) {
            s = w.wrapped();
        }
        return s instanceof SatlStateStore satl ? satl : null;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        closeQueue();
        bucketBytesCounted = 0;
        held.clear();
        dir = context.stateDir().toPath().resolve(DIR);
        try {
            deleteDir(dir);
            queue = SatlStore.open(dir, unit(clock.millis()),
                    config.bucketOptions());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the revisit queue in " + dir, e);
        }
        context.register(root, (key, value) -> {
            restored++;
            apply(key, value);
        });
    }

    private long unit(long ms) {
        return Math.floorDiv(ms, config.unitMs());
    }

    /** The SAT/L queue, for polling due pages (the processor's only way in besides put and delete). */
    RevisitQueue queue() {
        if (queue == null) {
            throw new IllegalStateException("store " + name + " is not open");
        }
        return queue;
    }

    /** The revisit time unit that contains now. */
    long now() {
        return unit(clock.millis());
    }

    private void apply(byte[] key, byte[] value) {
        if (key == null || key.length != Long.BYTES) {
            junk++;
            return;
        }
        long fp = ByteBuffer.wrap(key).getLong();
        try {
            if (value == null) {
                queue.delete(fp);
            } else if (!RevisitRecords.wellFormed(value, value.length)) {
                junk++;
                queue.delete(fp); // a later record of the key supersedes an earlier one, even an unusable one
            } else {
                queue.schedule(fp, Math.max(RevisitRecords.due(value), queue.now()), value);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("revisit queue write failed in " + dir, e);
        }
    }

    @Override
    public void put(Bytes key, byte[] value) {
        writes++;
        if (value != null) {
            bytesWritten += value.length;
        }
        apply(key.get(), value);
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        throw new UnsupportedOperationException("the revisit queue is written with put and delete only");
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        for (KeyValue<Bytes, byte[]> e : entries) {
            put(e.key, e.value);
        }
    }

    /** Removes the key if it is scheduled; returns null (the queue is not randomly readable). */
    @Override
    public byte[] delete(Bytes key) {
        writes++;
        apply(key.get(), null);
        return null;
    }

    /** Not readable by key: counted, returns null. */
    @Override
    public byte[] get(Bytes key) {
        reads++;
        return null;
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        reads++;
        throw new UnsupportedOperationException("the revisit queue is read by due time only (poll)");
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        reads++;
        throw new UnsupportedOperationException("the revisit queue is read by due time only (poll)");
    }

    @Override
    public long approximateNumEntries() {
        return queue == null ? 0 : queue.size();
    }

    /** Calls of get, range or all: by key or range, i.e. random reads (0 in the crawler). */
    long reads() {
        return reads;
    }

    /** Puts and deletes (each one changelog record). */
    long writes() {
        return writes;
    }

    /** Bytes of the records put (each written once to the changelog and once to a bucket). */
    long recordBytesWritten() {
        return bytesWritten;
    }

    /** Changelog records replayed by the last restore. */
    long restored() {
        return restored;
    }

    /** Changelog records that were not revisit records, skipped. */
    long junk() {
        return junk;
    }

    @Override
    public Position getPosition() {
        return position;
    }

    @Override
    public void flush() {
        // nothing to make durable locally: the changelog is the store's durability (not persistent)
    }

    @Override
    public void close() {
        closeQueue();
        if (dir != null) {
            try {
                deleteDir(dir);
            } catch (IOException e) {
                LOG.warn("could not delete the revisit queue files in {}: {}", dir, e.toString());
            }
        }
    }

    private void closeQueue() {
        if (queue != null) {
            try {
                queue.close();
            } catch (IOException e) {
                LOG.warn("closing the revisit queue in {} failed: {}", dir, e.toString());
            }
            queue = null;
        }
    }

    @Override
    public boolean persistent() {
        return false;
    }

    @Override
    public boolean isOpen() {
        return queue != null;
    }

    static void deleteDir(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
