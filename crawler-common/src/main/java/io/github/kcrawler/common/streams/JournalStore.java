package io.github.kcrawler.common.streams;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.CommitCallback;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.ProcessorContextUtils;
import org.apache.kafka.streams.processor.internals.ProcessorRecordContext;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

import java.io.File;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A key-value store whose changelog holds <em>batches</em> of changes instead of one record per changed key (ours,
 * issue 19's record economy). Every change is applied at once to the inner store (RocksDB, which Streams checkpoints
 * as usual) and appended to a pending batch; the batch goes to the changelog as one record when the task prepares
 * its commit ({@code flushCache}, which Kafka Streams 4.4 calls before the transaction's offsets are sent), or earlier
 * once it reaches {@link #MAX_BATCH_BYTES}. A restore replays the batches in offset order.
 *
 * <p>Why it is right: the changelog records of a commit are in the same transaction as its input offsets, exactly as
 * the per-key records of Streams' own logging layer are, and a batch is written before the commit that takes the
 * offsets of the records whose changes it holds. A task closed dirty under exactly-once has its state wiped and
 * restored, so changes applied to the inner store but never logged do not survive. Replaying every committed batch
 * in order rebuilds the store as it was after the last commit.
 *
 * <p>What it costs: journal keys are unique, so compaction never drops a superseded batch, and the changelog (and a
 * full restore) grows with every change ever made, not with the number of live keys. Use it only for a store whose
 * keys are written about once: the URL-seen set (one put per admitted URL, a delete per rare forget).
 *
 * <p>Changelog format. Key: {@link #MAGIC} then the writer's random incarnation and its sequence number (20 bytes;
 * unique, so two batches never compact each other away). Value: version byte {@code 1}, then per change: op byte
 * ({@code 0} delete, {@code 1} put), key length (unsigned varint) and key, and for a put the value's length and value.
 * A record whose key is not a journal key is a per-key record written before this store existed (an upgrade) and is
 * restored as Streams' own logging would: put, or delete for a tombstone.
 *
 * <p>Built on two Kafka Streams internals, both checked against 4.4.0: {@code WrappedStateStore} (whose
 * {@code flushCache} the state manager calls before a commit) and {@code InternalProcessorContext.logChange}. The
 * inner store's own restore callback is replaced with the journal's one by handing its {@code init} a context whose
 * {@code register} substitutes it. Confined to its stream thread, like every store.
 */
public final class JournalStore extends WrappedStateStore<KeyValueStore<Bytes, byte[]>, Bytes, byte[]>
        implements KeyValueStore<Bytes, byte[]> {
    /** First four bytes of every journal key. */
    static final byte[] MAGIC = {'k', 'c', 'j', '1'};
    static final int KEY_LENGTH = MAGIC.length + 2 * Long.BYTES;
    static final byte VERSION = 1;
    static final byte OP_DELETE = 0;
    static final byte OP_PUT = 1;
    /** A pending batch this large is logged at once: far below a topic's default 1 MiB message limit. */
    public static final int MAX_BATCH_BYTES = 256 * 1024;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final JournalBuffer pending = new JournalBuffer();
    private InternalProcessorContext<?, ?> context;
    private long incarnation;
    private long sequence;
    private long batchTimestamp = Long.MIN_VALUE;
    private long batchesLogged;

    JournalStore(KeyValueStore<Bytes, byte[]> inner) {
        super(inner);
    }

    /** A builder for a journal-logged store over {@code inner} (for instance {@code Stores.persistentKeyValueStore}). */
    public static StoreBuilder<KeyValueStore<Bytes, byte[]>> builder(KeyValueBytesStoreSupplier inner) {
        return new Builder(inner);
    }

    @Override
    public void init(StateStoreContext stateStoreContext, StateStore root) {
        this.context = ProcessorContextUtils.asInternalProcessorContext(stateStoreContext);
        this.incarnation = RANDOM.nextLong();
        this.sequence = 0;
        pending.clear();
        super.init(new RestoreRedirect(stateStoreContext, this::restoreAll), root);
    }

    @Override
    public void put(Bytes key, byte[] value) {
        Objects.requireNonNull(key, "key");
        wrapped().put(key, value);
        append(key, value);
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        Objects.requireNonNull(key, "key");
        byte[] old = wrapped().putIfAbsent(key, value);
        if (old == null) {
            append(key, value);
        }
        return old;
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        wrapped().putAll(entries);
        for (KeyValue<Bytes, byte[]> e : entries) {
            append(Objects.requireNonNull(e.key, "key"), e.value);
        }
    }

    @Override
    public byte[] delete(Bytes key) {
        Objects.requireNonNull(key, "key");
        byte[] old = wrapped().delete(key);
        append(key, null);
        return old;
    }

    @Override
    public byte[] get(Bytes key) {
        return wrapped().get(key);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return wrapped().range(from, to);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return wrapped().reverseRange(from, to);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return wrapped().all();
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return wrapped().reverseAll();
    }

    @Override
    public long approximateNumEntries() {
        return wrapped().approximateNumEntries();
    }

    /** Called by the state manager before each commit: the pending batch joins the commit's transaction. */
    @Override
    public void flushCache() {
        logPending();
        super.flushCache();
    }

    /** Called when the task's uncommitted work is thrown away (it is wiped and restored then). */
    @Override
    public void clearCache() {
        pending.clear();
        batchTimestamp = Long.MIN_VALUE;
        super.clearCache();
    }

    /** Changelog records written by this instance since {@link #init}. */
    public long batchesLogged() {
        return batchesLogged;
    }

    private void append(Bytes key, byte[] value) {
        ProcessorRecordContext record = context.recordContext();
        if (record != null) {
            batchTimestamp = Math.max(batchTimestamp, record.timestamp());
        }
        pending.append(key.get(), value);
        if (pending.size() >= MAX_BATCH_BYTES) {
            logPending();
        }
    }

    private void logPending() {
        if (pending.isEmpty()) {
            return;
        }
        long timestamp = batchTimestamp == Long.MIN_VALUE ? 0L : batchTimestamp;
        context.logChange(name(), journalKey(incarnation, sequence++), pending.toByteArray(), timestamp,
                new RecordHeaders(), wrapped().getPosition());
        batchesLogged++;
        pending.clear();
        batchTimestamp = Long.MIN_VALUE;
    }

    /** Applies changelog records in offset order: journal batches op by op, earlier per-key records as they are. */
    void restoreAll(Collection<KeyValue<byte[], byte[]>> records) {
        List<KeyValue<Bytes, byte[]>> changes = changes(records);
        if (!changes.isEmpty()) {
            wrapped().putAll(changes); // a null value deletes, in order, as in Streams' own restore
        }
    }

    /** The changes that changelog records stand for, in order; a null value is a delete. Throws on a damaged batch. */
    public static List<KeyValue<Bytes, byte[]>> changes(Collection<KeyValue<byte[], byte[]>> records) {
        List<KeyValue<Bytes, byte[]>> changes = new ArrayList<>();
        for (KeyValue<byte[], byte[]> r : records) {
            if (isJournalKey(r.key)) {
                if (r.value != null) { // a journal key is never deleted; a tombstone of one would carry nothing
                    JournalBuffer.decode(r.value, (k, v) -> changes.add(KeyValue.pair(Bytes.wrap(k), v)));
                }
            } else {
                changes.add(KeyValue.pair(Bytes.wrap(r.key), r.value));
            }
        }
        return changes;
    }

    static Bytes journalKey(long incarnation, long sequence) {
        byte[] k = new byte[KEY_LENGTH];
        System.arraycopy(MAGIC, 0, k, 0, MAGIC.length);
        JournalBuffer.putLong(k, MAGIC.length, incarnation);
        JournalBuffer.putLong(k, MAGIC.length + Long.BYTES, sequence);
        return Bytes.wrap(k);
    }

    static boolean isJournalKey(byte[] key) {
        if (key == null || key.length != KEY_LENGTH) {
            return false;
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (key[i] != MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    /** Hands the inner store's {@code init} the real context, except that its restore callback becomes ours. */
    private record RestoreRedirect(StateStoreContext delegate, BatchingStateRestoreCallback journal)
            implements StateStoreContext {
        @Override
        public String applicationId() {
            return delegate.applicationId();
        }

        @Override
        public TaskId taskId() {
            return delegate.taskId();
        }

        @Override
        public Optional<RecordMetadata> recordMetadata() {
            return delegate.recordMetadata();
        }

        @Override
        public Serde<?> keySerde() {
            return delegate.keySerde();
        }

        @Override
        public Serde<?> valueSerde() {
            return delegate.valueSerde();
        }

        @Override
        public File stateDir() {
            return delegate.stateDir();
        }

        @Override
        public StreamsMetrics metrics() {
            return delegate.metrics();
        }

        @Override
        public void register(StateStore store, StateRestoreCallback callback) {
            delegate.register(store, journal);
        }

        @Override
        public void register(StateStore store, StateRestoreCallback callback,
                             CommitCallback onCommit) {
            delegate.register(store, journal, onCommit);
        }

        @Override
        public Map<String, Object> appConfigs() {
            return delegate.appConfigs();
        }

        @Override
        public Map<String, Object> appConfigsWithPrefix(String prefix) {
            return delegate.appConfigsWithPrefix(prefix);
        }
    }

    /** Builds the store without Streams' per-key logging layer: the journal is the logging. Logging cannot be off. */
    private static final class Builder implements StoreBuilder<KeyValueStore<Bytes, byte[]>> {
        private final KeyValueBytesStoreSupplier inner;
        private Map<String, String> logConfig = new HashMap<>();

        Builder(KeyValueBytesStoreSupplier inner) {
            this.inner = Objects.requireNonNull(inner, "inner");
        }

        @Override
        public StoreBuilder<KeyValueStore<Bytes, byte[]>> withCachingEnabled() {
            throw new UnsupportedOperationException("a journal store has no record cache: its batch is the cache");
        }

        @Override
        public StoreBuilder<KeyValueStore<Bytes, byte[]>> withCachingDisabled() {
            return this;
        }

        @Override
        public StoreBuilder<KeyValueStore<Bytes, byte[]>> withLoggingEnabled(Map<String, String> config) {
            this.logConfig = new HashMap<>(Objects.requireNonNull(config, "config"));
            return this;
        }

        @Override
        public StoreBuilder<KeyValueStore<Bytes, byte[]>> withLoggingDisabled() {
            throw new UnsupportedOperationException("a journal store is its changelog; use a plain store instead");
        }

        @Override
        public KeyValueStore<Bytes, byte[]> build() {
            return new JournalStore(inner.get());
        }

        @Override
        public Map<String, String> logConfig() {
            return logConfig;
        }

        @Override
        public boolean loggingEnabled() {
            return true;
        }

        @Override
        public String name() {
            return inner.name();
        }
    }
}
