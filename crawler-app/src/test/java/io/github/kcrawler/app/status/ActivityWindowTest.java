package io.github.kcrawler.app.status;

import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ActivityWindowTest {
    private static FetchResult result(String url, FetchOutcome outcome, int status, String error) {
        return new FetchResult(FetchResult.VERSION, url, 1, 0, 0, FetchKind.values()[0], status, outcome, 5_000, 0,
                10, null, 100, "text/html", null, null, null, 0, error);
    }

    @Test
    void ranksHostsAndIpsByFetchesInTheWindow() {
        ActivityWindow w = new ActivityWindow(60_000, 1000, 10);
        for (int i = 0; i < 5; i++) {
            w.add(result("http://a.example/" + i, FetchOutcome.OK, 200, null), "10.0.0.1", 1_000);
        }
        for (int i = 0; i < 3; i++) {
            w.add(result("http://b.example/" + i, FetchOutcome.OK, 200, null), "10.0.0.1", 1_000);
        }
        w.add(result("http://c.example/", FetchOutcome.TIMEOUT, 0, "read timed out"), "10.0.0.2", 1_000);
        StatusReport.Activity a = w.snapshot(2_000);
        assertThat(a.busiestHosts()).extracting(StatusReport.Busiest::name)
                .containsExactly("a.example", "b.example", "c.example");
        assertThat(a.busiestHosts().get(0).fetches()).isEqualTo(5);
        assertThat(a.busiestHosts().get(0).bytes()).isEqualTo(500);
        assertThat(a.busiestIps()).extracting(StatusReport.Busiest::name).containsExactly("10.0.0.1", "10.0.0.2");
        assertThat(a.busiestIps().get(1).errors()).isEqualTo(1);
        assertThat(a.results()).isEqualTo(9);
    }

    @Test
    void forgetsResultsOlderThanTheWindowButKeepsRecentErrorsNewestFirst() {
        ActivityWindow w = new ActivityWindow(10_000, 1000, 2);
        w.add(result("http://old.example/", FetchOutcome.HTTP_ERROR, 404, null), "1.1.1.1", 0);
        w.add(result("http://x.example/", FetchOutcome.DNS_FAILURE, 0, "not found"), "2.2.2.2", 1_000);
        w.add(result("http://y.example/", FetchOutcome.CONNECT_FAILURE, 0, "refused"), "3.3.3.3", 20_000);
        w.add(result("http://y.example/ok", FetchOutcome.OK, 200, null), "3.3.3.3", 20_000);
        StatusReport.Activity a = w.snapshot(20_500);
        assertThat(a.busiestHosts()).extracting(StatusReport.Busiest::name).containsExactly("y.example");
        assertThat(a.recentErrors()).extracting(StatusReport.RecentError::outcome)
                .containsExactly("connect_failure", "dns_failure");
        assertThat(a.read()).isEqualTo(4);
    }

    @Test
    void reportsWhyTheTopicCannotBeReadUntilItCan() {
        ActivityWindow w = new ActivityWindow(60_000, 10, 10);
        assertThat(w.snapshot(0).problem()).isNull();
        w.problem("cannot read crawl.fetch.results: timeout");
        assertThat(w.snapshot(0).problem()).contains("timeout");
        w.problem(null);
        assertThat(w.snapshot(0).problem()).isNull();
    }

    @Test
    void hostileRecordsAreBoundedAndCounted() {
        ActivityWindow w = new ActivityWindow(60_000, 3, 5);
        w.add(null, "1.1.1.1", 0);
        w.unreadable();
        w.add(result("::not a url::", FetchOutcome.PROTOCOL_ERROR, 0, "x".repeat(10_000)), null, 0);
        w.add(result(null, FetchOutcome.OK, 200, null), "1.1.1.1", 0);
        for (int i = 0; i < 10; i++) {
            w.add(result("http://h" + i + ".example/", FetchOutcome.OK, 200, null), "1.1.1.1", 0);
        }
        StatusReport.Activity a = w.snapshot(1);
        assertThat(a.unreadable()).isEqualTo(2);
        assertThat(a.results()).isEqualTo(3);
        assertThat(a.recentErrors()).singleElement().satisfies(e -> {
            assertThat(e.host()).isEqualTo("(unparsable URL)");
            assertThat(e.error().length()).isLessThanOrEqualTo(301);
        });
    }
}
