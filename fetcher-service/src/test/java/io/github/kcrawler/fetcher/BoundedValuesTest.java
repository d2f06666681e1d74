package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.fetcher.http.ValueBounds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static io.github.kcrawler.fetcher.HostileServer.respond;
import static io.github.kcrawler.fetcher.HostileServer.status;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 20, item 1: every server-controlled value is bounded before it enters a record — the whole fetch pipeline
 * against a loopback server sending oversized and non-ASCII header values. Each case asserts the record's field,
 * the {@code crawler.fetch.values.bounded} counter, and that the page itself is still handled.
 */
class BoundedValuesTest {
    private static final JsonSerde<FetchResult> RESULTS = JsonSerde.of(FetchResult.class);
    private HostileServer server;
    private PipelineHarness harness;

    @BeforeEach
    void start() throws IOException {
        server = new HostileServer("127.0.0.1");
    }

    @AfterEach
    void stop() throws IOException {
        if (harness != null) {
            harness.close();
        }
        server.close();
    }

    private PipelineHarness harness(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        harness = new PipelineHarness(m);
        return harness;
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    private double bounded(ValueBounds.Field field, ValueBounds.Reason reason) {
        return harness.metrics.boundedCount(field, reason);
    }

    private static HostileServer.Handler page(String type, String body, String... headers) {
        return (c, head) -> respond(c, 200, type, body.getBytes(StandardCharsets.UTF_8), List.of(headers));
    }

    @Test
    void aSixThousandByteEtagIsDroppedAndThePageIsStillFetchedAndParsed() {
        String etag = "\"" + "e".repeat(5998) + "\"";
        server.on("/", page("text/html", "<a href=\"/a\">a</a><a href=\"/b\">b</a>", "ETag: " + etag,
                "Last-Modified: Tue, 15 Nov 1994 12:45:26 GMT"));
        PipelineHarness h = harness();
        FetchResult r = h.fetch(url("/"));

        assertThat(r.outcome()).isEqualTo(FetchOutcome.OK);
        assertThat(r.etag()).isNull();
        assertThat(r.lastModified()).as("a validator within its limit is kept")
                .isEqualTo("Tue, 15 Nov 1994 12:45:26 GMT");
        assertThat(r.outlinks()).isEqualTo(2);
        assertThat(bounded(ValueBounds.Field.ETAG, ValueBounds.Reason.TOO_LONG)).isEqualTo(1.0);
        assertThat(RESULTS.serialize(null, r).length).isLessThan(1024);
    }

    @Test
    void anEtagAtItsLimitIsKeptAndOneByteMoreIsDropped() {
        server.on("/fits", page("text/plain", "x", "ETag: " + "a".repeat(40)));
        server.on("/over", page("text/plain", "x", "ETag: " + "a".repeat(41)));
        PipelineHarness h = harness("max-etag-bytes", "40");
        assertThat(h.fetch(url("/fits")).etag()).hasSize(40);
        assertThat(h.fetch(url("/over")).etag()).isNull();
        assertThat(bounded(ValueBounds.Field.ETAG, ValueBounds.Reason.TOO_LONG)).isEqualTo(1.0);
    }

    @Test
    void anOversizedContentTypeIsTruncatedAndStillReadAsHtml() {
        String type = "text/html; charset=UTF-8; x=" + "y".repeat(9000);
        server.on("/", page(type, "<a href=\"/a\">a</a>", "Last-Modified: " + "M".repeat(3000)));
        PipelineHarness h = harness();
        FetchResult r = h.fetch(url("/"));

        assertThat(r.outcome()).isEqualTo(FetchOutcome.OK);
        assertThat(r.contentType()).hasSize(256).startsWith("text/html; charset=UTF-8");
        assertThat(r.outlinks()).as("the page is parsed by its full Content-Type").isEqualTo(1);
        assertThat(r.lastModified()).isNull();
        assertThat(bounded(ValueBounds.Field.CONTENT_TYPE, ValueBounds.Reason.TOO_LONG)).isEqualTo(1.0);
        assertThat(bounded(ValueBounds.Field.LAST_MODIFIED, ValueBounds.Reason.TOO_LONG)).isEqualTo(1.0);
    }

    @Test
    void aRedirectTargetOverMaxUrlLengthIsDroppedNotCut() {
        server.on("/r", status(301, "Location: /" + "p".repeat(3000)));
        server.on("/ok", status(302, "Location: /" + "p".repeat(100)));
        PipelineHarness h = harness();
        FetchResult r = h.fetch(url("/r"));
        assertThat(r.outcome()).isEqualTo(FetchOutcome.HTTP_ERROR);
        assertThat(r.redirectTarget()).isNull();
        assertThat(r.error()).contains("without a usable Location").contains("over max-url-length");
        assertThat(bounded(ValueBounds.Field.REDIRECT_TARGET, ValueBounds.Reason.TOO_LONG)).isEqualTo(1.0);

        FetchResult ok = h.fetch(url("/ok"));
        assertThat(ok.outcome()).isEqualTo(FetchOutcome.REDIRECT);
        assertThat(ok.redirectTarget()).endsWith("p".repeat(100));
        assertThat(h.discovered).extracting(d -> d.url()).containsExactly(ok.redirectTarget());
    }

    @Test
    void anOversizedRetryAfterIsIgnoredAndTheErrorTextIsBounded() {
        server.on("/t", status(429, "Retry-After: " + "9".repeat(5000)));
        PipelineHarness h = harness();
        FetchResult r = h.fetch(url("/t"));
        assertThat(r.outcome()).isEqualTo(FetchOutcome.THROTTLED);
        assertThat(ValueBounds.utf8Length(r.error())).isLessThanOrEqualTo(1024);
        assertThat(bounded(ValueBounds.Field.RETRY_AFTER, ValueBounds.Reason.TOO_LONG)).isEqualTo(1.0);
        assertThat(h.pipeline.backoff().intervalFor("127.0.0.1", 50))
                .as("the back-off grew as for a 429 without Retry-After, not by 10^5000 seconds")
                .isLessThanOrEqualTo(h.config.limits().maxBackoffMs());
    }

    @Test
    void headerBytesThatAreNotAsciiNeverBreakARecord() {
        // raw 0x80..0xFF bytes (obs-text) in the ETag, and a UTF-8 multi-byte value in Content-Type and Last-Modified
        StringBuilder raw = new StringBuilder("\"");
        for (int b = 0x80; b <= 0xFF; b++) {
            raw.append((char) b); // written as one byte each (ISO-8859-1)
        }
        raw.append('"');
        String utf8 = new String("text/html; charset=UTF-8; name=\"Grüße 日本 😀\"".getBytes(StandardCharsets.UTF_8),
                StandardCharsets.ISO_8859_1);
        String lastModified = new String("Dienstag, 15 März 1994".getBytes(StandardCharsets.UTF_8),
                StandardCharsets.ISO_8859_1);
        server.on("/", page(utf8, "<a href=\"/a\">a</a>", "ETag: " + raw, "Last-Modified: " + lastModified));
        PipelineHarness h = harness();
        FetchResult r = h.fetch(url("/"));

        assertThat(r.outcome()).isEqualTo(FetchOutcome.OK);
        assertThat(r.etag()).as("a validator that cannot be sent back byte for byte is dropped").isNull();
        assertThat(r.lastModified()).isNull();
        assertThat(r.contentType()).as("kept as received (each byte one ISO-8859-1 character)").isEqualTo(utf8);
        assertThat(r.outlinks()).isEqualTo(1);
        assertThat(bounded(ValueBounds.Field.ETAG, ValueBounds.Reason.INVALID)).isEqualTo(1.0);
        assertThat(bounded(ValueBounds.Field.LAST_MODIFIED, ValueBounds.Reason.INVALID)).isEqualTo(1.0);
        FetchResult back = RESULTS.deserialize(null, RESULTS.serialize(null, r));
        assertThat(back).isEqualTo(r);
    }

    @Test
    void aLinkListIsCutAtItsByteBudgetWhileEveryLinkIsStillDiscovered() {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            body.append("<a href=\"/").append(i).append('-').append("q".repeat(200)).append("\">x</a>");
        }
        server.on("/", page("text/html", body.toString()));
        PipelineHarness h = harness("max-link-list-bytes", "8192");
        FetchResult r = h.fetch(url("/"));
        assertThat(r.outcome()).isEqualTo(FetchOutcome.OK);
        awaitLinks(h);
        LinkList list = h.links.get(0);
        assertThat(list.outlinks()).isNotEmpty().hasSizeLessThan(100);
        assertThat(JsonSerde.of(LinkList.class).serialize(null, list).length).isLessThanOrEqualTo(8192);
        assertThat(h.discovered).hasSize(100);
        assertThat(bounded(ValueBounds.Field.LINK_LIST, ValueBounds.Reason.TOO_LONG)).isEqualTo(1.0);
    }

    @Test
    void linksTheAddressPolicyRefusesDoNotCountAgainstTheLinkListBudget() {
        StringBuilder body = new StringBuilder("<a href=\"/kept\">k</a>");
        for (int i = 0; i < 100; i++) {
            body.append("<a href=\"http://10.0.0.").append(i + 1).append('/').append("q".repeat(200))
                    .append("\">x</a>");
        }
        server.on("/", page("text/html", body.toString()));
        PipelineHarness h = harness("max-link-list-bytes", "4096");
        assertThat(h.fetch(url("/")).outcome()).isEqualTo(FetchOutcome.OK);
        awaitLinks(h);
        assertThat(h.links.get(0).outlinks()).extracting(LinkList.Link::url).containsExactly(url("/kept"));
        assertThat(bounded(ValueBounds.Field.LINK_LIST, ValueBounds.Reason.TOO_LONG)).isZero();
        assertThat(h.rejected("address")).isEqualTo(100.0);
    }

    /**
     * Property: headers of arbitrary length (up to what the client accepts) and arbitrary bytes 0x20..0xFF give one
     * result each, whose kept fields are within their limits. Rerun with {@code -Dkcrawler.seed=S}.
     */
    @Test
    void arbitraryHeaderValuesGiveOneBoundedResultEach() {
        long seed = Long.getLong("kcrawler.seed", System.nanoTime());
        System.out.println("BoundedValuesTest seed " + seed + " (rerun with -Dkcrawler.seed=" + seed + ")");
        SplittableRandom rnd = new SplittableRandom(seed);
        int tries = 24;
        for (int i = 0; i < tries; i++) {
            String etag = value(rnd);
            String lm = value(rnd);
            String type = "text/html; " + value(rnd);
            String retry = value(rnd);
            String location = "/" + value(rnd).replace(' ', 'x');
            int code = switch (rnd.nextInt(3)) {
                case 0 -> 200;
                case 1 -> 301;
                default -> 503;
            };
            List<String> headers = new ArrayList<>(List.of("ETag: " + etag, "Last-Modified: " + lm,
                    "Retry-After: " + retry, "Location: " + location));
            server.on("/p" + i, (c, head) -> respond(c, code, type, "<a href=/x>x</a>".getBytes(
                    StandardCharsets.US_ASCII), headers));
        }
        PipelineHarness h = harness("politeness-ms", "0");
        ValueBounds.Limits lim = h.config.limits().bounds();
        for (int i = 0; i < tries; i++) {
            FetchResult r = h.fetch(url("/p" + i));
            String where = "seed " + seed + " try " + i;
            assertThat(r.status()).as(where).isIn(200, 301, 503, 0);
            assertThat(r.etag() == null || r.etag().length() <= lim.etagBytes()).as(where).isTrue();
            assertThat(r.lastModified() == null || r.lastModified().length() <= lim.lastModifiedBytes())
                    .as(where).isTrue();
            assertThat(r.contentType() == null || ValueBounds.utf8Length(r.contentType()) <= lim.contentTypeBytes())
                    .as(where).isTrue();
            assertThat(r.redirectTarget() == null || r.redirectTarget().length() <= lim.urlLength()).as(where)
                    .isTrue();
            assertThat(r.error() == null || ValueBounds.utf8Length(r.error()) <= lim.errorBytes()).as(where)
                    .isTrue();
            assertThat(RESULTS.deserialize(null, RESULTS.serialize(null, r))).as(where).isEqualTo(r);
        }
        assertThat(h.results).hasSize(tries);
    }

    /** A header value: empty to ~12 KB (the client accepts 32 KiB of header), visible ASCII or any 0x20..0xFF. */
    private static String value(SplittableRandom rnd) {
        int len = switch (rnd.nextInt(4)) {
            case 0 -> rnd.nextInt(1, 40);
            case 1 -> rnd.nextInt(40, 600);
            default -> rnd.nextInt(600, 6_000);
        };
        boolean ascii = rnd.nextBoolean();
        StringBuilder sb = new StringBuilder(len);
        for (int i = 0; i < len; i++) {
            sb.append((char) (ascii ? rnd.nextInt(0x21, 0x7F) : rnd.nextInt(0x21, 0x100)));
        }
        return sb.toString();
    }

    private static void awaitLinks(PipelineHarness h) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (h.links.isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(h.links).hasSize(1);
    }
}
