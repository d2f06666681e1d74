package io.github.kcrawler.lab.soak;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.lab.report.ExperimentReport;
import io.github.kcrawler.common.serde.JsonSerde;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The summary, plots and report of a constructed run (no crawl): what a reader of the outputs gets. */
class SoakOutputTest {
    @Test
    void writesJsonPlotsAndReport_withSamplesWhoseMetricsWereNotRead(@TempDir Path dir) throws Exception {
        List<SoakSummary.Sample> samples = new ArrayList<>();
        List<SoakSummary.Gc> gcs = new ArrayList<>();
        for (int t = 0; t <= 600; t += 10) {
            samples.add(new SoakSummary.Sample(t, 400L * t, 400L * t, 900L << 20, t == 0 ? -1 : 300L << 20,
                    t == 0 ? -1 : 5000, -1, -1, t == 0 ? -1 : 3.5));
        }
        for (int t = 1; t < 600; t += 3) {
            gcs.add(new SoakSummary.Gc(t, "Young (Normal) (G1 Evacuation Pause)", (200L + t % 30) << 20, 1L << 30, 5));
            if (t % 60 == 1) { // and the soak's forced full GC each minute: the live set
                gcs.add(new SoakSummary.Gc(t + 0.5, "Full (Heap Inspection Initiated GC)", 180L << 20, 1L << 30, 400));
            }
        }
        List<Flatness.HeapPoint> liveSet = SoakRunner.liveSetPoints(gcs);
        assertThat(liveSet).hasSize(10).allSatisfy(p -> assertThat(p.bytes()).isEqualTo(180L << 20));
        Flatness.Verdict v = Flatness.judge(
                samples.stream().map(s -> new Flatness.Sample(s.seconds(), s.pagesFetched())).toList(),
                gcs.stream().map(g -> new Flatness.HeapPoint(g.seconds(), g.afterBytes())).toList(), liveSet, 120,
                600, 60, 0.1);
        SoakSummary s = new SoakSummary(SoakSummary.VERSION, "crawler bench soak --minutes 10", "2 cores", 1_000_000,
                4096, 20, 4, "1g", 1L << 30, 10, 10, 60, 10, 0, 60, 0.2, 984_208, 256, 240_000, 240_000, 0, 0, 21.3,
                143, true, 12.5, gcs.size(), 1000, 5, 0, 900L << 20, v, 181, 541,
                List.of(new ClassHistogram.Growth("[J", 4L << 20, 8265),
                        new ClassHistogram.Growth("io.github.kcrawler.fetcher.robots.RobotsRules", 360_384, 7508)),
                samples, gcs);

        Path json = dir.resolve("soak.json");
        s.write(json);
        SoakPlots.write(s, dir.resolve("plots"));
        ExperimentReport.write(dir.resolve("report.html"), "soak", List.of(dir.resolve("plots")), List.of(json), "x");

        JsonNode read = JsonSerde.MAPPER.readTree(json.toFile());
        assertThat(read.get("verdict").get("flat").asBoolean()).isTrue();
        assertThat(read.get("verdict").get("windows")).hasSize(8);
        assertThat(read.get("verdict").get("meanRate").asDouble()).isEqualTo(400.0);
        assertThat(read.get("verdict").get("liveSet").get("points").asInt()).isEqualTo(8);
        assertThat(read.get("verdict").get("liveSet").get("flat").asBoolean()).isTrue();
        assertThat(read.get("v").asInt()).isEqualTo(2);
        assertThat(read.get("samples")).hasSize(61);
        try (var files = Files.list(dir.resolve("plots"))) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
                    "soak-pages-per-second.svg", "soak-heap-after-gc.svg", "soak-memory.svg", "soak-frontier.svg",
                    "soak-machine-load.svg");
        }
        assertThat(Files.readString(dir.resolve("plots/soak-heap-after-gc.svg")))
                .contains("least-squares fit after warm-up").contains("live set (after forced full GC)")
                .contains("-Xmx1g").doesNotContain("NaN");
        assertThat(Files.readString(dir.resolve("report.html"))).contains("data:image/svg+xml;base64,");
        assertThat(s.toText()).contains("verdict: flat").contains("400 (+0.0%)").contains("mean 3.5, max 3.5")
                .contains("live set (heap after the full GC forced every 60 s; 8 after warm-up of 10 forced, 0 failed): "
                        + "min 180 MiB, mean 180 MiB, max 180 MiB; trend +0.0%")
                .contains("live set grew from 181 s to 541 s most by: [J +4.0 MiB (+8,265), "
                        + "io.github.kcrawler.fetcher.robots.RobotsRules +0.3 MiB (+7,508)");
        assertThat(read.get("liveSetGrowth").get(0).get("className").asText()).isEqualTo("[J");
    }

    @Test
    void cleanExit_isZeroOrTheJvmsSigtermStatus() {
        assertThat(SoakRunner.cleanExit(0)).isTrue();
        assertThat(SoakRunner.cleanExit(143)).isTrue();
        assertThat(SoakRunner.cleanExit(1)).isFalse();
        assertThat(SoakRunner.cleanExit(-1)).isFalse();
    }
}
