package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.common.model.FetchKind;

import io.github.kcrawler.common.serde.JsonSerde;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The persisted form of a pending URL: store keys group an IP's URLs in admission order; JSON round-trips. */
class PendingEntryTest {
    @Test
    void shouldBuildFixedWidthHexKeysThatSortByIpThenSequence() {
        assertThat(PendingEntry.key("10.0.0.1", 0)).isEqualTo("10.0.0.1|0000000000000000");
        assertThat(PendingEntry.key("10.0.0.1", 0xabcL)).isEqualTo("10.0.0.1|0000000000000abc");
        assertThat(PendingEntry.key("::1", Long.MAX_VALUE)).isEqualTo("::1|7fffffffffffffff");
        assertThat(PendingEntry.key("10.0.0.1", 9).compareTo(PendingEntry.key("10.0.0.1", 10))).isNegative();
    }

    @Test
    void shouldRoundTripThroughJsonWithItsFormatVersion() {
        PendingEntry entry = PendingEntry.of("10.0.0.1", "http://a.test/", 3, -5L, 17, 0.25, 123L);
        JsonSerde<PendingEntry> serde = JsonSerde.of(PendingEntry.class);
        byte[] bytes = serde.serialize("t", entry);
        assertThat(new String(bytes, StandardCharsets.UTF_8)).contains("\"v\":2");
        assertThat(serde.deserialize("t", bytes)).isEqualTo(entry);
        assertThat(entry.isUsable()).isTrue();
        assertThat(entry.withScore(0.5).toPendingUrl().score()).isEqualTo(0.5);
    }

    @Test
    void readsFormatVersionOne_asAFirstFetch() {
        String v1 = "{\"v\":1,\"ip\":\"10.0.0.1\",\"url\":\"http://a.test/\",\"depth\":3,\"fingerprint\":-5,"
                + "\"seq\":17,\"score\":0.25,\"admittedAt\":123}";
        PendingEntry e = JsonSerde.of(PendingEntry.class).deserialize("t", v1.getBytes(StandardCharsets.UTF_8));
        assertThat(e.kind()).isEqualTo(FetchKind.NEW);
        assertThat(e.toRequest(4, 99).kind()).isEqualTo(FetchKind.NEW);
        assertThat(e.isUsable()).isTrue();
    }

    @Test
    void revisitEntry_becomesAConditionalRequest() {
        PendingEntry e = PendingEntry.revisit("10.0.0.1", "http://a.test/", 1, 7, 3, 0, 0, "\"e\"", "Tue, 01 Dec 2026 00:00:00 GMT");
        assertThat(e.toRequest(4, 99)).extracting(r -> r.kind(), r -> r.etag(), r -> r.lastModified(), r -> r.notBefore())
                .containsExactly(FetchKind.REVISIT, "\"e\"", "Tue, 01 Dec 2026 00:00:00 GMT", 99L);
    }

    @Test
    void shouldRefuseEntriesThatCannotBePutBack() {
        assertThat(PendingEntry.of(null, "http://a.test/", 0, 1, 0, 0, 0).isUsable()).isFalse();
        assertThat(PendingEntry.of("ip", " ", 0, 1, 0, 0, 0).isUsable()).isFalse();
        assertThat(PendingEntry.of("ip", "http://a.test/", 0, 1, -1, 0, 0).isUsable()).isFalse();
        assertThat(PendingEntry.of("ip", "http://a.test/", 0, 1, 0, Double.NaN, 0).isUsable()).isFalse();
    }
}
