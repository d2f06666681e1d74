package io.github.kcrawler.common.model;

import io.github.kcrawler.common.serde.JsonSerde;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 22: the revisit state rides on fetch requests and results; records without it still decode. */
class RevisitMemoFormatTest {
    private static final RevisitMemo MEMO = new RevisitMemo(RevisitMemo.VERSION, "\"e1\"", "Tue, 01 Dec 2026 10:00:00 GMT",
            "0123456789abcdef0123456789abcdef", 5, 2, 7_200, 1_440, 1_000L, 2_000L);

    @Test
    void requestAndResult_roundTripTheMemo() {
        FetchRequest req = new FetchRequest(FetchRequest.VERSION, "http://a.test/", 7L, 1, 3L, 4L, MEMO.etag(),
                MEMO.lastModified(), FetchKind.REVISIT, MEMO);
        JsonSerde<FetchRequest> rs = JsonSerde.of(FetchRequest.class);
        assertThat(rs.deserialize("t", rs.serialize("t", req))).isEqualTo(req);
        FetchResult res = new FetchResult(FetchResult.VERSION, "http://a.test/", 7L, 1, 3L, FetchKind.REVISIT, 304,
                FetchOutcome.NOT_MODIFIED, 9L, 0, 1, null, 0, null, null, null, null, 0, null, MEMO);
        JsonSerde<FetchResult> ss = JsonSerde.of(FetchResult.class);
        assertThat(ss.deserialize("t", ss.serialize("t", res)).revisit()).isEqualTo(MEMO);
    }

    @Test
    void recordsWithoutTheField_stillDecode() {
        String oldRequest = "{\"v\":1,\"url\":\"http://a.test/\",\"fingerprint\":7,\"depth\":1,\"step\":3,"
                + "\"notBefore\":4,\"etag\":\"x\",\"lastModified\":null,\"kind\":\"REVISIT\"}";
        FetchRequest r = JsonSerde.of(FetchRequest.class).deserialize("t", oldRequest.getBytes(StandardCharsets.UTF_8));
        assertThat(r.revisit()).isNull();
        assertThat(r.etag()).isEqualTo("x");
        assertThat(r.kind()).isEqualTo(FetchKind.REVISIT);
        String oldResult = "{\"v\":1,\"url\":\"http://a.test/\",\"fingerprint\":7,\"depth\":1,\"step\":3,"
                + "\"kind\":\"NEW\",\"status\":200,\"outcome\":\"OK\",\"fetchedAt\":5,\"dnsMillis\":0,"
                + "\"fetchMillis\":1,\"contentHash\":\"ab\",\"length\":3,\"contentType\":null,"
                + "\"redirectTarget\":null,\"etag\":null,\"lastModified\":null,\"outlinks\":0,\"error\":null}";
        FetchResult s = JsonSerde.of(FetchResult.class).deserialize("t", oldResult.getBytes(StandardCharsets.UTF_8));
        assertThat(s.revisit()).isNull();
        assertThat(s.status()).isEqualTo(200);
    }

    @Test
    void usable_rejectsImpossibleHistories() {
        assertThat(MEMO.isUsable()).isTrue();
        assertThat(new RevisitMemo(1, null, null, null, 1, 2, 0, 1, 0, 1).isUsable()).isFalse();
        assertThat(new RevisitMemo(1, null, null, null, 0, 0, 0, 0, 0, 1).isUsable()).isFalse();
        assertThat(new RevisitMemo(2, null, null, null, 0, 0, 0, 1, 0, 1).isUsable()).isFalse();
        assertThat(new RevisitMemo(1, null, null, null, 1, 0, Long.MAX_VALUE, 1, 0, 1).isUsable())
                .as("a sum that would overflow").isFalse();
        assertThat(new RevisitMemo(1, null, null, null, 0, 0, 0, Long.MAX_VALUE, 0, 1).isUsable()).isFalse();
        assertThat(new RevisitMemo(1, null, null, null, 0, 0, 0, 1, 5, 1).isUsable()).as("first after last")
                .isFalse();
    }
}
