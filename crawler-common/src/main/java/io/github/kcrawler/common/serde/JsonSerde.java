package io.github.kcrawler.common.serde;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.io.IOException;

/**
 * JSON serde for the crawler's record types, so every topic is readable with Kafka's console consumer.
 * Unknown fields are ignored (a newer producer may add fields under the same format version); a payload that is
 * not JSON of the expected shape raises {@link SerializationException}, which Streams routes to its
 * deserialization exception handler and plain consumers count and skip.
 */
public final class JsonSerde<T> implements Serde<T>, Serializer<T>, Deserializer<T> {
    /**
     * One mapper for the whole JVM: thread-safe once configured. Blackbird binds records through generated lambdas
     * instead of reflection ({@code SerdeJmh} in src/jmh measures one page's records written and read against a
     * plain reflective mapper; BENCHMARKS.md, "Pipeline figures per page").
     */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS) // a record then garbage is not a record
            .addModule(new BlackbirdModule())
            .build();

    private final Class<T> type;

    private JsonSerde(Class<T> type) {
        this.type = type;
    }

    /** Writes {@code value} as indented JSON to {@code file} (summaries, reports), creating its directory. */
    public static void writeIndented(java.nio.file.Path file, Object value) throws IOException {
        java.nio.file.Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            java.nio.file.Files.createDirectories(parent);
        }
        java.nio.file.Files.write(file, MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(value));
    }

    public static <T> JsonSerde<T> of(Class<T> type) {
        return new JsonSerde<>(type);
    }

    public Class<T> type() {
        return type;
    }

    @Override
    public byte[] serialize(String topic, T data) {
        if (data == null) {
            return null;
        }
        try {
            return MAPPER.writeValueAsBytes(data);
        } catch (IOException e) {
            throw new SerializationException("cannot write " + type.getSimpleName() + " to topic " + topic, e);
        }
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        return read(topic, data);
    }

    private T read(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        try {
            return MAPPER.readValue(data, type);
        } catch (IOException e) {
            throw new SerializationException("topic " + topic + ": not a " + type.getSimpleName() + " JSON payload ("
                    + data.length + " bytes): " + e.getMessage(), e);
        }
    }

    @Override
    public Serializer<T> serializer() {
        return this;
    }

    @Override
    public Deserializer<T> deserializer() {
        return this;
    }

    @Override
    public void configure(java.util.Map<String, ?> configs, boolean isKey) {
    }

    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "JsonSerde[" + type.getSimpleName() + "]";
    }
}
