package io.github.kcrawler.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.lab.chart.SvgChart.Bars;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.github.kcrawler.lab.report.PlotFiles.bars;
import static io.github.kcrawler.lab.report.PlotFiles.num;

/**
 * The plots of {@code crawler bench url-seen}: URL-seen tests/s and where the tiered test answered. Each chart is titled with the figure or table of the paper it reproduces
 * ({@code ../shared/seeds/}); a field missing from the result (a partial run) leaves its plot out or empty, never
 * fails the bench.
 */
public final class UrlSeenPlots {
    /** The report's title: what the bench reproduces. */
    public static final String TITLE = "URL-seen tests/s, LRU → SBFL → RocksDB against RocksDB alone — no "
            + "figure in the paper; paper 000's method (Fig. 3) on a crawl, its hit rate as in Fig. 8";

    private UrlSeenPlots() {
    }

    /** Tests/s and store operations per variant, and where the tiered test answered. */
    public static List<Path> plot(JsonNode r, Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        String sub = String.format(Locale.ROOT, "%s, %,d tests, LRU %,d, SBFL m = %,d",
                r.path("graph").asText(), r.path("tests").asLong(), r.path("lruSize").asLong(),
                r.path("sbflCounters").asLong());
        List<String> variants = List.of("RocksDB alone", "LRU → SBFL → RocksDB");
        out.add(bars(dir, "tests-per-second.svg", "URL-seen tests per second (best run; no figure in paper 000)\n"
                        + sub, "tests/s", variants,
                List.of(new Bars("tests/s", new double[] {num(r, "rocksdbOnlyTestsPerSec"),
                        num(r, "tieredTestsPerSec")})), false));
        out.add(bars(dir, "store-operations.svg", "RocksDB operations (gets + puts)\n" + sub, "operations",
                variants, List.of(new Bars("store operations", new double[] {num(r, "rocksdbOnlyStoreOps"),
                        num(r, "tieredStoreOps")})), false));
        JsonNode t = r.path("tiered");
        double tests = Math.max(1, t.path("tests").asDouble());
        out.add(bars(dir, "tier-answers.svg", "Where the tiered test answered, share of tests\n" + sub
                        + "; hit rate = LRU + SBFL, as in paper 000's Fig. 8", "share of tests",
                List.of("LRU hit", "SBFL positive", "RocksDB hit", "new URL", "hit rate", "best possible"),
                List.of(new Bars("share", new double[] {t.path("lruHits").asDouble() / tests,
                        t.path("sbflPositives").asDouble() / tests, t.path("storageHits").asDouble() / tests,
                        t.path("newUrls").asDouble() / tests, num(t, "hitRate"), num(r, "maxHitRate")})), false));
        return out;
    }
}
