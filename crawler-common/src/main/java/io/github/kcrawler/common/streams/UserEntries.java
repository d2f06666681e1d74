package io.github.kcrawler.common.streams;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

/** The inner store's entries without the writer's position. */
final class UserEntries implements KeyValueIterator<Bytes, byte[]> {
    private final KeyValueIterator<Bytes, byte[]> inner;

    UserEntries(KeyValueIterator<Bytes, byte[]> inner) {
        this.inner = inner;
    }

    private void skipPosition() {
        while (inner.hasNext() && inner.peekNextKey().get().length == 0) {
            inner.next();
        }
    }

    @Override
    public boolean hasNext() {
        skipPosition();
        return inner.hasNext();
    }

    @Override
    public KeyValue<Bytes, byte[]> next() {
        skipPosition();
        return inner.next();
    }

    @Override
    public Bytes peekNextKey() {
        skipPosition();
        return inner.peekNextKey();
    }

    @Override
    public void close() {
        inner.close();
    }
}
