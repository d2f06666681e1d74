package io.github.kcrawler.common.serde;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

import java.util.Objects;

/**
 * Reads a JSON payload into {@link Decoded}: never throws, so unreadable input becomes a counted bad record in the
 * processor rather than an exception in the consumer. A null value (tombstone) decodes to
 * {@link BadRecord#NULL_VALUE}.
 */
public final class LenientJsonDeserializer<T> implements Deserializer<Decoded<T>> {
    private final JsonSerde<T> json;

    public LenientJsonDeserializer(Class<T> type) {
        this.json = JsonSerde.of(Objects.requireNonNull(type, "type"));
    }

    @Override
    public Decoded<T> deserialize(String topic, byte[] data) {
        if (data == null) {
            return Decoded.failed(topic, BadRecord.NULL_VALUE);
        }
        try {
            T value = json.deserialize(topic, data);
            return value == null ? Decoded.failed(topic, BadRecord.MALFORMED) : Decoded.ok(topic, value);
        } catch (SerializationException e) {
            return Decoded.failed(topic, BadRecord.MALFORMED);
        } catch (RuntimeException e) {
            // Decoding untrusted bytes must never fail the stream thread, whatever the parser throws.
            return Decoded.failed(topic, BadRecord.MALFORMED);
        }
    }
}
