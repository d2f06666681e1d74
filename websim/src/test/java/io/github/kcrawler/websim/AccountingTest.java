package io.github.kcrawler.websim;

import static io.github.kcrawler.websim.TestHttp.get;
import static io.github.kcrawler.websim.TestHttp.getPage;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's own accounting of accesses: politeness, duplicates, robots, per-IP counts, access log. */
class AccountingTest {

    private static WebSimConfig.Builder small() {
        return WebSimConfig.builder().generate(1_000).seed(5).ips(4).ioThreads(1);
    }

    /** A page on address {@code ip}, not the first page of its host. */
    private static int pageOn(WebSim sim, int ip, int nth) {
        SiteLayout layout = sim.layout();
        for (int h = 0; h < layout.numHosts(); h++) {
            if (layout.ipIndexOfHost(h) == ip && layout.hostEnd(h) - layout.hostStart(h) > nth + 1) {
                return layout.hostStart(h) + nth;
            }
        }
        throw new IllegalStateException("no host with " + (nth + 2) + " pages on address " + ip);
    }

    @Test
    void quickRepeatsToOneAddressAreViolations() throws Exception {
        try (WebSim sim = WebSim.start(small().politenessMs(200).build())) {
            getPage(sim, pageOn(sim, 3, 0)); // warm up (class loading) on another address
            Thread.sleep(50);
            getPage(sim, pageOn(sim, 0, 0));
            getPage(sim, pageOn(sim, 0, 1));
            assertThat(sim.stats().politenessViolations()).isEqualTo(1);
            assertThat(sim.stats().minGapMs()).isBetween(0.0, 200.0);

            Thread.sleep(260);
            getPage(sim, pageOn(sim, 0, 2));
            getPage(sim, pageOn(sim, 1, 0));
            Thread.sleep(260);
            get(sim, sim.layout().hostOf(pageOn(sim, 1, 0)), "/robots.txt");
            WebSimStats stats = sim.stats();
            assertThat(stats.politenessViolations()).isEqualTo(1);
            assertThat(stats.requests()).isEqualTo(6);
            assertThat(stats.accessesPerIp()).containsEntry("127.1.0.1", 3L).containsEntry("127.1.0.2", 2L)
                    .containsEntry("127.1.0.3", 0L).containsEntry("127.1.0.4", 1L);
        }
    }

    @Test
    void violationsFollowArrivalOrderPerAddress() throws Exception {
        SiteLayout layout = SiteLayout.build(1_000, small().build());
        int a = layout.hostStart(0);
        int b = layout.hostStart(1);
        int ipA = layout.ipIndexOfPage(a);
        int ipB = layout.ipIndexOfPage(b);
        long ms = 1_000_000L;
        try (AccessRecorder r = new AccessRecorder(layout, 200, 10, null)) {
            r.record(0, ipA, "h", "GET", "/p/" + a, 200, Access.Kind.PAGE, a);
            r.record(100 * ms, ipB, "h", "GET", "/p/" + b, 200, Access.Kind.PAGE, b);
            r.record(195 * ms, ipA, "h", "GET", "/robots.txt", 200, Access.Kind.ROBOTS, -1); // 195 >= 200 - 10
            r.record(380 * ms, ipA, "h", "GET", "/p/" + a, 200, Access.Kind.PAGE, a); // 185 < 190
            r.record(250 * ms, ipB, "h", "GET", "/p/" + b, 304, Access.Kind.PAGE, b); // 150 < 190
            r.record(240 * ms, ipB, "h", "GET", "/p/" + b, 404, Access.Kind.OTHER, -1); // before the last: -10 ms
            WebSimStats s = r.snapshot();
            assertThat(s.politenessViolations()).isEqualTo(3);
            assertThat(s.minGapMs()).isZero();
            assertThat(s.pagesFetched()).isEqualTo(4);
            assertThat(s.duplicateFetches()).isEqualTo(2);
            assertThat(s.robotsFetches()).isEqualTo(1);
        }
    }

    @Test
    void countersAreExactUnderConcurrentRecording() throws Exception {
        SiteLayout layout = SiteLayout.build(1_000, small().build());
        try (AccessRecorder r = new AccessRecorder(layout, 0, 0, null)) {
            Thread[] threads = new Thread[4];
            for (int t = 0; t < threads.length; t++) {
                int offset = t;
                threads[t] = new Thread(() -> {
                    for (int i = 0; i < 20_000; i++) {
                        int page = (i * 7 + offset) % 1_000;
                        r.record(System.nanoTime(), layout.ipIndexOfPage(page), "h", "GET", "/p/" + page, 200,
                                Access.Kind.PAGE, page);
                    }
                });
                threads[t].start();
            }
            for (Thread t : threads) {
                t.join();
            }
            WebSimStats s = r.snapshot();
            assertThat(s.pagesFetched()).isEqualTo(80_000);
            assertThat(s.distinctUrlsFetched()).isEqualTo(1_000);
            assertThat(r.fetchedPages().cardinality()).isEqualTo(1_000);
            assertThat(s.accessesPerIp().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(80_000);
        }
    }

    @Test
    void toleranceAndDisabledCheck() throws Exception {
        try (WebSim sim = WebSim.start(small().politenessMs(200).politenessToleranceMs(200).build())) {
            getPage(sim, 1);
            getPage(sim, 2);
            assertThat(sim.stats().politenessViolations()).isZero();
        }
        try (WebSim sim = WebSim.start(small().politenessMs(0).build())) {
            getPage(sim, 1);
            getPage(sim, 2);
            assertThat(sim.stats().politenessViolations()).isZero();
        }
    }

    @Test
    void duplicatesCountRepeatedPageFetchesOnly() throws Exception {
        try (WebSim sim = WebSim.start(small().politenessMs(0).build())) {
            int page = pageOn(sim, 2, 1);
            int host = sim.layout().hostOf(page);
            String etag = getPage(sim, page).headers().firstValue("etag").orElseThrow();
            getPage(sim, page);
            assertThat(getPage(sim, page, "If-None-Match", etag).statusCode()).isEqualTo(304);
            get(sim, host, "/robots.txt");
            get(sim, host, "/robots.txt");
            get(sim, host, "/p/" + sim.layout().numPages()); // 404, not a fetch
            TestHttp.send(sim, sim.layout().ipIndexOfHost(host), sim.layout().authority(host, sim.port()), "HEAD",
                    "/p/" + page);
            getPage(sim, page + 1);
            WebSimStats stats = sim.stats();
            assertThat(stats.pagesFetched()).isEqualTo(4);
            assertThat(stats.distinctUrlsFetched()).isEqualTo(2);
            assertThat(stats.duplicateFetches()).isEqualTo(2);
            assertThat(stats.robotsFetches()).isEqualTo(2);
            assertThat(stats.notModified()).isEqualTo(1);
            assertThat(stats.notFound()).isEqualTo(1);
            assertThat(stats.requests()).isEqualTo(8);
            assertThat(sim.fetchedPages().stream().toArray()).containsExactly(page, page + 1);
            assertThat(stats.toJson()).contains("\"duplicateFetches\":2", "\"pagesFetched\":4", "\"v\":2");
        }
    }

    @Test
    void fetchingADisallowedPageIsCounted() throws Exception {
        try (WebSim sim = WebSim.start(small().politenessMs(0).robotsDisallowFraction(1.0).build())) {
            int page = sim.layout().disallowedPages().nextSetBit(0);
            assertThat(page).isNotNegative();
            getPage(sim, page);
            getPage(sim, sim.seedPages()[0]);
            assertThat(sim.stats().disallowedFetched()).isEqualTo(1);
        }
    }

    @Test
    void keepAliveReusesOneConnectionPerAddress() throws Exception {
        try (WebSim sim = WebSim.start(small().politenessMs(0).build())) {
            for (int i = 0; i < 20; i++) {
                getPage(sim, pageOn(sim, 3, i % 2));
            }
            assertThat(sim.stats().connections()).isEqualTo(1);
            assertThat(sim.boundAddresses()).hasSize(sim.layout().numIps()).allSatisfy(a -> {
                assertThat(a.getAddress().isLoopbackAddress()).isTrue();
                assertThat(a.getAddress().getHostAddress()).startsWith("127.1.");
                assertThat(a.getPort()).isEqualTo(sim.port());
            });
        }
    }

    @Test
    void latencyDelaysResponses() throws Exception {
        try (WebSim sim = WebSim.start(small().latencyMs(150).build())) {
            long t0 = System.nanoTime();
            assertThat(getPage(sim, 0).statusCode()).isEqualTo(200);
            assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThanOrEqualTo(150);
        }
    }

    @Test
    void accessLogAndListenersSeeEveryRequest(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("logs/access.tsv");
        List<Access> seen = new CopyOnWriteArrayList<>();
        WebSim sim = WebSim.start(small().accessLog(log).build());
        try {
            sim.accesses().addListener(seen::add);
            getPage(sim, 0);
            get(sim, 0, "/robots.txt");
            get(sim, 0, "/nothing");
        } finally {
            sim.close();
        }
        List<String> lines = Files.readAllLines(log);
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).isEqualTo(Access.tsvHeader());
        String ip = sim.layout().ipOfHost(0);
        assertThat(lines.get(1)).matches("\\d+\\.\\d{3}\t" + ip.replace(".", "\\.")
                + "\th0\\.websim\\.test\tGET\t/p/0\t200\tPAGE\t0");
        assertThat(lines.get(2)).endsWith("\t/robots.txt\t200\tROBOTS\t-1");
        assertThat(lines.get(3)).endsWith("\t404\tOTHER\t-1");
        assertThat(seen).extracting(Access::status).containsExactly(200, 200, 404);
        assertThat(seen.get(1).atMs()).isGreaterThanOrEqualTo(seen.get(0).atMs());
    }
}
