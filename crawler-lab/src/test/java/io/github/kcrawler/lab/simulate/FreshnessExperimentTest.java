package io.github.kcrawler.lab.simulate;

import io.github.kcrawler.websim.ChangeModel;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.lab.report.SummaryGolden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The freshness experiment on a small generated population: exactness, budget, estimator convergence. */
class FreshnessExperimentTest {

    private static FreshnessExperiment.Options small(FreshnessExperiment.Process process, Path plots) {
        // 5,000 pages, 100 fetches per unit (uniform interval 50), T = 1,000, adaptive revisits in [1, 500]
        return new FreshnessExperiment.Options(null, 5_000, List.of(ChangeModel.ZIPF, ChangeModel.PEAKED), process,
                1_000, 0.02, 3_000, 500, 50, 1, 0, 3.0, 7, 50, plots);
    }

    @Test
    void poisson_uniformMatchesTheory_budgetHolds_adaptiveBeatsUniform_slowEstimatesConverge(@TempDir Path dir)
            throws Exception {
        FreshnessResult out = FreshnessExperiment.run(small(FreshnessExperiment.Process.POISSON, dir),
                new PrintStream(new ByteArrayOutputStream()));
        assertThat(out.budgetPerUnit()).isEqualTo(100L);
        assertThat(out.models()).containsOnlyKeys("zipf", "peaked");
        for (String model : List.of("zipf", "peaked")) {
            FreshnessResult.Model m = out.models().get(model);
            for (double f : new double[] {m.freshnessUniform(), m.freshnessAdaptive(), m.freshnessProportional(),
                m.freshnessOracle()}) {
                assertThat(f).as(model).isBetween(0.0, 1.0);
            }
            for (double a : new double[] {m.ageUniform(), m.ageAdaptive(), m.ageProportional(), m.ageOracle()}) {
                assertThat(a).as(model).isGreaterThanOrEqualTo(0.0);
            }
            // exact accounting: the simulated uniform policy matches E[(1 - e^{-λJ}) / (λJ)]
            assertThat(m.freshnessUniform()).as(model).isCloseTo(m.freshnessUniformExpected(), within(0.01));
            // the estimator-driven optimal allocation beats uniform, and the oracle is at least as good
            assertThat(m.freshnessAdaptive()).as(model).isGreaterThan(m.freshnessUniform());
            assertThat(m.freshnessOracle()).as(model).isGreaterThan(m.freshnessAdaptive() - 0.01);
            for (FreshnessResult.PolicyRun p : m.policies().values()) {
                assertThat(p.maxFetchesInAUnit()).isEqualTo(100L);
                assertThat(p.fetches()).isEqualTo(100L * 3_000);
            }
            FreshnessResult.EstimateClass slow = m.policies().get("adaptive").estimates().slow();
            assertThat(slow.pages()).isGreaterThan(100);
            assertThat(slow.sumEstimateOverSumTrue()).as(model).isBetween(0.85, 1.15);
            assertThat(slow.medianEstimateOverTrue()).as(model).isBetween(0.6, 1.5);
            assertThat(m.curves().get("t")).hasSize(50);
            for (double f : m.curves().get("adaptiveFreshness")) {
                assertThat(f).isBetween(0.0, 1.0);
            }
        }
        assertThat(dir.resolve("freshness-zipf-poisson.svg")).exists();
        assertThat(Files.readString(dir.resolve("freshness-peaked-poisson.svg"))).contains("<svg", "adaptive");
    }

    @Test
    void estimators_sideBySide_naiveUnderestimates_andTheIrregularEstimatorIsCloser() throws Exception {
        // issue 21: three more estimatedOptimal runs, one per estimator, with every estimator's λ error on each
        FreshnessExperiment.Options o = new FreshnessExperiment.Options(null, 5_000, List.of(ChangeModel.ZIPF),
                FreshnessExperiment.Process.POISSON, 1_000, 0.02, 3_000, 500, 50, 1, 0, 3.0, 7, 50, null);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        FreshnessResult out = FreshnessExperiment.run(o, new PrintStream(text, true, "UTF-8"));
        Map<String, Double> byEstimator = out.freshnessByEstimator().get("zipf");
        assertThat(byEstimator).containsOnlyKeys("naive", "biasReduced", "irregular");
        Map<String, FreshnessResult.EstimatorRun> estimators = out.models().get("zipf").estimators();
        for (String k : List.of("naive", "biasReduced", "irregular")) {
            FreshnessResult.EstimatorRun e = estimators.get(k);
            assertThat(e.freshness()).as(k).isBetween(0.0, 1.0).isEqualTo(byEstimator.get(k));
            assertThat(e.fetches()).as(k).isEqualTo(100L * 3_000);
            assertThat(text.toString("UTF-8")).contains("zipf estimator " + k);
        }
        // on the irregular run's own histories: naive is biased low (X/T misses hidden changes and is 0 at X = 0),
        // the irregular estimator is closer to the truth in the sum and in the typical page
        Map<String, FreshnessResult.LambdaError> errors = estimators.get("irregular").lambdaError();
        FreshnessResult.LambdaError naive = errors.get("naive");
        FreshnessResult.LambdaError irregular = errors.get("irregular");
        assertThat(naive.sumEstimateOverSumTrue()).isLessThan(0.9);
        assertThat(Math.abs(irregular.sumEstimateOverSumTrue() - 1))
                .isLessThan(Math.abs(naive.sumEstimateOverSumTrue() - 1));
        assertThat(irregular.meanAbsLog2Error()).isLessThan(naive.meanAbsLog2Error());
        assertThat(irregular.zeroEstimates()).as("the half-change rule").isZero();
        assertThat(naive.zeroEstimates()).isPositive();
        System.out.println(text.toString("UTF-8"));
        System.out.println(estimators);
    }

    @Test
    void periodic_websimSchedule_staysInRange() throws Exception {
        FreshnessResult out = FreshnessExperiment.run(small(FreshnessExperiment.Process.PERIODIC, null),
                new PrintStream(new ByteArrayOutputStream()));
        FreshnessResult.Model zipf = out.models().get("zipf");
        assertThat(zipf.freshnessUniform()).isBetween(0.0, 1.0);
        assertThat(zipf.freshnessAdaptive()).isBetween(0.0, 1.0);
        assertThat(zipf.freshnessUniformExpected()).isNull();
    }

    /**
     * The summary the typed result writes is the untyped maps', byte for byte (captured before the conversion) but
     * for the wall time and the machine (whose three fields came out in a random order: they were a {@code Map.of}).
     */
    @Test
    void summary_isTheMapsByteForByte(@TempDir Path dir) throws Exception {
        for (FreshnessExperiment.Process p : FreshnessExperiment.Process.values()) {
            FreshnessExperiment.Options o = new FreshnessExperiment.Options(null, 2_000, List.of(ChangeModel.ZIPF,
                    ChangeModel.PEAKED), p, 1_000, 0.02, 600, 100, 50, 1, 0, 3.0, 7, 20, null);
            String name = "freshness-" + p.name().toLowerCase(java.util.Locale.ROOT) + ".json";
            Path file = dir.resolve(name);
            JsonSerde.writeIndented(file, FreshnessExperiment.run(o, new PrintStream(new ByteArrayOutputStream())));
            String machine = "(?m)^    \"(availableProcessors|maxHeapMiB|java)\" : .*\\n";
            SummaryGolden.assertSame(SummaryGolden.before(name).replaceAll(machine, ""),
                    Files.readString(file).replaceAll(machine, ""), Set.of("wallMs"), Set.of());
        }
    }

    @Test
    void commandLine_badSettingsExitWithTwo(@TempDir Path dir) {
        picocli.CommandLine cmd = new picocli.CommandLine(new FreshnessExperimentMain());
        assertThat(cmd.execute("--graph", dir.resolve("missing").toString())).isEqualTo(2);
        assertThat(new picocli.CommandLine(new FreshnessExperimentMain())
                .execute("--graph", dir.resolve("missing").toString(), "--budget-fraction", "0")).isEqualTo(2);
        assertThat(new picocli.CommandLine(new FreshnessExperimentMain())
                .execute("--graph", dir.resolve("missing").toString(), "--models", "NONE")).isEqualTo(2);
    }

    @Test
    void gInverse_invertsG() {
        for (double x : new double[] {1e-7, 1e-4, 0.01, 0.3, 1, 2.5, 7, 20, 30}) {
            double y = ChoGarciaMolinaG.g(x);
            assertThat(ChoGarciaMolinaG.inverse(y)).as("x = %s", x).isCloseTo(x, within(x * 1e-3));
        }
    }

    @Test
    void optimalFrequency_isZeroAboveTheCutOff_andFallsWithMu() {
        assertThat(OptimalAllocation.frequency(2.0, 0.6, 0, 10)).isZero(); // μλ ≥ 1: give up on the page
        double f1 = OptimalAllocation.frequency(0.1, 1.0, 0, 10);
        double f2 = OptimalAllocation.frequency(0.1, 2.0, 0, 10);
        assertThat(f1).isGreaterThan(f2).isGreaterThan(0);
    }

    @Test
    void dueHeap_popsInDueOrder() {
        DueHeap heap = new DueHeap(1_000);
        SplittableRandom rnd = new SplittableRandom(1);
        double[] due = new double[1_000];
        for (int p = 0; p < 1_000; p++) {
            due[p] = rnd.nextDouble() * 100;
            heap.push(due[p], p);
        }
        double last = -1;
        for (int i = 0; i < 1_000; i++) {
            int p = heap.popPage();
            assertThat(due[p]).isGreaterThanOrEqualTo(last);
            last = due[p];
        }
        assertThat(heap.size()).isZero();
    }
}
