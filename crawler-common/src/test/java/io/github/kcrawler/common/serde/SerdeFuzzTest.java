package io.github.kcrawler.common.serde;

import io.github.kcrawler.common.model.AdmittedUrls;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.testing.Gen;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.github.kcrawler.testing.PropertyCheck.fuzz;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzing (issue 9) of the JSON serdes every topic uses: random bytes, JSON-shaped garbage and mutated real
 * records decode to a {@link Decoded} (a value or a failure reason) and never throw; the strict serde throws only
 * Kafka's {@link SerializationException}. {@code -Dkcrawler.fuzz.tries=N} scales the tries (docs/HOSTILE.md).
 */
class SerdeFuzzTest {
    private static final List<Class<?>> TYPES = List.of(FetchRequest.class, FetchResult.class, DiscoveredUrls.class,
            LinkList.class, AdmittedUrls.class);
    private static final String[] JSON_PIECES = {"{", "}", "[", "]", "\"v\"", ":", ",", "1", "-1", "1e999",
            "99999999999999999999", "null", "true", "\"url\"", "\"http://a/\"", "\"outcome\"", "\"OK\"",
            "\"NOPE\"", "\"outlinks\"", "\"kind\"", "\"REVISIT\"", "\"\\u0000\"", "\"\\ud800\"", "\"", "\\", " ",
            "/*", "NaN", "0.5", "\"depth\"", "\"urls\"", "\"ip\""};
    private static final byte[] VALID = JsonSerde.of(FetchResult.class).serialize("t", new FetchResult(
            FetchResult.VERSION, "http://a.test/", 1L, 2, 3L, FetchKind.NEW, 200, FetchOutcome.OK, 4L, 5L, 6L, "ab",
            7L, "text/html", null, "\"e\"", null, 8, null));

    @Test
    void randomBytesNeverThrow() {
        fuzz(500, g -> randomBytesNeverThrow(g.bytes(600), g.intIn(0, 4)));
    }

    void randomBytesNeverThrow(byte[] bytes, int type) {
        decode(TYPES.get(type), bytes);
    }

    @Test
    void jsonShapedGarbageNeverThrows() {
        fuzz(500, g -> jsonShapedGarbageNeverThrows(jsonish(g), g.intIn(0, 4)));
    }

    void jsonShapedGarbageNeverThrows(String text, int type) {
        decode(TYPES.get(type), text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void mutatedRecordsNeverThrow() {
        fuzz(500, g -> mutatedRecordsNeverThrow(g.list(1, 8, x -> x.intIn(0, 10_000)), g.bytes(8, 8)));
    }

    void mutatedRecordsNeverThrow(List<Integer> positions, byte[] values) {
        byte[] b = VALID.clone();
        for (int i = 0; i < positions.size(); i++) {
            b[positions.get(i) % b.length] = values[i];
        }
        decode(FetchResult.class, b);
    }

    static String jsonish(Gen g) {
        return g.joined(JSON_PIECES, 40);
    }

    private static final java.util.Map<Class<?>, LenientJsonDeserializer<?>> LENIENT =
            new java.util.concurrent.ConcurrentHashMap<>();

    @SuppressWarnings("unchecked")
    private static <T> void decode(Class<T> type, byte[] bytes) {
        LenientJsonDeserializer<T> lenient = (LenientJsonDeserializer<T>) LENIENT.computeIfAbsent(type,
                LenientJsonDeserializer::new);
        Decoded<T> d = lenient.deserialize("t", bytes);
        assertThat(d).isNotNull();
        assertThat(d.isOk() || d.failure() != null).isTrue();
        try {
            JsonSerde.of(type).deserialize("t", bytes);
        } catch (SerializationException expected) {
            // the strict serde's one way of saying no
        }
    }
}
