package io.github.kcrawler.common.serde;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.common.model.ChangeIntervals;
import io.github.kcrawler.common.model.ContentRef;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.model.RevisitMemo;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link JsonSerde}, the serde of every topic: real records survive a round trip with every field (nested records,
 * lists, enums, nulls, extreme longs, non-ASCII and escaped text); the bytes are plain JSON named by the record
 * components, so a console consumer can read them; null maps to null both ways; unknown fields are ignored; and
 * anything that is not JSON of the record's shape raises Kafka's {@link SerializationException} naming the topic and
 * the type. Also {@link JsonSerde#writeIndented} and the {@code Serde} plumbing Streams relies on.
 */
class JsonSerdeTest {
    private static final RevisitMemo MEMO = new RevisitMemo(RevisitMemo.VERSION, "W/\"5e-abc\"",
            "Tue, 14 Nov 2023 22:13:20 GMT", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", 7, 3, 42, 6, 1_700_000_000_000L,
            1_700_050_000_000L, 20, ChangeIntervals.EMPTY.plus(3).plus(9).plus(120));
    private static final FetchRequest REQUEST = new FetchRequest(FetchRequest.VERSION,
            "https://example.com/caf%C3%A9?q=%22x%22#", Long.MIN_VALUE, 3, 12L, 1_700_000_123_456L, null,
            "Tue, 14 Nov 2023 22:13:20 GMT", FetchKind.REVISIT, MEMO);
    private static final FetchResult RESULT = new FetchResult(FetchResult.VERSION, "http://b\u00FCcher.test/\u65E5",
            Long.MAX_VALUE, 0, 9L, FetchKind.NEW, 503, FetchOutcome.THROTTLED, 1_700_000_000_001L, 12L, 840L, null,
            0L, "text/html; charset=\"utf-8\"", null, "\"etag\\with\\backslashes\"", null, 0,
            "Retry-After: 120\r\n\ttab\u0000nul \uD83D\uDE00", null);
    private static final LinkList LINKS = new LinkList(LinkList.VERSION, "http://a.test/", -1L, List.of(
            new LinkList.Link("http://a.test/x", 1L, "10.0.0.1"),
            new LinkList.Link("http://[2001:db8::1]:8080/y", Long.MIN_VALUE + 1, "2001:db8::1")));
    private static final DiscoveredUrls DISCOVERED = DiscoveredUrls.of(null, 0, 1_700_000_000_000L, List.of(
            new DiscoveredUrls.Entry("http://seed.test/", "192.0.2.1"),
            new DiscoveredUrls.Entry("http://c.test/", null)));

    private static <T> T roundTrip(Class<T> type, T value) {
        JsonSerde<T> serde = JsonSerde.of(type);
        return serde.deserialize("crawl.test", serde.serialize("crawl.test", value));
    }

    @Test
    void realRecords_surviveARoundTrip_withEveryField() {
        assertThat(roundTrip(FetchRequest.class, REQUEST)).isEqualTo(REQUEST);
        assertThat(roundTrip(FetchResult.class, RESULT)).isEqualTo(RESULT);
        assertThat(roundTrip(LinkList.class, LINKS)).isEqualTo(LINKS);
        FetchResult withGraph = RESULT.withLinks(LINKS.outlinks());
        assertThat(roundTrip(FetchResult.class, withGraph)).isEqualTo(withGraph);
        assertThat(roundTrip(DiscoveredUrls.class, DISCOVERED)).isEqualTo(DISCOVERED);
        assertThat(roundTrip(DiscoveredUrls.class, DiscoveredUrls.of("http://p/", 2, 0L, List.of()))).isEqualTo(
                DiscoveredUrls.of("http://p/", 2, 0L, List.of()));
        FetchRequest fresh = FetchRequest.fresh("http://a.test/", 5L, 0, 1L, 0L);
        assertThat(roundTrip(FetchRequest.class, fresh)).isEqualTo(fresh);
    }

    @Test
    void bytes_arePlainUtf8Json_namedByTheRecordComponents_inDeclarationOrder() {
        byte[] bytes = JsonSerde.of(ContentRef.class).serialize("crawl.content.refs",
                ContentRef.of(ContentRef.Op.REMOVE, "00ff", "http://\u00E9.test/", -2L, "10.0.0.9"));
        assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo("{\"v\":1,\"op\":\"REMOVE\",\"contentHash\":"
                + "\"00ff\",\"url\":\"http://\u00E9.test/\",\"urlFingerprint\":-2,\"ip\":\"10.0.0.9\"}");
    }

    /** Issue 19: an HTML page's result carries its graph; any other result leaves the field out of its JSON. */
    @Test
    void aResultsLinkGraph_isWrittenOnlyWhenThereIsOne_andReadsBackAsTheLinkList() {
        JsonSerde<FetchResult> serde = JsonSerde.of(FetchResult.class);
        assertThat(new String(serde.serialize("crawl.fetch.results", RESULT), StandardCharsets.UTF_8))
                .doesNotContain("\"links\"");
        FetchResult html = new FetchResult(FetchResult.VERSION, LINKS.source(), LINKS.sourceFingerprint(), 0, 1L,
                FetchKind.NEW, 200, FetchOutcome.OK, 1L, 0L, 1L, null, 10L, "text/html", null, null, null, 2, null,
                null).withLinks(LINKS.outlinks());
        String json = new String(serde.serialize("crawl.fetch.results", html), StandardCharsets.UTF_8);
        assertThat(json).endsWith(",\"links\":[{\"url\":\"http://a.test/x\",\"fingerprint\":1,\"ip\":\"10.0.0.1\"},"
                + "{\"url\":\"http://[2001:db8::1]:8080/y\",\"fingerprint\":" + (Long.MIN_VALUE + 1)
                + ",\"ip\":\"2001:db8::1\"}]}");
        assertThat(serde.deserialize("crawl.fetch.results", json.getBytes(StandardCharsets.UTF_8)).linkList())
                .isEqualTo(LINKS);
        assertThat(RESULT.linkList()).isNull();
    }

    @Test
    void null_mapsToNull_bothWays() {
        JsonSerde<FetchResult> serde = JsonSerde.of(FetchResult.class);
        assertThat(serde.serialize("t", null)).isNull();
        assertThat(serde.deserialize("t", null)).isNull();
        // A JSON null payload also reads as null (the lenient reader then counts it as malformed).
        assertThat(serde.deserialize("t", "null".getBytes(StandardCharsets.UTF_8))).isNull();
    }

    @Test
    void unknownFields_areIgnored_atAnyDepth() {
        String json = "{\"v\":1,\"future\":{\"x\":[1,2]},\"source\":\"http://a.test/\",\"sourceFingerprint\":7,"
                + "\"outlinks\":[{\"url\":\"http://b.test/\",\"fingerprint\":8,\"ip\":\"10.0.0.2\",\"rank\":0.5}],"
                + "\"zz\":null}";
        LinkList read = JsonSerde.of(LinkList.class).deserialize("crawl.links", json.getBytes(StandardCharsets.UTF_8));
        assertThat(read).isEqualTo(new LinkList(1, "http://a.test/", 7L,
                List.of(new LinkList.Link("http://b.test/", 8L, "10.0.0.2"))));
    }

    @Test
    void missingFields_readAsDefaults_leavingValidationToTheReader() {
        FetchRequest read = JsonSerde.of(FetchRequest.class).deserialize("t", "{}".getBytes(StandardCharsets.UTF_8));
        assertThat(read).isEqualTo(new FetchRequest(0, null, 0L, 0, 0L, 0L, null, null, null, null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "{", "{\"v\":1,", "{\"v\":1,\"url\":\"http://a", "not json", "[]", "[{}]",
            "123", "\"a string\"", "true", "{\"v\":\"one\"}", "{\"depth\":99999999999}", "{\"kind\":\"NOPE\"}",
            "{\"url\":{}}", "{\"url\":[\"a\"]}", "{\"revisit\":7}", "{'v':1}", "{\"v\":1,}", "{v:1}", "\u00FF"})
    void malformedOrWrongShapedPayloads_raiseSerializationException_namingTopicAndType(String payload) {
        byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> JsonSerde.of(FetchRequest.class).deserialize("crawl.fetch.requests", bytes))
                .isInstanceOf(SerializationException.class)
                .hasMessageStartingWith("topic crawl.fetch.requests: not a FetchRequest JSON payload (" + bytes.length
                        + " bytes): ");
    }

    @Test
    void everyTruncationOfARealRecord_raisesSerializationException() {
        JsonSerde<FetchResult> serde = JsonSerde.of(FetchResult.class);
        byte[] full = serde.serialize("t", RESULT);
        for (int n = 0; n < full.length; n++) {
            byte[] cut = Arrays.copyOf(full, n);
            assertThatThrownBy(() -> serde.deserialize("crawl.fetch.results", cut)).as("first %d bytes", n)
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining("crawl.fetch.results").hasMessageContaining("FetchResult");
        }
    }

    /**
     * A payload that is a record followed by anything but whitespace is not JSON of the expected shape (the mapper
     * used to stop after the first value; FAIL_ON_TRAILING_TOKENS is now on).
     */
    @Test
    void trailingGarbage_raisesSerializationException() {
        JsonSerde<LinkList> serde = JsonSerde.of(LinkList.class);
        byte[] good = serde.serialize("t", LINKS);
        for (String tail : List.of(" x", "]", "}", "{}", ",1")) {
            byte[] bad = (new String(good, StandardCharsets.UTF_8) + tail).getBytes(StandardCharsets.UTF_8);
            assertThatThrownBy(() -> serde.deserialize("crawl.links", bad)).as(tail)
                    .isInstanceOf(SerializationException.class);
        }
    }

    @Test
    void unwritableValue_raisesSerializationException_namingTopicAndType() {
        assertThatThrownBy(() -> JsonSerde.of(Object.class).serialize("crawl.out", new Object()))
                .isInstanceOf(SerializationException.class)
                .hasMessage("cannot write Object to topic crawl.out");
    }

    @Test
    void serdePlumbing_isTheSerdeItself_andHeadersChangeNothing() {
        JsonSerde<LinkList> serde = JsonSerde.of(LinkList.class);
        assertThat(serde.type()).isEqualTo(LinkList.class);
        assertThat(serde.serializer()).isSameAs(serde);
        assertThat(serde.deserializer()).isSameAs(serde);
        assertThat(serde).hasToString("JsonSerde[LinkList]");
        serde.configure(Map.of("any", "thing"), true);
        RecordHeaders headers = new RecordHeaders();
        byte[] bytes = serde.serializer().serialize("crawl.links", headers, LINKS);
        assertThat(bytes).isEqualTo(serde.serialize("crawl.links", LINKS));
        assertThat(serde.deserializer().deserialize("crawl.links", headers, bytes)).isEqualTo(LINKS);
        serde.close();
        assertThat(serde.deserialize("crawl.links", bytes)).as("usable after close").isEqualTo(LINKS);
    }

    @Test
    void writeIndented_createsMissingDirectories_andWritesReadableIndentedJson(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("a/b/c/summary.json");
        JsonSerde.writeIndented(file, LINKS);
        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(text).startsWith("{\n").contains("\n  \"v\" : 1,\n").contains("\n    \"url\" : \"http://a.test/x\"");
        assertThat(JsonSerde.MAPPER.readValue(text, LinkList.class)).isEqualTo(LINKS);

        JsonSerde.writeIndented(file, Map.of("pages", 3));
        JsonNode replaced = JsonSerde.MAPPER.readTree(file.toFile());
        assertThat(replaced.toString()).as("the old, longer content is gone").isEqualTo("{\"pages\":3}");
    }
}
