package io.github.kcrawler.dedup.processor;

import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.common.serde.Decoded;
import io.github.kcrawler.common.serde.LenientJsonDeserializer;

import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.serde.JsonSerde;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Decoding untrusted input is total: every byte sequence yields a payload or a counted reason, never an exception. */
class LenientJsonDeserializerTest {
    private final LenientJsonDeserializer<DiscoveredUrls> deserializer = new LenientJsonDeserializer<>(DiscoveredUrls.class);

    @Test
    void validPayload_decodes_withItsTopic() {
        DiscoveredUrls d = DiscoveredUrls.of("http://s/", 1, 5L, java.util.List.of(new DiscoveredUrls.Entry("http://a/",
                "10.0.0.1")));
        Decoded<DiscoveredUrls> decoded = deserializer.deserialize("t", JsonSerde.of(DiscoveredUrls.class).serialize("t", d));
        assertThat(decoded).isEqualTo(Decoded.ok("t", d));
        assertThat(decoded.isOk()).isTrue();
    }

    @Test
    void nullValue_decodesToNullValueFailure() {
        assertThat(deserializer.deserialize("t", null)).isEqualTo(Decoded.failed("t", BadRecord.NULL_VALUE));
    }

    @Test
    void wrongShapes_decodeToMalformed() {
        for (String s : new String[] {"", "null", "{", "[]", "42", "\"str\"", "{\"depth\":\"deep\"}"}) {
            Decoded<DiscoveredUrls> d = deserializer.deserialize("t", s.getBytes(StandardCharsets.UTF_8));
            assertThat(d.failure()).as("payload '%s'", s).isEqualTo(BadRecord.MALFORMED);
        }
    }

    @Test
    void arbitraryBytes_neverThrow() {
        Random random = new Random(7L);
        byte[] json = "{\"v\":1,\"url\":\"http://a/\",\"depth\":0}".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 2_000; i++) {
            byte[] bytes;
            if (i % 2 == 0) {
                bytes = new byte[random.nextInt(64)];
                random.nextBytes(bytes);
            } else { // a valid payload with a few bytes flipped: near misses exercise the parser's deeper paths
                bytes = json.clone();
                for (int k = 0; k < 1 + random.nextInt(3); k++) {
                    bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
                }
            }
            Decoded<DiscoveredUrls> d = deserializer.deserialize("t", bytes);
            assertThat(d.isOk() || d.failure() == BadRecord.MALFORMED).as("input %d", i).isTrue();
        }
    }

    @Test
    void decoded_requiresExactlyOneOfValueAndFailure() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Decoded<>("t", null, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(BadRecord.FINGERPRINT_MISMATCH.tag()).isEqualTo("fingerprint-mismatch");
    }
}
