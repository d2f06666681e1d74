package io.github.kcrawler.lab.faults;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class FaultsResultTest {
    private static final List<FaultsResult.Disruption> DISRUPTIONS = List.of(
            new FaultsResult.Disruption("SIGKILL", "fetcher-1", 43.0, 43.2, 52.3, 677, true),
            new FaultsResult.Disruption("SIGKILL", "broker", 54.3, 54.4, 71.3, 915, true),
            new FaultsResult.Disruption("SIGSTOP", "fetcher-2", 73.3, 85.3, 85.4, 944, true));

    @Test
    void eachDuplicateCountsUnderTheLastDisruptionBeganBeforeIt() {
        Map<String, Long> by = FaultsResult.attribute(new double[] {5.0, 43.0, 49.7, 49.7, 71.3, 80.0, 80.1, 99.0},
                DISRUPTIONS);

        assertThat(by).containsExactly(Map.entry(FaultsResult.BEFORE_ANY_DISRUPTION, 1L),
                Map.entry("SIGKILL fetcher-1", 3L), Map.entry("SIGKILL broker", 1L),
                Map.entry("SIGSTOP fetcher-2", 3L));
    }

    @Test
    void everyDisruptionIsListedEvenWithoutDuplicates() {
        assertThat(FaultsResult.attribute(new double[0], DISRUPTIONS)).hasSize(4).allSatisfy((k, n) ->
                assertThat(n).isZero());
    }

    @Test
    void theReportNamesOnlyTheDisruptionsThatLeftDuplicates() {
        FaultsResult.RunFigures figures = new FaultsResult.RunFigures(100, 1195, 1195, 1198, 3, 0, 50.1, 55, 0,
                new double[0], new long[0]);
        FaultsResult r = new FaultsResult(FaultsResult.VERSION, null, figures, figures, 0, List.of(), 3 / 1195.0,
                0, null, DISRUPTIONS, List.of(), List.of(), List.of(),
                FaultsResult.attribute(new double[] {49.7, 49.8, 80.0}, DISRUPTIONS), Map.of(), true, "test");

        assertThat(r.toText()).contains("duplicates after each disruption: SIGKILL fetcher-1 2; SIGSTOP fetcher-2 1"
                + System.lineSeparator()).doesNotContain("SIGKILL broker 0");
    }
}
