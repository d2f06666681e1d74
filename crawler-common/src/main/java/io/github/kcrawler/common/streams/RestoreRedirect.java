package io.github.kcrawler.common.streams;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.CommitCallback;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.RecordMetadata;

import java.io.File;
import java.util.Map;
import java.util.Optional;

/**
 * The context a {@link JournalStore} hands its inner store's {@code init}: the real one, except that the restore
 * callback the inner store registers is replaced with the journal's, which decodes batches before applying them.
 */
record RestoreRedirect(StateStoreContext delegate, BatchingStateRestoreCallback journal) implements StateStoreContext {
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
    public void register(StateStore store, StateRestoreCallback callback, CommitCallback onCommit) {
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
