package io.github.kcrawler.lab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.common.serde.JsonSerde;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code crawler bench e2e} at a tiny size — 20 pages of a 40-page generated web, 4 IPs, one partition, embedded
 * broker — writes its plots over time and its report beside {@code --summary}, like every bench
 * ({@link BenchReportsTest}). Mostly start-up and the pipeline's round trips: 22 s of CPU, 74 s of wall time on the
 * 2 shared cores at load average 28.
 */
class BenchE2eReportIT {
    @TempDir
    Path dir;

    @Test
    void tinyCrawl_writesPagesPerSecondOverTimeAndStageRatesAndReport() throws Exception {
        Path summary = dir.resolve("out/e2e.json");
        int code = new CommandLine(new BenchCommand.E2e()).execute("--pages", "40", "--max-pages", "20", "--ips",
                "4", "--politeness-ms", "5", "--partitions", "1", "--data-dir", dir.resolve("data").toString(),
                "--sample-ms", "200", "--seeds", "2", "--store-metrics", "--summary", summary.toString());
        assertThat(code).isZero();
        BenchReportsTest.assertReport(summary, "no figure in the papers", 3, "pagesPerSecond",
                "distinctUrlsFetched", "fetchedPerSecond", "politenessViolations");
        Path timeline = BenchReportFiles.plotDir(summary).resolve("timeline.json");
        JsonNode samples = JsonSerde.MAPPER.readTree(timeline.toFile()).path("samples");
        assertThat(samples.size()).isGreaterThanOrEqualTo(3);
        long previous = -1;
        for (JsonNode s : samples) {
            assertThat(s.path("pages").asLong()).isGreaterThanOrEqualTo(previous);
            previous = s.path("pages").asLong();
            assertThat(s.path("stages").has("fetched")).isTrue();
        }
        assertThat(previous).as("pages at the last sample").isGreaterThanOrEqualTo(20);
        String svg = Files.readString(BenchReportFiles.plotDir(summary).resolve("stage-rates-over-time.svg"));
        assertThat(svg).contains("discovered", "admitted", "released", "fetched", "rankUpdates");
        assertThat(Files.readString(BenchReportFiles.html(summary))).contains("timeline.json");
        assertThat(Files.readString(BenchReportFiles.plotDir(summary).resolve("cpu-ms-per-page.svg")))
                .contains("broker", "fetcherIo", "jvm");
        assertThat(Files.readString(BenchReportFiles.plotDir(summary).resolve("records-per-page.svg")))
                .contains("crawl.fetch.results");

        // issue 19's figures: present and sane
        JsonNode json = JsonSerde.MAPPER.readTree(summary.toFile());
        System.out.println("issue 19 figures: " + json.path("pagesPerSecond") + " pages/s, cpu " + json.path("cpuMsPerPage")
                + ", records " + json.path("recordsPerPage") + ", store ops " + json.path("storeOpsPerPage")
                + ", efficiency " + json.path("politenessEfficiency"));
        assertThat(json.path("seeds").asInt()).isEqualTo(2);
        assertThat(json.path("pagesPerSecond").asDouble()).isPositive();
        assertThat(json.path("slowestWindowPagesPerSecond").asDouble()).isPositive()
                .isLessThanOrEqualTo(json.path("fastestWindowPagesPerSecond").asDouble());
        assertThat(json.path("elapsedSeconds").asDouble()).isPositive();
        JsonNode cpu = json.path("cpuMsPerPage");
        assertThat(cpu.path("total").asDouble()).isPositive();
        for (String group : new String[] {"broker", "dedup", "scheduler", "ranker", "fetcher", "fetcherIo", "websim",
                "other", "jvm"}) {
            assertThat(cpu.path(group).asDouble()).as(group).isGreaterThanOrEqualTo(0);
        }
        assertThat(cpu.path("broker").asDouble()).isPositive();
        assertThat(cpu.path("fetcher").asDouble() + cpu.path("fetcherIo").asDouble()).isPositive();
        JsonNode records = json.path("recordsPerPage");
        assertThat(records.path("total").asDouble()).isPositive();
        assertThat(records.path("crawl.fetch.results").asDouble()).as("one result per page, about").isBetween(0.5, 3.0);
        assertThat(json.path("bytesPerPage").path("crawl.fetch.results").asDouble()).isPositive();
        assertThat(json.path("storeOpsPerPage").path("total").asDouble()).isPositive();
        assertThat(json.path("gcShare").asDouble()).isBetween(0.0, 1.0);
        // the embedded broker's own request metrics were found and differenced (BrokerRequests)
        JsonNode requests = json.path("brokerRequestsPerPage");
        assertThat(requests.path("Produce").asDouble()).as("produce requests per page").isPositive();
        assertThat(requests.path("EndTxn").asDouble()).as("transactions per page").isPositive();
        assertThat(requests.path("total").asDouble()).isGreaterThanOrEqualTo(
                requests.path("Produce").asDouble() + requests.path("Fetch").asDouble());
        assertThat(json.path("brokerLocalMsPerPage").path("Produce").asDouble()).isPositive();
        JsonNode efficiency = json.path("politenessEfficiency");
        assertThat(efficiency.path("min").asDouble()).isGreaterThan(0).isLessThanOrEqualTo(1.5);
        assertThat(efficiency.path("median").asDouble()).isGreaterThanOrEqualTo(efficiency.path("min").asDouble());
        assertThat(efficiency.path("ips").size()).isBetween(1, 10);
        // no request to one IP closer than T (websim's own count is 0 violations): no median gap below it
        assertThat(json.path("politenessMs").asLong()).isEqualTo(5);
        assertThat(efficiency.path("medianGapMs").asDouble()).isGreaterThanOrEqualTo(5);
    }
}
