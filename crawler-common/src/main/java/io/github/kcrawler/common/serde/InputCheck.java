package io.github.kcrawler.common.serde;

import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The checks every stream processor makes before it looks at a record's value, in one place: the value was decoded
 * (a {@link LenientJsonDeserializer} hands over failures as {@link Decoded} instead of throwing), and the record has
 * the key the topic promises. A record that fails is counted under its topic with the reason and skipped.
 */
public final class InputCheck {
    /** Where a skipped record is counted. */
    @FunctionalInterface
    public interface BadSink {
        void bad(String topic, BadRecord reason);
    }

    private InputCheck() {
    }

    /**
     * Returns the record's decoded value, or null after telling {@code bad} why it cannot be used.
     *
     * @param keyRequired whether a record without a key is refused ({@link BadRecord#MISSING_KEY})
     */
    public static <V> V usable(Record<String, ? extends Decoded<? extends V>> record, ProcessorContext<?, ?> context,
                               boolean keyRequired, BadSink bad) {
        Decoded<? extends V> decoded = record.value();
        if (decoded == null) { // only if a deserializer other than ours is wired in
            bad.bad(context.recordMetadata().map(RecordMetadata::topic).orElse(null), BadRecord.NULL_VALUE);
            return null;
        }
        if (!decoded.isOk()) {
            bad.bad(decoded.topic(), decoded.failure());
            return null;
        }
        if (keyRequired && record.key() == null) {
            bad.bad(decoded.topic(), BadRecord.MISSING_KEY);
            return null;
        }
        return decoded.value();
    }
}
