package io.github.kcrawler.common.streams;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.ProcessorContextUtils;
import org.apache.kafka.streams.processor.internals.ProcessorRecordContext;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.internals.InternalQueryResultUtil;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * A key-value store whose changelog holds <em>batches</em> of changes, one record per commit, instead of one record
 * per changed key (ours, issue 19's record economy), with periodic snapshots so that the changelog stays a bounded
 * multiple of the live state. Build it with {@link JournalStoreBuilder}.
 *
 * <p><b>Writing.</b> Every change is applied at once to the inner store (RocksDB, which Streams checkpoints as usual)
 * and appended to a pending batch. The batch goes to the changelog as one record when the task prepares its commit
 * ({@link #flushJournal}, called from the top of the store stack after the record cache has been flushed into this
 * layer: Kafka Streams 4.4 calls {@code flushCache} before a commit's offsets are sent), or earlier once it reaches
 * {@link #MAX_BATCH_BYTES}.
 *
 * <p><b>Snapshots.</b> Batch keys are unique, so compaction alone never drops a superseded batch. Once the changes
 * logged since the last snapshot exceed {@code snapshotFactor} times the store's entry count (and at least
 * {@code snapshotMinOps}; service settings, {@link JournalSnapshots}), a snapshot starts under a new random
 * <em>epoch</em>: every live entry, in key order, in <em>chunks</em>. Each chunk names its key range [from, to), and
 * a commit writes chunks up to {@code snapshotCommitBytes} after its own batch, so a large store's snapshot spreads
 * over several commits and no transaction carries a whole store. Batches logged meanwhile go under the new epoch
 * too. The commit that writes the last chunk (no end to its range) also tombstones every record of the old epoch.
 * Compaction then removes the old epoch. The changelog holds at most about {@code 1 + snapshotFactor} times the live
 * entries plus the tombstones awaiting the cleaner, and a snapshot costs one pass over the store every
 * {@code snapshotFactor × entries} changes. A store whose keys are each written about once (the URL-seen set)
 * never snapshots.
 *
 * <p><b>Why it is right.</b> The changelog records of a commit are in the same transaction as its input offsets,
 * exactly as the per-key records of Streams' own logging layer are, and a batch is written before the commit that
 * takes the offsets of the records whose changes it holds. A task closed dirty under exactly-once has its state wiped
 * and restored, so changes applied to the inner store but never logged do not survive. A restore replays the records
 * in offset order: a batch applies its changes; a chunk deletes every key of its range and puts its entries, which
 * is exactly that range as it was when the chunk was written; a tombstone carries nothing. Invariant: replaying the
 * committed records, as compaction leaves them, rebuilds the store as it was after the last commit. A chunk never
 * changes a correct replay (its range is already what it states), and once the last chunk is committed every key
 * lies in some chunk's range, each followed by every later change of its keys (all in later batches of the new
 * epoch), so the records of the old epoch, which the last commit tombstones, are no longer needed. A restore in the
 * middle of a snapshot replays the old epoch whole (nothing of it is tombstoned yet) and continues the snapshot
 * where its last committed chunk ended. Snapshots of the first version, written in one commit with a "clear the
 * store" batch first, replay as they did.
 *
 * <p><b>Its cost in a commit.</b> At most {@code snapshotCommitBytes} of chunks (plus one chunk of at most
 * {@link #MAX_BATCH_BYTES}) and, in the last, one 20-byte tombstone per batch of the old epoch. Each completed
 * snapshot is logged at INFO with its size and time.
 *
 * <p><b>Where the writer is.</b> The epoch, the next batch's sequence number, the changes since the snapshot and the
 * progress of a snapshot under way live in the inner store under the empty key ({@link #POSITION_KEY}; user keys may
 * not be empty), updated with each batch logged or restored, so they always match the local state Streams
 * checkpointed. A store with no position (new, or restored from a changelog written before this class) starts a
 * new epoch.
 *
 * <p><b>Format</b>: {@link JournalFormat}. A record whose key is not a journal key is a per-key record written
 * before this store existed (an upgrade) and is restored as Streams' own logging would: put, or delete for a
 * tombstone.
 *
 * <p><b>After an upgrade.</b> Per-key records of the earlier changelog have keys no batch ever reuses, so compaction
 * alone would keep them forever, replayed by every restore. A store that restored such records, or that found local
 * entries but no position (an upgrade in place), is in <em>legacy</em> mode until its first snapshot completes: each
 * delete also logs a per-key tombstone for its key, and each snapshot chunk is preceded by a per-key tombstone for
 * every key in it. Every key of the earlier changelog was then either deleted before the upgrade (tombstoned then),
 * deleted since (tombstoned at its delete) or live when its chunk was written (tombstoned before it), so compaction
 * removes them all; a replay of those tombstones deletes only what the following chunk's range deletes anyway.
 *
 * <p>Built on Kafka Streams internals, checked against 4.4.0: {@code WrappedStateStore},
 * {@code InternalProcessorContext.logChange} and, for IQv2, {@code InternalQueryResultUtil}. The inner store's own
 * restore callback is replaced with the journal's by handing its {@code init} a context whose {@code register}
 * substitutes it ({@link RestoreRedirect}). Confined to its stream thread, like every store. Interactive queries
 * (version 1 and {@link #query IQv2}) never see the writer's position.
 */
public final class JournalStore extends WrappedStateStore<KeyValueStore<Bytes, byte[]>, Bytes, byte[]>
        implements KeyValueStore<Bytes, byte[]> {
    /** A pending batch or snapshot chunk this large is logged at once: far below a topic's default 1 MiB limit. */
    public static final int MAX_BATCH_BYTES = 256 * 1024;
    /** The inner store's key for the writer's position (epoch, next sequence, changes since the snapshot). */
    public static final Bytes POSITION_KEY = Bytes.wrap(new byte[0]);
    /**
     * Epoch, next sequence, changes since the snapshot, legacy flag, snapshot flag; with a snapshot under way, then
     * the old epoch, its batch count and where the next chunk starts. (Positions of 24 and 25 bytes, written before
     * snapshots were spread over commits, lack the last flags.)
     */
    private static final int POSITION_BYTES = 3 * Long.BYTES + 2;
    private static final int CLEAR_CHUNK = 4096;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Logger LOG = LoggerFactory.getLogger(JournalStore.class);

    private final long snapshotMinOps;
    private final double snapshotFactor;
    private final int snapshotCommitBytes;
    private final JournalBuffer pending = new JournalBuffer();
    private final JournalBuffer chunk = new JournalBuffer();
    private InternalProcessorContext<?, ?> context;
    private long epoch;
    private long sequence;
    private long opsSinceSnapshot;
    /** Per-key records of an earlier changelog may remain (see the class comment); cleared by a snapshot. */
    private boolean legacy;
    /** A snapshot is under way: its chunks so far cover the keys below {@link #snapshotFrom}. */
    private boolean snapshotting;
    /** Where the next chunk of the snapshot under way starts (inclusive). */
    private byte[] snapshotFrom = new byte[0];
    /** The epoch before the snapshot under way, and its number of batches: tombstoned when the snapshot completes. */
    private long oldEpoch;
    private long oldBatches;
    private long snapshotStarted;
    private long snapshotEntries;
    private long snapshotBytes;
    private long batchTimestamp = Long.MIN_VALUE;

    JournalStore(KeyValueStore<Bytes, byte[]> inner, JournalSnapshots snapshots) {
        super(inner);
        this.snapshotMinOps = snapshots.minOps();
        this.snapshotFactor = snapshots.factor();
        this.snapshotCommitBytes = snapshots.commitBytes();
    }

    @Override
    public void init(StateStoreContext stateStoreContext, StateStore root) {
        this.context = ProcessorContextUtils.asInternalProcessorContext(stateStoreContext);
        pending.clear();
        super.init(new RestoreRedirect(stateStoreContext, this::restoreAll), root);
        snapshotting = false;
        byte[] position = wrapped().get(POSITION_KEY);
        if (position != null && position.length >= 3 * Long.BYTES) {
            ByteBuffer b = ByteBuffer.wrap(position);
            epoch = b.getLong();
            sequence = b.getLong();
            opsSinceSnapshot = b.getLong();
            legacy = b.hasRemaining() && b.get() != 0;
            if (b.hasRemaining() && b.get() != 0) {
                snapshotting = true;
                oldEpoch = b.getLong();
                oldBatches = b.getLong();
                snapshotFrom = new byte[b.getInt()];
                b.get(snapshotFrom);
                snapshotStarted = System.nanoTime();
            }
        } else {
            startEpoch();
            legacy = hasUserEntries(); // local state from before the journal, upgraded in place
        }
    }

    /** Whether a snapshot is under way, spread over commits; for tests. */
    boolean snapshotting() {
        return snapshotting;
    }

    /** Whether legacy per-key records may remain in the changelog (see the class comment); for tests. */
    boolean legacy() {
        return legacy;
    }

    private boolean hasUserEntries() {
        try (KeyValueIterator<Bytes, byte[]> it = all()) {
            return it.hasNext();
        }
    }

    @Override
    public void put(Bytes key, byte[] value) {
        checkKey(key);
        wrapped().put(key, value);
        append(key, value);
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        checkKey(key);
        byte[] old = wrapped().putIfAbsent(key, value);
        if (old == null) {
            append(key, value);
        }
        return old;
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        for (KeyValue<Bytes, byte[]> e : entries) {
            checkKey(e.key);
        }
        wrapped().putAll(entries);
        for (KeyValue<Bytes, byte[]> e : entries) {
            append(e.key, e.value);
        }
    }

    @Override
    public byte[] delete(Bytes key) {
        checkKey(key);
        byte[] old = wrapped().delete(key);
        append(key, null);
        return old;
    }

    @Override
    public byte[] get(Bytes key) {
        return key != null && key.get().length == 0 ? null : wrapped().get(key);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return new UserEntries(wrapped().range(from, to));
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return new UserEntries(wrapped().reverseRange(from, to));
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return new UserEntries(wrapped().all());
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return new UserEntries(wrapped().reverseAll());
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix,
                                                                                 PS prefixKeySerializer) {
        return new UserEntries(wrapped().prefixScan(prefix, prefixKeySerializer));
    }

    @Override
    public long approximateNumEntries() {
        return wrapped().approximateNumEntries();
    }

    /**
     * IQv2 as the inner store answers it, without the writer's position: a {@link KeyQuery} for the empty key finds
     * nothing, and a {@link RangeQuery}'s iterator skips it.
     */
    @Override
    @SuppressWarnings("unchecked")
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        QueryResult<R> result = wrapped().query(query, positionBound, config);
        if (!result.isSuccess()) {
            return result;
        }
        if (query instanceof KeyQuery<?, ?> key && key.getKey() instanceof Bytes k && k.get().length == 0) {
            return InternalQueryResultUtil.copyAndSubstituteDeserializedResult(result, null);
        }
        if (query instanceof RangeQuery<?, ?> && result.getResult() instanceof KeyValueIterator<?, ?> it) {
            return InternalQueryResultUtil.copyAndSubstituteDeserializedResult(result,
                    (R) new UserEntries((KeyValueIterator<Bytes, byte[]>) it));
        }
        return result;
    }

    /**
     * Logs what this commit changed: its batch, or a snapshot when the changes since the last one have grown past
     * the threshold. Called before the commit's offsets are sent.
     */
    public void flushJournal() {
        if (snapshotting) {
            logPending();
            continueSnapshot();
            return;
        }
        if (pending.isEmpty()) {
            return;
        }
        logPending();
        if (opsSinceSnapshot > Math.max(snapshotMinOps, snapshotFactor * wrapped().approximateNumEntries())) {
            startSnapshot();
            continueSnapshot();
        }
    }

    /** Throws the uncommitted batch away (the task's uncommitted work is wiped and restored then). */
    public void clearJournal() {
        pending.clear();
        batchTimestamp = Long.MIN_VALUE;
    }

    private static void checkKey(Bytes key) {
        Objects.requireNonNull(key, "key");
        if (key.get().length == 0) {
            throw new IllegalArgumentException("the empty key is reserved by the journal store");
        }
    }

    private void append(Bytes key, byte[] value) {
        ProcessorRecordContext record = context.recordContext();
        if (record != null) {
            batchTimestamp = Math.max(batchTimestamp, record.timestamp());
        }
        if (legacy && value == null) {
            send(key, null); // the key's per-key record of the earlier changelog may remain: tombstone it
        }
        pending.append(key.get(), value);
        opsSinceSnapshot++;
        if (pending.size() >= MAX_BATCH_BYTES) {
            logPending();
        }
    }

    private void logPending() {
        if (pending.isEmpty()) {
            return;
        }
        send(JournalFormat.key(epoch, sequence++), pending.toByteArray());
        pending.clear();
        batchTimestamp = Long.MIN_VALUE;
        savePosition();
    }

    /** The snapshot's epoch starts: the current one, with all its batches, is tombstoned once it completes. */
    private void startSnapshot() {
        oldEpoch = epoch;
        oldBatches = sequence;
        startEpoch();
        snapshotting = true;
        snapshotFrom = new byte[0];
        snapshotStarted = System.nanoTime(); // for the log line only
        snapshotEntries = 0;
        snapshotBytes = 0;
    }

    /**
     * Logs the snapshot's next chunks, in key order, until this commit has written {@code snapshotCommitBytes}
     * (a chunk holds at least one entry, so at most one entry more) or the store's end is reached; then the snapshot is
     * complete, and the old epoch's batches are tombstoned in the same commit. Each chunk states its key range, so a
     * replay deletes whatever that range held before its puts: the chunk is exact as of its commit, whatever the
     * changelog before it still holds.
     */
    private void continueSnapshot() {
        long written = 0;
        List<Bytes> legacyKeys = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = new UserEntries(wrapped().range(Bytes.wrap(snapshotFrom), null))) {
            while (snapshotting && written < snapshotCommitBytes) {
                chunk.clear();
                legacyKeys.clear();
                while (it.hasNext() && (chunk.isEmpty() || (chunk.size() < MAX_BATCH_BYTES
                        && written + chunk.size() < snapshotCommitBytes))) {
                    KeyValue<Bytes, byte[]> e = it.next();
                    chunk.append(e.key.get(), e.value);
                    snapshotEntries++;
                    if (legacy) {
                        legacyKeys.add(e.key);
                    }
                }
                byte[] to = it.hasNext() ? it.peekNextKey().get() : null;
                for (Bytes k : legacyKeys) { // before the chunk, whose range replays as deleted first anyway
                    send(k, null);
                }
                byte[] record = chunk.toChunk(snapshotFrom, to);
                send(JournalFormat.key(epoch, sequence++), record);
                written += record.length;
                snapshotBytes += record.length;
                if (to == null) {
                    completeSnapshot();
                } else {
                    snapshotFrom = to;
                }
            }
        }
        chunk.clear();
        batchTimestamp = Long.MIN_VALUE;
        savePosition();
    }

    private void completeSnapshot() {
        for (long s = 0; s < oldBatches; s++) {
            send(JournalFormat.key(oldEpoch, s), null);
        }
        LOG.info("Store {} of task {}: snapshot of {} entries ({} bytes, {} records) in {} ms; {} older batches "
                + "tombstoned{}", name(), context.taskId(), snapshotEntries, snapshotBytes, sequence,
                (System.nanoTime() - snapshotStarted) / 1_000_000, oldBatches,
                legacy ? ", and the per-key records of an earlier changelog" : "");
        snapshotting = false;
        legacy = false;
        snapshotFrom = new byte[0];
    }

    private void startEpoch() {
        epoch = RANDOM.nextLong();
        sequence = 0;
        opsSinceSnapshot = 0;
    }

    private void send(Bytes key, byte[] value) {
        long timestamp = batchTimestamp == Long.MIN_VALUE ? 0L : batchTimestamp;
        context.logChange(name(), key, value, timestamp, new RecordHeaders(), wrapped().getPosition());
    }

    private void savePosition() {
        ByteBuffer b = ByteBuffer.allocate(POSITION_BYTES + (snapshotting ? 2 * Long.BYTES + Integer.BYTES
                + snapshotFrom.length : 0)).putLong(epoch).putLong(sequence).putLong(opsSinceSnapshot)
                .put((byte) (legacy ? 1 : 0)).put((byte) (snapshotting ? 1 : 0));
        if (snapshotting) {
            b.putLong(oldEpoch).putLong(oldBatches).putInt(snapshotFrom.length).put(snapshotFrom);
        }
        wrapped().put(POSITION_KEY, b.array());
    }

    /** Applies changelog records in offset order (see the class comment), then records where the writer stands. */
    void restoreAll(Collection<KeyValue<byte[], byte[]>> records) {
        List<KeyValue<Bytes, byte[]>> changes = new ArrayList<>();
        boolean[] positionChanged = {false};
        JournalFormat.replay(records, new JournalFormat.Replay() {
            @Override
            public void clear() {
                changes.clear();
                clearInner(null, null);
                legacy = false;
            }

            @Override
            public void clearRange(byte[] from, byte[] to) {
                if (!changes.isEmpty()) { // the changes before the chunk, in order, then the range's deletion
                    wrapped().putAll(changes);
                    changes.clear();
                }
                clearInner(from, to);
                if (from.length == 0) { // a snapshot starts: the epoch replayed so far is the old one
                    oldEpoch = epoch;
                    oldBatches = sequence;
                    snapshotting = true;
                    snapshotStarted = System.nanoTime();
                    snapshotEntries = 0;
                    snapshotBytes = 0;
                }
                if (to == null) {
                    snapshotting = false;
                    legacy = false;
                    snapshotFrom = new byte[0];
                } else {
                    snapshotFrom = to;
                }
            }

            @Override
            public void perKey() {
                legacy = true;
                positionChanged[0] = true; // saved, so that a restart remembers it
            }

            @Override
            public void batch(long batchEpoch, long batchSequence, int ops) {
                if (batchEpoch != epoch) {
                    epoch = batchEpoch;
                    opsSinceSnapshot = 0;
                }
                sequence = batchSequence + 1;
                opsSinceSnapshot += ops;
                positionChanged[0] = true;
            }

            @Override
            public void change(byte[] key, byte[] value) {
                changes.add(KeyValue.pair(Bytes.wrap(key), value));
            }
        });
        if (!changes.isEmpty()) {
            wrapped().putAll(changes); // a null value deletes, in order, as in Streams' own restore
        }
        if (positionChanged[0]) {
            savePosition();
        }
    }

    /** Deletes the inner store's keys from {@code from} (inclusive) to {@code to} (exclusive); null: no bound. */
    private void clearInner(byte[] from, byte[] to) {
        while (true) {
            List<KeyValue<Bytes, byte[]>> deletes = new ArrayList<>(CLEAR_CHUNK);
            try (KeyValueIterator<Bytes, byte[]> it = from == null ? wrapped().all()
                    : wrapped().range(Bytes.wrap(from), to == null ? null : Bytes.wrap(to))) {
                while (it.hasNext() && deletes.size() < CLEAR_CHUNK) {
                    Bytes k = it.next().key;
                    if (from == null || JournalFormat.inRange(k.get(), from, to)) {
                        deletes.add(KeyValue.pair(k, null));
                    }
                }
            }
            if (deletes.isEmpty()) {
                return;
            }
            wrapped().putAll(deletes);
        }
    }
}
