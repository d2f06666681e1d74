package io.github.kcrawler.lab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.common.serde.JsonSerde;
import it.unimi.dsi.webgraph.ArrayListMutableGraph;
import it.unimi.dsi.webgraph.BVGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code crawler bench order} on a 300-page BVGraph from two seeds through the whole pipeline (embedded broker, one
 * partition): both criterion-B curves have ten points, those the pipeline reached are numbers (websim's robots.txt
 * keeps a few pages from it, so its 100 % point is left out), and the report and plot are written like every bench's.
 */
class BenchOrderReportIT {
    @TempDir
    Path dir;

    @Test
    void tinyGraph_pipelineAndSimulatorCurvesSideBySide() throws Exception {
        int n = 300;
        ArrayListMutableGraph g = new ArrayListMutableGraph(n);
        for (int i = 0; i < n; i++) {
            for (int j = 1; j <= 4; j++) {
                int t = (int) ((i * 7L + j * j * 31L) % n);
                if (t != i && t != i + 1) {
                    g.addArc(i, t);
                }
            }
            if (i + 1 < n && i != 149) {
                g.addArc(i, i + 1); // reachability: 0..149 from seed 0, 150..299 from seed 150
            }
        }
        Path graph = dir.resolve("tiny");
        BVGraph.store(g.immutableView(), graph.toString());
        Path seeds = dir.resolve("seeds.txt");
        Files.writeString(seeds, "# two seeds\n0, 150\n");
        Path summary = dir.resolve("out/order.json");

        int code = new CommandLine(new OrderBenchCommand()).execute("--graph", graph.toString(), "--seed-pages",
                seeds.toString(), "--ips", "8", "--politeness-ms", "5", "--partitions", "1", "--pages-per-host", "10",
                "--simulator-politeness", "3", "--data-dir", dir.resolve("data").toString(), "--summary",
                summary.toString());

        assertThat(code).isZero();
        BenchReportsTest.assertReport(summary, "paper 002", 1, "maxGap", "population", "fetched");
        JsonNode json = JsonSerde.MAPPER.readTree(summary.toFile());
        assertThat(json.path("seeds").asInt()).isEqualTo(2);
        assertThat(json.path("population").asInt()).isEqualTo(n);
        // websim's robots.txt disallows a few pages of some hosts (and what only they link to): never fetched
        assertThat(json.path("fetched").asInt()).isBetween(n * 9 / 10 + 1, n);
        assertThat(json.path("politenessViolations").asLong()).isZero();
        JsonNode pipeline = json.path("pipelineCriterionB");
        JsonNode simulator = json.path("simulatorCriterionB");
        assertThat(pipeline.size()).isEqualTo(10);
        assertThat(simulator.size()).isEqualTo(10);
        double previous = 0;
        for (int i = 0; i < 9; i++) {
            assertThat(pipeline.path(i).isNumber()).as("point %d", i).isTrue();
            assertThat(pipeline.path(i).asDouble()).isGreaterThanOrEqualTo(previous);
            previous = pipeline.path(i).asDouble();
        }
        assertThat(pipeline.path(9).isNull()).as("100 %% only if every page was fetched")
                .isEqualTo(json.path("fetched").asInt() < n);
        // the simulator crawls websim's web: the pages its robots.txt disallows are never reached, as in the pipeline
        // (the pipeline also stops at its depth limit, the simulator does not)
        assertThat(json.path("simulatorCrawled").asInt()).isBetween(json.path("fetched").asInt(), n - 1);
        assertThat(simulator.path(9).isNull()).isEqualTo(json.path("simulatorCrawled").asInt() < n);
        assertThat(json.path("simulatorFeedbackDelay").asInt()).as("1 partition × wheel-lookahead 128").isEqualTo(128);
        JsonNode sequential = json.path("sequentialSimulatorCriterionB");
        assertThat(sequential.size()).isEqualTo(10);
        assertThat(sequential.path(9).asDouble()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(json.path("maxGap").asDouble()).isBetween(0.0, 1.0);
        assertThat(json.path("sequentialMaxGap").asDouble()).isBetween(0.0, 1.0);
        // the simulator is polite as asked, and the impolite one is kept beside it
        assertThat(json.path("simulatorPoliteness").asInt()).isEqualTo(3);
        JsonNode impolite = json.path("simulatorWithoutPolitenessCriterionB");
        assertThat(impolite.size()).isEqualTo(10);
        assertThat(impolite.path(0).asDouble()).isBetween(0.0, 1.0);
        assertThat(json.path("maxGapWithoutPoliteness").asDouble()).isBetween(0.0, 1.0);
    }
}
