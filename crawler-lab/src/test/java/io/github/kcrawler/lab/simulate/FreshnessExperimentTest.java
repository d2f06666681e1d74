package io.github.kcrawler.lab.simulate;

import io.github.kcrawler.websim.ChangeModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
    @SuppressWarnings("unchecked")
    void poisson_uniformMatchesTheory_budgetHolds_adaptiveBeatsUniform_slowEstimatesConverge(@TempDir Path dir)
            throws Exception {
        Map<String, Object> out = FreshnessExperiment.run(small(FreshnessExperiment.Process.POISSON, dir),
                new PrintStream(new ByteArrayOutputStream()));
        assertThat(out.get("budgetPerUnit")).isEqualTo(100L);
        Map<String, Object> models = (Map<String, Object>) out.get("models");
        for (String model : List.of("zipf", "peaked")) {
            Map<String, Object> m = (Map<String, Object>) models.get(model);
            for (String k : List.of("freshnessUniform", "freshnessAdaptive", "freshnessProportional",
                    "freshnessOracle")) {
                assertThat((double) m.get(k)).as("%s %s", model, k).isBetween(0.0, 1.0);
            }
            for (String k : List.of("ageUniform", "ageAdaptive", "ageProportional", "ageOracle")) {
                assertThat((double) m.get(k)).as("%s %s", model, k).isGreaterThanOrEqualTo(0.0);
            }
            // exact accounting: the simulated uniform policy matches E[(1 - e^{-λJ}) / (λJ)]
            assertThat((double) m.get("freshnessUniform")).as(model)
                    .isCloseTo((double) m.get("freshnessUniformExpected"), within(0.01));
            // the estimator-driven optimal allocation beats uniform, and the oracle is at least as good
            assertThat((double) m.get("freshnessAdaptive")).as(model).isGreaterThan((double) m.get("freshnessUniform"));
            assertThat((double) m.get("freshnessOracle")).as(model)
                    .isGreaterThan((double) m.get("freshnessAdaptive") - 0.01);
            Map<String, Object> policies = (Map<String, Object>) m.get("policies");
            for (Object v : policies.values()) {
                Map<String, Object> p = (Map<String, Object>) v;
                assertThat(p.get("maxFetchesInAUnit")).isEqualTo(100L);
                assertThat(p.get("fetches")).isEqualTo(100L * 3_000);
            }
            Map<String, Object> adaptive = (Map<String, Object>) policies.get("adaptive");
            Map<String, Object> slow = (Map<String, Object>) ((Map<String, Object>) adaptive.get("estimates"))
                    .get("slow");
            assertThat((int) slow.get("pages")).isGreaterThan(100);
            assertThat((double) slow.get("sumEstimateOverSumTrue")).as(model).isBetween(0.85, 1.15);
            assertThat((double) slow.get("medianEstimateOverTrue")).as(model).isBetween(0.6, 1.5);
            Map<String, Object> curves = (Map<String, Object>) m.get("curves");
            assertThat((double[]) curves.get("t")).hasSize(50);
            for (double f : (double[]) curves.get("adaptiveFreshness")) {
                assertThat(f).isBetween(0.0, 1.0);
            }
        }
        assertThat(dir.resolve("freshness-zipf-poisson.svg")).exists();
        assertThat(Files.readString(dir.resolve("freshness-peaked-poisson.svg"))).contains("<svg", "adaptive");
    }

    @Test
    @SuppressWarnings("unchecked")
    void estimators_sideBySide_naiveUnderestimates_andTheIrregularEstimatorIsCloser() throws Exception {
        // issue 21: three more estimatedOptimal runs, one per estimator, with every estimator's λ error on each
        FreshnessExperiment.Options o = new FreshnessExperiment.Options(null, 5_000, List.of(ChangeModel.ZIPF),
                FreshnessExperiment.Process.POISSON, 1_000, 0.02, 3_000, 500, 50, 1, 0, 3.0, 7, 50, null);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        Map<String, Object> out = FreshnessExperiment.run(o, new PrintStream(text, true, "UTF-8"));
        Map<String, Object> byEstimator = (Map<String, Object>) ((Map<String, Object>) out.get("freshnessByEstimator"))
                .get("zipf");
        assertThat(byEstimator).containsOnlyKeys("naive", "biasReduced", "irregular");
        Map<String, Object> zipf = (Map<String, Object>) ((Map<String, Object>) out.get("models")).get("zipf");
        Map<String, Object> estimators = (Map<String, Object>) zipf.get("estimators");
        for (String k : List.of("naive", "biasReduced", "irregular")) {
            Map<String, Object> e = (Map<String, Object>) estimators.get(k);
            assertThat((double) e.get("freshness")).as(k).isBetween(0.0, 1.0).isEqualTo(byEstimator.get(k));
            assertThat(e.get("fetches")).as(k).isEqualTo(100L * 3_000);
            assertThat(text.toString("UTF-8")).contains("zipf estimator " + k);
        }
        // on the irregular run's own histories: naive is biased low (X/T misses hidden changes and is 0 at X = 0),
        // the irregular estimator is closer to the truth in the sum and in the typical page
        Map<String, Object> errors = (Map<String, Object>) ((Map<String, Object>) estimators.get("irregular"))
                .get("lambdaError");
        Map<String, Object> naive = (Map<String, Object>) errors.get("naive");
        Map<String, Object> irregular = (Map<String, Object>) errors.get("irregular");
        assertThat((double) naive.get("sumEstimateOverSumTrue")).isLessThan(0.9);
        assertThat(Math.abs((double) irregular.get("sumEstimateOverSumTrue") - 1))
                .isLessThan(Math.abs((double) naive.get("sumEstimateOverSumTrue") - 1));
        assertThat((double) irregular.get("meanAbsLog2Error")).isLessThan((double) naive.get("meanAbsLog2Error"));
        assertThat((long) irregular.get("zeroEstimates")).as("the half-change rule").isZero();
        assertThat((long) naive.get("zeroEstimates")).isPositive();
        System.out.println(text.toString("UTF-8"));
        System.out.println(estimators);
    }

    @Test
    @SuppressWarnings("unchecked")
    void periodic_websimSchedule_staysInRange() throws Exception {
        Map<String, Object> out = FreshnessExperiment.run(small(FreshnessExperiment.Process.PERIODIC, null),
                new PrintStream(new ByteArrayOutputStream()));
        Map<String, Object> zipf = (Map<String, Object>) ((Map<String, Object>) out.get("models")).get("zipf");
        assertThat((double) zipf.get("freshnessUniform")).isBetween(0.0, 1.0);
        assertThat((double) zipf.get("freshnessAdaptive")).isBetween(0.0, 1.0);
        assertThat(zipf).doesNotContainKey("freshnessUniformExpected");
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
        assertThat(FreshnessRun.frequency(2.0, 0.6, 0, 10)).isZero(); // μλ ≥ 1: give up on the page
        double f1 = FreshnessRun.frequency(0.1, 1.0, 0, 10);
        double f2 = FreshnessRun.frequency(0.1, 2.0, 0, 10);
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
