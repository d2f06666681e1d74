package io.github.kcrawler.lab.report;

import io.github.kcrawler.lab.dedup.bench.UrlSeenResult;
import io.github.kcrawler.lab.chart.SvgChart.Bars;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.github.kcrawler.lab.report.PlotFiles.bars;

/**
 * The plots of {@code crawler bench url-seen}, drawn from its typed result: URL-seen tests/s and store operations of
 * both variants, and where the tiered test answered (paper 000 has no figure of this; its hit rate is Fig. 8's).
 */
public final class UrlSeenPlots {
    /** The report's title: what the bench reproduces. */
    public static final String TITLE = "URL-seen tests/s, LRU → SBFL → RocksDB against RocksDB alone — no "
            + "figure in the paper; paper 000's method (Fig. 3) on a crawl, its hit rate as in Fig. 8";

    private UrlSeenPlots() {
    }

    /** Tests/s and store operations per variant, and where the tiered test answered (left out without a run). */
    public static List<Path> plot(UrlSeenResult r, Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        String sub = String.format(Locale.ROOT, "%s, %,d tests, LRU %,d, SBFL m = %,d", r.graph(), r.tests(),
                r.lruSize(), r.sbflCounters());
        List<String> variants = List.of("RocksDB alone", "LRU → SBFL → RocksDB");
        out.add(bars(dir, "tests-per-second.svg", "URL-seen tests per second (best run; no figure in paper 000)\n"
                        + sub, "tests/s", variants,
                List.of(new Bars("tests/s", new double[] {r.rocksdbOnlyTestsPerSec(), r.tieredTestsPerSec()})),
                false));
        out.add(bars(dir, "store-operations.svg", "RocksDB operations (gets + puts)\n" + sub, "operations",
                variants, List.of(new Bars("store operations", new double[] {r.rocksdbOnlyStoreOps(),
                        r.tieredStoreOps()})), false));
        UrlSeenResult.Tiered t = r.tiered();
        if (t != null) {
            double tests = Math.max(1, t.tests());
            out.add(bars(dir, "tier-answers.svg", "Where the tiered test answered, share of tests\n" + sub
                            + "; hit rate = LRU + SBFL, as in paper 000's Fig. 8", "share of tests",
                    List.of("LRU hit", "SBFL positive", "RocksDB hit", "new URL", "hit rate", "best possible"),
                    List.of(new Bars("share", new double[] {t.lruHits() / tests, t.sbflPositives() / tests,
                            t.storageHits() / tests, t.newUrls() / tests, t.hitRate(), r.maxHitRate()})), false));
        }
        return out;
    }
}
