package io.github.kcrawler.websim;

import static io.github.kcrawler.websim.TestHttp.get;
import static io.github.kcrawler.websim.TestHttp.getPage;
import static io.github.kcrawler.websim.TestHttp.send;
import static io.github.kcrawler.websim.TestHttp.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What the server serves: pages, links, robots.txt, validators, compression, errors. One shared web. */
class WebSimHttpTest {

    private static WebSim sim;

    @BeforeAll
    static void start() throws Exception {
        sim = WebSim.start(WebSimConfig.builder().generate(2_000).seed(11).ips(8).robotsDisallowFraction(0.3)
                .crawlDelayFraction(0.3).ioThreads(2).build());
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    @Test
    void everyLinkOfEveryPageResolvesToACanonicalOutlink() {
        int withBase = 0;
        for (int p = 0; p < sim.graph().numPages(); p++) {
            HttpResponse<byte[]> r = getPage(sim, p);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
            String html = text(r);
            assertThat(html).contains("<title>").contains(" page " + p + "</title>");
            withBase += html.contains("<base href") ? 1 : 0;
            List<String> expected = new ArrayList<>();
            for (int t : sim.graph().outlinks(p)) {
                expected.add(sim.url(t));
            }
            assertThat(TestHttp.resolvedLinks(sim.url(p), html)).as("links of page %d", p).isEqualTo(expected);
        }
        assertThat(withBase).isGreaterThan(sim.graph().numPages() / 10);
    }

    @Test
    void linksUseManyEquivalentForms() {
        StringBuilder all = new StringBuilder();
        for (int p = 0; p < 200; p++) {
            all.append(text(getPage(sim, p)));
        }
        String html = all.toString();
        assertThat(html).contains("href=\"http://", "href=\"//", "href=\"/p/../p/./", "href=\"./", "#s",
                "<base href=\"/x/\">", "href=\"../../p/");
    }

    @Test
    void robotsTxtIsServedPerHost() {
        for (int h = 0; h < sim.layout().numHosts(); h++) {
            HttpResponse<byte[]> r = get(sim, h, "/robots.txt");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
            assertThat(text(r)).isEqualTo(sim.layout().robotsTxt(h));
        }
    }

    @Test
    void conditionalRequestsGet304() {
        int page = 42;
        HttpResponse<byte[]> first = getPage(sim, page);
        String etag = first.headers().firstValue("etag").orElseThrow();
        String lastModified = first.headers().firstValue("last-modified").orElseThrow();
        assertThat(etag).matches("\"[0-9a-f]+\"");
        assertThat(getPage(sim, page).headers().firstValue("etag")).hasValue(etag);

        HttpResponse<byte[]> byTag = getPage(sim, page, "If-None-Match", etag);
        assertThat(byTag.statusCode()).isEqualTo(304);
        assertThat(byTag.body()).isEmpty();
        assertThat(byTag.headers().firstValue("etag")).hasValue(etag);
        assertThat(getPage(sim, page, "If-None-Match", "\"x\", W/" + etag).statusCode()).isEqualTo(304);
        assertThat(getPage(sim, page, "If-None-Match", "\"other\"").statusCode()).isEqualTo(200);
        assertThat(getPage(sim, page, "If-Modified-Since", lastModified).statusCode()).isEqualTo(304);
        assertThat(getPage(sim, page, "If-Modified-Since", "Mon, 01 Jan 2018 00:00:00 GMT").statusCode())
                .isEqualTo(200);
        // If-None-Match wins over If-Modified-Since
        assertThat(getPage(sim, page, "If-None-Match", "\"other\"", "If-Modified-Since", lastModified).statusCode())
                .isEqualTo(200);
    }

    @Test
    void gzipWhenAsked() {
        HttpResponse<byte[]> plain = getPage(sim, 7);
        HttpResponse<byte[]> gz = getPage(sim, 7, "Accept-Encoding", "gzip");
        assertThat(plain.headers().firstValue("content-encoding")).isEmpty();
        assertThat(gz.headers().firstValue("content-encoding")).hasValue("gzip");
        assertThat(TestHttp.gunzip(gz.body())).isEqualTo(plain.body());
        assertThat(gz.headers().firstValue("etag")).isEqualTo(plain.headers().firstValue("etag"));
    }

    @Test
    void headHasHeadersOnly() {
        HttpResponse<byte[]> full = getPage(sim, 9);
        SiteLayout layout = sim.layout();
        int host = layout.hostOf(9);
        HttpResponse<byte[]> head = send(sim, layout.ipIndexOfHost(host), layout.authority(host, sim.port()), "HEAD",
                "/p/9");
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        assertThat(head.headers().firstValue("content-length")).hasValue(String.valueOf(full.body().length));
    }

    @Test
    void unknownOrMisplacedResourcesAre404() {
        SiteLayout layout = sim.layout();
        int page = layout.hostStart(1);
        int host = layout.hostOf(page);
        assertThat(get(sim, host, "/p/" + layout.numPages()).statusCode()).isEqualTo(404);
        assertThat(get(sim, host, "/p/abc").statusCode()).isEqualTo(404);
        assertThat(get(sim, host, "/p/0" + page).statusCode()).isEqualTo(404);
        assertThat(get(sim, host, "/p/" + page + "?x=1").statusCode()).isEqualTo(404);
        assertThat(get(sim, host, "/").statusCode()).isEqualTo(404);
        // a page of another host, asked of this host
        assertThat(get(sim, host, "/p/" + layout.hostStart(2)).statusCode()).isEqualTo(404);
        // the right host name, sent to an address that does not serve it
        int otherIp = (layout.ipIndexOfHost(host) + 1) % layout.numIps();
        assertThat(send(sim, otherIp, layout.authority(host, sim.port()), "GET", "/p/" + page).statusCode())
                .isEqualTo(404);
        assertThat(send(sim, otherIp, "unknown.example:1", "GET", "/robots.txt").statusCode()).isEqualTo(404);
        assertThat(send(sim, layout.ipIndexOfHost(host), layout.authority(host, sim.port()), "DELETE",
                "/p/" + page).statusCode()).isEqualTo(405);
        // the right address, but a Host header naming no simulated host
        assertThat(send(sim, layout.ipIndexOfHost(host), "elsewhere.example", "GET", "/p/" + page).statusCode())
                .isEqualTo(404);
    }
}
