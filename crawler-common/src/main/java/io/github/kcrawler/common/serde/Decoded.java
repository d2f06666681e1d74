package io.github.kcrawler.common.serde;

/**
 * The result of reading one input value: either the payload or the reason it could not be read, with the topic it
 * came from. Decoding is a total function, so a malformed record reaches the processor, which counts it under
 * {@code crawler.records.bad} with its reason, instead of being dropped by a deserialization handler that cannot
 * reach our metrics.
 *
 * @param topic  the topic the record was read from
 * @param value  the payload, or null when decoding failed
 * @param failure why decoding failed, or null when {@code value} is set
 */
public record Decoded<T>(String topic, T value, BadRecord failure) {
    public Decoded {
        if ((value == null) == (failure == null)) {
            throw new IllegalArgumentException("exactly one of value and failure must be set, was " + value + " / " + failure);
        }
    }

    public static <T> Decoded<T> ok(String topic, T value) {
        return new Decoded<>(topic, value, null);
    }

    public static <T> Decoded<T> failed(String topic, BadRecord failure) {
        return new Decoded<>(topic, null, failure);
    }

    public boolean isOk() {
        return value != null;
    }
}
