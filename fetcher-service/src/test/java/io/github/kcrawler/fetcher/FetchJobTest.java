package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.model.FetchRequest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How a request URL becomes what the HTTP client sends (host, port, request target, robots site). */
class FetchJobTest {
    private static FetchJob job(String url) {
        return new FetchJob("10.0.0.1", FetchRequest.fresh(url, 1, 0, 0, 0), null);
    }

    @Test
    void splitsUrlsIntoWhatTheClientNeeds() {
        FetchJob j = job("https://Example.COM:8443/a/b?x=1&y=|z#frag");
        assertThat(j.parseUrl()).isTrue();
        assertThat(j.https).isTrue();
        assertThat(j.host).isEqualTo("example.com");
        assertThat(j.port).isEqualTo(8443);
        assertThat(j.requestTarget).isEqualTo("/a/b?x=1&y=|z");
        assertThat(j.siteKey).isEqualTo("https://example.com:8443");
    }

    @Test
    void defaultPortsAndEmptyPaths() {
        FetchJob j = job("http://example.com");
        assertThat(j.parseUrl()).isTrue();
        assertThat(j.port).isEqualTo(80);
        assertThat(j.requestTarget).isEqualTo("/");
        assertThat(j.siteKey).isEqualTo("http://example.com:80");
        FetchJob v6 = job("http://[::1]:8080/x");
        assertThat(v6.parseUrl()).isTrue();
        assertThat(v6.host).isEqualTo("[::1]");
        assertThat(v6.requestTarget).isEqualTo("/x");
    }

    @Test
    void refusesWhatIsNotHttp() {
        for (String u : new String[] {"mailto:a@b.c", "ftp://x.org/", "not a url", "", "http://"}) {
            assertThat(job(u).parseUrl()).as(u).isFalse();
        }
    }
}
