package io.github.kcrawler.common.model;

import io.github.kcrawler.common.serde.BadRecord;
import io.github.kcrawler.common.serde.Decoded;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.serde.LenientJsonDeserializer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The JSON shapes of {@code crawl.urls.discovered} and {@code crawl.urls.admitted}: format 2, and format 1 read. */
class UrlBatchFormatTest {
    private static final LenientJsonDeserializer<DiscoveredUrls> DISCOVERED =
            new LenientJsonDeserializer<>(DiscoveredUrls.class);
    private static final LenientJsonDeserializer<AdmittedUrls> ADMITTED =
            new LenientJsonDeserializer<>(AdmittedUrls.class);

    @Test
    void discovered_isCompactJson_andRoundTrips() {
        DiscoveredUrls d = DiscoveredUrls.of(null, 0, 5L, List.of(new DiscoveredUrls.Entry("http://a.test/", "10.0.0.1"),
                new DiscoveredUrls.Entry("http://b.test/", "10.0.0.2")));
        String json = new String(JsonSerde.of(DiscoveredUrls.class).serialize("t", d), StandardCharsets.UTF_8);
        assertThat(json).isEqualTo("{\"v\":2,\"depth\":0,\"discoveredAt\":5,\"urls\":[{\"url\":\"http://a.test/\","
                + "\"ip\":\"10.0.0.1\"},{\"url\":\"http://b.test/\",\"ip\":\"10.0.0.2\"}]}");
        assertThat(DISCOVERED.deserialize("t", json.getBytes(StandardCharsets.UTF_8)).value()).isEqualTo(d);
    }

    @Test
    void admitted_isCompactJson_andRoundTrips() {
        AdmittedUrls a = AdmittedUrls.of(2, List.of(new AdmittedUrls.Entry("http://a.test/", "10.0.0.1", -5L)));
        String json = new String(JsonSerde.of(AdmittedUrls.class).serialize("t", a), StandardCharsets.UTF_8);
        assertThat(json).isEqualTo("{\"v\":2,\"depth\":2,\"urls\":[{\"url\":\"http://a.test/\",\"ip\":\"10.0.0.1\","
                + "\"fingerprint\":-5}]}");
        assertThat(ADMITTED.deserialize("t", json.getBytes(StandardCharsets.UTF_8)).value()).isEqualTo(a);
    }

    /** Thirty-fourth session: the link share is one field of the record, written only when there is one. */
    @Test
    void theLinkShare_isOneFieldOfTheRecord_andRoundTrips() {
        DiscoveredUrls d = DiscoveredUrls.of("http://s.test/", 1, 5L,
                List.of(new DiscoveredUrls.Entry("http://a.test/", "10.0.0.1")), 0.375);
        String json = new String(JsonSerde.of(DiscoveredUrls.class).serialize("t", d), StandardCharsets.UTF_8);
        assertThat(json).isEqualTo("{\"v\":2,\"source\":\"http://s.test/\",\"depth\":1,\"discoveredAt\":5,"
                + "\"urls\":[{\"url\":\"http://a.test/\",\"ip\":\"10.0.0.1\"}],\"share\":0.375}");
        assertThat(DISCOVERED.deserialize("t", json.getBytes(StandardCharsets.UTF_8)).value()).isEqualTo(d);
        AdmittedUrls a = AdmittedUrls.of(2, List.of(new AdmittedUrls.Entry("http://a.test/", "10.0.0.1", -5L)), 0.375);
        json = new String(JsonSerde.of(AdmittedUrls.class).serialize("t", a), StandardCharsets.UTF_8);
        assertThat(json).isEqualTo("{\"v\":2,\"depth\":2,\"urls\":[{\"url\":\"http://a.test/\",\"ip\":\"10.0.0.1\","
                + "\"fingerprint\":-5}],\"share\":0.375}");
        assertThat(ADMITTED.deserialize("t", json.getBytes(StandardCharsets.UTF_8)).value()).isEqualTo(a);
        assertThat(ADMITTED.deserialize("t", "{\"v\":2,\"depth\":2,\"urls\":[],\"share\":\"x\"}"
                .getBytes(StandardCharsets.UTF_8)).isOk()).as("junk is a failure, not a throw").isFalse();
    }

    @Test
    void formatOneRecords_readAsGroupsOfOneWithoutIp() {
        DiscoveredUrls d = DISCOVERED.deserialize("t", ("{\"v\":1,\"url\":\"http://a.test/\",\"depth\":3,"
                + "\"source\":\"http://s.test/\",\"discoveredAt\":9}").getBytes(StandardCharsets.UTF_8)).value();
        assertThat(d).isEqualTo(new DiscoveredUrls(1, "http://s.test/", 3, 9L,
                List.of(new DiscoveredUrls.Entry("http://a.test/", null))));
        AdmittedUrls a = ADMITTED.deserialize("t", "{\"v\":1,\"url\":\"http://a.test/\",\"depth\":3,\"fingerprint\":7}"
                .getBytes(StandardCharsets.UTF_8)).value();
        assertThat(a).isEqualTo(new AdmittedUrls(1, 3, List.of(new AdmittedUrls.Entry("http://a.test/", null, 7L))));
    }

    @Test
    void junk_decodesToAFailureOrAValueWithoutThrowing() {
        for (String junk : new String[] {"", "[]", "{\"urls\":7}", "{\"urls\":[null,{\"url\":5}]}", "{\"v\":\"x\"}",
                "{\"urls\":[[]]}", "nope"}) {
            Decoded<DiscoveredUrls> d = DISCOVERED.deserialize("t", junk.getBytes(StandardCharsets.UTF_8));
            assertThat(d.isOk() || d.failure() == BadRecord.MALFORMED).as(junk).isTrue();
            Decoded<AdmittedUrls> a = ADMITTED.deserialize("t", junk.getBytes(StandardCharsets.UTF_8));
            assertThat(a.isOk() || a.failure() == BadRecord.MALFORMED).as(junk).isTrue();
        }
        DiscoveredUrls withNull = DISCOVERED.deserialize("t", "{\"v\":2,\"urls\":[null]}"
                .getBytes(StandardCharsets.UTF_8)).value();
        assertThat(withNull.urls()).containsExactly(new DiscoveredUrls.Entry(null, null));
    }
}
