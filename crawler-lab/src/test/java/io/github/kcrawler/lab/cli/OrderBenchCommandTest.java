package io.github.kcrawler.lab.cli;

import it.unimi.dsi.webgraph.ArrayListMutableGraph;
import it.unimi.dsi.webgraph.BVGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code crawler bench order}: a bad simulator window or seed rule is a usage error found before any crawl starts. */
class OrderBenchCommandTest {
    @TempDir
    Path dir;

    @Test
    void aNegativeFeedbackDelay_orABadLookahead_isAUsageError_beforeTheCrawl() throws Exception {
        ArrayListMutableGraph g = new ArrayListMutableGraph(3);
        g.addArc(0, 1);
        g.addArc(1, 2);
        Path graph = dir.resolve("tiny");
        BVGraph.store(g.immutableView(), graph.toString());
        Path data = dir.resolve("data");

        StringWriter err = new StringWriter();
        int code = new CommandLine(new OrderBenchCommand()).setErr(new PrintWriter(err)).execute("--graph",
                graph.toString(), "--simulator-feedback-delay", "-1", "--data-dir", data.toString());
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--simulator-feedback-delay must be >= 0, was -1");

        err = new StringWriter();
        code = new CommandLine(new OrderBenchCommand()).setErr(new PrintWriter(err)).execute("--graph",
                graph.toString(), "--set", "wheel-lookahead=many", "--data-dir", data.toString());
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("wheel-lookahead");

        for (String[] bad : new String[][] {{"--scc-seeds", "0"}, {"--scc-seeds", "2", "--seed-pages", "0"}}) {
            err = new StringWriter();
            String[] args = new String[bad.length + 4];
            System.arraycopy(new String[] {"--graph", graph.toString(), "--data-dir", data.toString()}, 0, args, 0, 4);
            System.arraycopy(bad, 0, args, 4, bad.length);
            code = new CommandLine(new OrderBenchCommand()).setErr(new PrintWriter(err)).execute(args);
            assertThat(code).as(String.join(" ", bad)).isEqualTo(2);
            assertThat(err.toString()).contains("--scc-seeds must be >= 1 and not given with --seed-pages");
        }
        assertThat(Files.exists(data.resolve("websim-access.tsv"))).as("no crawl ran").isFalse();
    }
}
