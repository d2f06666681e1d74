package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.RevisitMemo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.github.kcrawler.fetcher.HostileServer.respond;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A REVISIT is a conditional GET whichever field carries its validators (issue 22 follow-up): the memo's (how the
 * scheduler sends them now, once), or the request's own {@code etag}/{@code lastModified} (requests written before,
 * and revisits without state). The whole pipeline against a loopback server that answers 304 only to a matching
 * If-None-Match; the memo is echoed unchanged into the result.
 */
class ConditionalRevisitTest {
    private static final String ETAG = "\"v7\"";
    private static final String DATE = "Tue, 01 Dec 2026 10:00:00 GMT";
    private HostileServer server;
    private PipelineHarness harness;

    @BeforeEach
    void start() throws IOException {
        server = new HostileServer("127.0.0.1");
        server.on("/p", (c, head) -> {
            boolean match = head.toLowerCase(Locale.ROOT).contains("if-none-match: " + ETAG);
            respond(c, match ? 304 : 200, "text/html", match ? new byte[0]
                    : "<p>page</p>".getBytes(StandardCharsets.UTF_8), List.of("ETag: " + ETAG));
        });
        harness = new PipelineHarness(Map.of());
    }

    @AfterEach
    void stop() throws IOException {
        harness.close();
        server.close();
    }

    private FetchResult fetch(FetchRequest r) throws InterruptedException {
        int before = harness.results.size();
        harness.pipeline.submit(new FetchJob("127.0.0.1", r, new OffsetTracker.Slot(new TopicPartition("req", 0),
                before)));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (harness.results.size() <= before) {
            assertThat(System.nanoTime()).as("a result within 15 s").isLessThan(deadline);
            TimeUnit.MILLISECONDS.sleep(5);
        }
        return harness.results.get(before);
    }

    private String lastHead() {
        List<HostileServer.Hit> hits = server.hits.stream().filter(h -> h.path().equals("/p")).toList();
        return hits.get(hits.size() - 1).head().toLowerCase(Locale.ROOT);
    }

    private FetchRequest revisit(String etag, String lastModified, RevisitMemo memo) {
        String url = "http://127.0.0.1:" + server.port() + "/p";
        return new FetchRequest(FetchRequest.VERSION, url, Fingerprints.url(url), 1, 0, 0, etag, lastModified,
                FetchKind.REVISIT, memo);
    }

    @Test
    void theMemosValidatorsAreSent() throws Exception {
        RevisitMemo memo = new RevisitMemo(RevisitMemo.VERSION, ETAG, DATE, "0123456789abcdef0123456789abcdef", 2,
                1, 20, 10, 1_000L, 2_000L);
        FetchResult r = fetch(revisit(null, null, memo));
        assertThat(lastHead()).contains("if-none-match: " + ETAG).contains("if-modified-since: "
                + DATE.toLowerCase(Locale.ROOT));
        assertThat(r.outcome()).isEqualTo(FetchOutcome.NOT_MODIFIED);
        assertThat(r.revisit()).as("echoed unchanged").isEqualTo(memo);
    }

    @Test
    void theRequestsOwnValidatorsStillWork_andWinOverTheMemos() throws Exception {
        FetchResult old = fetch(revisit(ETAG, null, null));
        assertThat(lastHead()).contains("if-none-match: " + ETAG).doesNotContain("if-modified-since");
        assertThat(old.outcome()).isEqualTo(FetchOutcome.NOT_MODIFIED);

        RevisitMemo stale = new RevisitMemo(RevisitMemo.VERSION, "\"other\"", null, null, 0, 0, 0, 1, 1L, 1L);
        FetchResult both = fetch(revisit(ETAG, null, stale));
        assertThat(lastHead()).contains("if-none-match: " + ETAG).doesNotContain("other");
        assertThat(both.outcome()).isEqualTo(FetchOutcome.NOT_MODIFIED);
    }

    @Test
    void noValidatorAnywhere_isAnUnconditionalGet() throws Exception {
        RevisitMemo bare = new RevisitMemo(RevisitMemo.VERSION, null, null, null, 0, 0, 0, 1, 1L, 1L);
        FetchResult r = fetch(revisit(null, null, bare));
        assertThat(lastHead()).doesNotContain("if-none-match").doesNotContain("if-modified-since");
        assertThat(r.status()).isEqualTo(200);
    }
}
