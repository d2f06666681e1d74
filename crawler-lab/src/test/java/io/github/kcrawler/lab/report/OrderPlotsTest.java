package io.github.kcrawler.lab.report;

import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.lab.measure.OrderBenchResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code bench order}'s typed result: the map's summary byte for byte, read back, and its plot from the fields. */
class OrderPlotsTest {
    private static final double[] PIPELINE = {0.1, 0.25, 1 / 3.0, 0.5, 0.61, 0.7, 0.8, 0.9, Double.NaN, Double.NaN};
    private static final double[] SIMULATOR = {0.11, 0.24, 0.34, 0.48, 0.6, 0.69, 0.79, 0.9, 0.95, Double.NaN};
    private static final double[] SEQUENTIAL = {0.12, 0.2, 0.35, 0.45, 0.6, 0.72, 0.81, 0.93, 0.97, 1.0};

    @Test
    void summary_isTheMapsByteForByte_andPlotsFromItsFields(@TempDir Path dir) throws Exception {
        OrderBenchResult r = new OrderBenchResult("order", "../shared/data/cnr-2000", "IPR-DL1", 3, 100, 4, 1234,
                1000, 7, OrderBenchResult.CHECKPOINTS_PERCENT.clone(), OrderBenchResult.nullable(PIPELINE),
                OrderBenchResult.nullable(SIMULATOR), 0.05, 512, 1200, 0, null, null, SEQUENTIAL, 0.05, 990, 850.0,
                1200.5, null, 123.456, 0, 2, 9.87);
        Path file = dir.resolve("order.json");
        JsonSerde.writeIndented(file, r);
        // the link latency (thirty-third session) sits between the captured fields sequentialMaxGap and pagesPerSecond;
        // the simulator's politeness (thirty-fifth) after simulatorCrawled, its list left out when k is 0
        SummaryGolden.assertSame(SummaryGolden.before("order.json"), Files.readString(file), Set.of(),
                Set.of("linkLatencyPages", "linkLatencyP1Ms", "linkLatencyP10Ms", "linkLatencyP50Ms",
                        "simulatorPoliteness", "maxGapWithoutPoliteness"));

        OrderBenchResult read = JsonSerde.MAPPER.readValue(file.toFile(), OrderBenchResult.class);
        assertThat(read.pipelineCriterionB()).isEqualTo(r.pipelineCriterionB());
        assertThat(read.simulatorCriterionB()).isEqualTo(r.simulatorCriterionB());
        assertThat(read.sequentialSimulatorCriterionB()).isEqualTo(SEQUENTIAL);
        assertThat(read.linkLatencyP10Ms()).isEqualTo(1200.5);
        assertThat(read.linkLatencyP50Ms()).isNull();
        List<Path> plots = OrderPlots.plot(read, dir.resolve("plots"));
        String svg = Files.readString(plots.get(0));
        assertThat(svg).contains("IPR-DL1, 3 seeds, 1,234 pages", ">pipeline<", ">simulator, 512 pages in flight<",
                ">simulator, one page at a time<");
        // the pipeline's curve stops at 80 %, the modelled simulator's at 90 %: 8 + 9 markers, the sequential one's 10
        assertThat(svg.split("<circle", -1).length - 1).isEqualTo(8 + 9 + 10);
    }

    @Test
    void aPoliteSimulator_isNamedWithItsK_andTheImpoliteOneIsKeptAndPlotted(@TempDir Path dir) throws Exception {
        double[] impolite = {0.13, 0.26, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, Double.NaN};
        OrderBenchResult r = new OrderBenchResult("order", "g", "IPR-DL1", 3, 20, 4, 1234, 1000, 7,
                OrderBenchResult.CHECKPOINTS_PERCENT.clone(), OrderBenchResult.nullable(PIPELINE),
                OrderBenchResult.nullable(SIMULATOR), 0.05, 512, 1200, 23, OrderBenchResult.nullable(impolite),
                0.0667, SEQUENTIAL, 0.05, 990, 850.0, 1200.5, null, 1150.0, 0, 0, 9.87);
        Path file = dir.resolve("order.json");
        JsonSerde.writeIndented(file, r);
        OrderBenchResult read = JsonSerde.MAPPER.readValue(file.toFile(), OrderBenchResult.class);
        assertThat(read.simulatorPoliteness()).isEqualTo(23);
        assertThat(read.simulatorWithoutPolitenessCriterionB()).isEqualTo(r.simulatorWithoutPolitenessCriterionB());
        assertThat(read.simulatorWithoutPolitenessCriterionB().get(9)).isNull();
        assertThat(read.maxGapWithoutPoliteness()).isEqualTo(0.0667);
        String svg = Files.readString(OrderPlots.plot(read, dir.resolve("plots")).get(0));
        assertThat(svg).contains(">simulator, 512 pages in flight, polite (k = 23)<",
                ">simulator, 512 pages in flight, not polite<");
        assertThat(svg.split("<circle", -1).length - 1).isEqualTo(8 + 9 + 10 + 9);
    }
}
