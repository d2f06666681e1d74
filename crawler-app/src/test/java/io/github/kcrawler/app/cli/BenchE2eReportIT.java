package io.github.kcrawler.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.common.serde.JsonSerde;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code crawler bench e2e} at a tiny size (a 300-page generated web, 16 IPs, embedded broker) writes its plots over
 * time and its report beside {@code --summary}, like every bench ({@link BenchReportsTest}).
 */
class BenchE2eReportIT {
    @TempDir
    Path dir;

    @Test
    void tinyCrawl_writesPagesPerSecondOverTimeAndStageRatesAndReport() throws Exception {
        Path summary = dir.resolve("out/e2e.json");
        int code = new CommandLine(new BenchCommand.E2e()).execute("--pages", "300", "--max-pages", "150", "--ips",
                "16", "--politeness-ms", "5", "--partitions", "2", "--data-dir", dir.resolve("data").toString(),
                "--sample-ms", "250", "--summary", summary.toString());
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
        assertThat(previous).as("pages at the last sample").isGreaterThanOrEqualTo(150);
        String svg = Files.readString(BenchReportFiles.plotDir(summary).resolve("stage-rates-over-time.svg"));
        assertThat(svg).contains("discovered", "admitted", "released", "fetched", "rankUpdates");
        assertThat(Files.readString(BenchReportFiles.html(summary))).contains("timeline.json");
    }
}
