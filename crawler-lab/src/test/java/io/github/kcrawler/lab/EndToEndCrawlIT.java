package io.github.kcrawler.lab;

import io.github.kcrawler.lab.demo.DemoOptions;
import io.github.kcrawler.lab.demo.DemoRunner;
import io.github.kcrawler.lab.demo.DemoSummary;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The whole crawler through a real embedded broker against the simulated web: every reachable page fetched exactly
 * once, no duplicate fetch and no politeness violation by websim's own count, robots.txt honoured, and one WARC
 * response record per fetched page.
 */
class EndToEndCrawlIT {
    private static final Path CNR = Path.of("..", "..", "shared", "data", "cnr-2000");

    @Test
    void crawlsGeneratedWebCompletelyOncePolitely() throws Exception {
        Path dir = Path.of("target", "e2e-generated");
        DemoSummary s = DemoRunner.run(new DemoOptions(null, 4_000, 0, 50, 256, 0, 1000, 4, dir, 600, false,
                Map.of(), DemoOptions.DEFAULT_PAGES_PER_HOST), null);
        assertComplete(s, dir);
        assertThat(s.reachablePages()).isGreaterThan(3_000);
    }

    @Test
    void crawlsRealGraphNeighbourhood() throws Exception {
        assumeTrue(Files.exists(CNR.resolveSibling("cnr-2000.graph")), "cnr-2000 not present");
        Path dir = Path.of("target", "e2e-cnr");
        DemoSummary s = DemoRunner.run(new DemoOptions(CNR, 0, 0, 20, 64, 0, 3, 4, dir, 600, false, Map.of(),
                DemoOptions.DEFAULT_PAGES_PER_HOST), null);
        assertComplete(s, dir);
        assertThat(s.reachablePages()).isGreaterThan(2_000);
    }

    /** Issue 4: T = 200 ms with ~10 hosts on each simulated IP; politeness is per IP, so hosts share one budget. */
    @Test
    void crawlsManyHostsPerIpPolitely_atT200() throws Exception {
        Path dir = Path.of("target", "e2e-hosts-per-ip");
        DemoSummary s = DemoRunner.run(new DemoOptions(null, 800, 0, 200, 16, 0, 1000, 4, dir, 600, false,
                Map.of(), 5), null);
        assertComplete(s, dir);
        assertThat(s.reachablePages()).isGreaterThan(500);
    }

    private static void assertComplete(DemoSummary s, Path dir) throws Exception {
        assertThat(s.missingPages()).as("reachable pages never fetched").isZero();
        assertThat(s.distinctUrlsFetched()).isEqualTo(s.expectedPages());
        assertThat(s.duplicateFetches()).as("duplicate fetches (websim's count)").isZero();
        assertThat(s.politenessViolations()).as("politeness violations (websim's count)").isZero();
        assertThat(s.disallowedFetched()).as("pages fetched against robots.txt").isZero();
        assertThat(s.robotsFetches()).isPositive();
        Map<String, Integer> warc = WarcAssertions.responsesByUri(dir.resolve("warc"));
        long pageRecords = warc.entrySet().stream().filter(e -> e.getKey().contains("/p/")).count();
        assertThat(pageRecords).as("pages with a WARC response record").isEqualTo(s.distinctUrlsFetched());
        assertThat(warc.entrySet()).filteredOn(e -> e.getKey().contains("/p/"))
                .allSatisfy(e -> assertThat(e.getValue()).as(e.getKey()).isEqualTo(1));
    }
}
