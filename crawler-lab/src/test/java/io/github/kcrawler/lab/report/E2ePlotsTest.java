package io.github.kcrawler.lab.report;

import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.lab.demo.CrawlTimeline;
import io.github.kcrawler.lab.demo.DemoSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code bench e2e}'s plots drawn from its typed summary and course, both read back from their JSON files. */
class E2ePlotsTest {
    @Test
    void plots_fromTheSummaryAndCourseReadBack(@TempDir Path dir) throws Exception {
        DemoSummary summary = JsonSerde.MAPPER.readValue("""
                {"v": 3, "graph": "generated:1000", "partitions": 4, "politenessMs": 20, "ips": 64,
                 "distinctUrlsFetched": 900, "elapsedSeconds": 9.0,
                 "stages": {"fetched": 950, "fetchedPerSecond": 105.5, "rankedPerSecond": 99.0},
                 "cpuMsPerPage": {"total": 1.5, "fetcher": 1.0, "dedup": 0.5},
                 "recordsPerPage": {"total": 12.0, "crawl.fetched": 2.0}}""", DemoSummary.class);
        Path summaryFile = dir.resolve("e2e.json");
        summary.write(summaryFile);
        assertThat(JsonSerde.MAPPER.readValue(summaryFile.toFile(), DemoSummary.class)).isEqualTo(summary);

        CrawlTimeline.Course course = new CrawlTimeline.Course(1000, List.of(
                new CrawlTimeline.Sample(0, 0, Map.of("fetched", 0L)),
                new CrawlTimeline.Sample(2, 400, Map.of("fetched", 500L)),
                new CrawlTimeline.Sample(4, 900, Map.of("fetched", 950L))));
        Path courseFile = dir.resolve("timeline.json");
        JsonSerde.writeIndented(courseFile, course);
        CrawlTimeline.Course read = JsonSerde.MAPPER.readValue(courseFile.toFile(), CrawlTimeline.Course.class);
        assertThat(read).isEqualTo(course);

        List<Path> files = E2ePlots.plot(summary, read, dir.resolve("plots"));
        assertThat(files).extracting(p -> p.getFileName().toString()).containsExactly("pages-per-second.svg",
                "stage-rates-over-time.svg", "stage-rates.svg", "cpu-ms-per-page.svg", "records-per-page.svg");
        assertThat(Files.readString(files.get(0))).contains("generated:1000, 64 IPs, T = 20 ms, 4 partitions, "
                + "900 pages in 9.0 s");
        assertThat(Files.readString(files.get(2))).contains(">fetched<", ">ranked<", "105.5").doesNotContain(
                ">fetchedPerSecond<");
        assertThat(Files.readString(files.get(3))).contains("total 1.50", ">fetcher<").doesNotContain(">total<");
    }
}
