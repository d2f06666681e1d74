package io.github.kcrawler.lab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kcrawler.common.serde.JsonSerde;
import it.unimi.dsi.webgraph.ArrayListMutableGraph;
import it.unimi.dsi.webgraph.BVGraph;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code crawler bench} at a tiny size writes its SVG plots and one HTML report next to {@code --summary}
 * ({@link BenchReportFiles}): the SVGs parse as XML, the report names the paper's figure and shows the JSON's
 * numbers. (bench e2e, which needs a broker, is in {@code BenchE2eReportIT}.) 28 s in all at load average 25
 * on the 2 shared cores, half of it satl's three stores.
 */
class BenchReportsTest {
    @TempDir
    static Path shared;
    static Path graph;

    @TempDir
    Path dir;

    /** A small BVGraph: 3,000 pages, 6 links each, reachable from page 0. */
    @BeforeAll
    static void tinyGraph() throws Exception {
        int n = 3000;
        ArrayListMutableGraph g = new ArrayListMutableGraph(n);
        for (int i = 0; i < n; i++) {
            for (int j = 1; j <= 6; j++) {
                int t = (int) ((i * 7L + j * j * 131L + (j == 1 ? 1 : 0)) % n);
                if (t != i) {
                    g.addArc(i, t);
                }
            }
            if (i + 1 < n) {
                g.addArc(i, i + 1); // reachability
            }
        }
        graph = shared.resolve("tiny");
        BVGraph.store(g.immutableView(), graph.toString());
    }

    @Test
    void sbflDecrement_writesTable1PlotsAndReport() throws Exception {
        Path summary = dir.resolve("out/sbfl.json");
        assertThat(LabMain.commandLine().execute("bench", "sbfl-decrement", "--log2-counters", "16",
                "--decrements", "2000000", "--summary", summary.toString())).isZero();
        JsonNode json = assertReport(summary, "paper 000 (SBFL), Table 1", 4, "sbfDecrementsPerSec",
                "sbflDecrementsPerSec", "sbflSwarDecrementsPerSec", "sbflSwarSpeedupOverSbf", "bytesTouchedPerSecond",
                "arrayCopyBytesPerSecond");
        assertThat(svg(summary, "bandwidth.svg")).contains("System.arraycopy", "16,384-byte");
        assertThat(Files.readString(BenchReportFiles.html(summary)))
                .contains("<code>crawler bench sbfl-decrement --log2-counters 16 --decrements 2000000 --summary ");
        assertThat(svg(summary, "table1-speedup-over-sbf.svg")).contains("Table 1", "331.6", "33.99");
        assertThat(json.path("decrements").asLong()).isEqualTo(2_000_000);
    }

    @Test
    void urlSeen_writesThroughputAndTierPlotsAndReport() throws Exception {
        Path summary = dir.resolve("url-seen.json");
        run(new UrlSeenBenchCommands.UrlSeen(), "--graph", graph.toString(), "--work-dir",
                dir.resolve("work").toString(), "--summary", summary.toString());
        assertReport(summary, "no figure in the paper", 3, "tieredTestsPerSec", "rocksdbOnlyTestsPerSec",
                "tieredStoreOps", "maxHitRate");
        assertThat(svg(summary, "tier-answers.svg")).contains("LRU hit", "SBFL positive", "Fig. 8");
    }

    @Test
    void urlSeenMemory_writesFigs5To10AndReport() throws Exception {
        Path summary = dir.resolve("mem.json");
        run(new UrlSeenBenchCommands.UrlSeenMemory(), "--graph", graph.toString(), "--summary", summary.toString());
        JsonNode json = assertReport(summary, "paper 000 (SBFL), Figs. 5–10", 6, "tests", "lruFixed",
                "memoryPaperBytes", "falsePositives");
        assertThat(svg(summary, "graph-fig10-memory-vs-hit-rate.svg")).contains("Fig. 10", "LRU alone");
        assertThat(svg(summary, "graph-fig6-false-positives.svg")).contains("SBF k=4", "SBFL k=4");
        assertThat(json.path("datasets").path("graph").path("lruOnly").size()).isPositive();
    }

    @Test
    void impCbf_writesFig3AndReport() throws Exception {
        Path summary = dir.resolve("imp-cbf.json");
        run(new ImpCbfBenchCommand(), "--max-items", "3000", "--ratios", "0.078,0.3", "--repeats", "1",
                "--work-dir", dir.resolve("work").toString(), "--summary", summary.toString());
        assertReport(summary, "paper 001 (IMP-CB Filter), Fig. 3", 2, "baselineSeconds", "impCbSeconds",
                "impCbDbReads", "speedup");
        assertThat(Files.readString(BenchReportFiles.html(summary))).contains("<code>crawler bench imp-cbf --max-items 3000 ");
        assertThat(svg(summary, "fig3-dedup-time.svg")).contains("Fig. 3", "IMP-CB filter, 7.8% dup.",
                "fingerprint DB only, 30.0% dup.");
    }

    @Test
    void satl_writesFig7Fig9AndTable1AndReport() throws Exception {
        Path summary = dir.resolve("satl.json");
        // T = 200, not the paper's 9,600: SAT's loading (one file per time unit) would take most of a minute here
        run(new SatlBenchCommand(), "--records", "5000", "--buffer-mib", "1", "--max-intervals", "200",
                "--distributions", "zipf", "--units", "3", "--buffered-io", "--work-dir",
                dir.resolve("work").toString(), "--summary", summary.toString());
        assertReport(summary, "paper 003 (SAT/L), Figs. 7 and 9, Table 1", 4, "nsPerRecord",
                "bytesWrittenPerRecord", "satlSteady", "paperSatl");
        assertThat(svg(summary, "fig7-T200-time-per-record.svg")).contains("cf. Fig. 7", "SAT/L, zipf", "SAT, zipf",
                "RocksDB by time, zipf");
        assertThat(svg(summary, "table1-buffers.svg")).contains("Table 1", "paper: SAT/L", "275", "576,000");
        assertThat(svg(summary, "fig9-T200-trace.svg")).contains("Fig. 9", "buffer 1 MiB");
    }

    @Test
    void sameRuleForEveryBench_reportAndPlotsBesideTheSummary() {
        Path summary = Path.of("out", "run-3.json");
        assertThat(BenchReportFiles.html(summary)).isEqualTo(Path.of("out", "run-3.html").toAbsolutePath());
        assertThat(BenchReportFiles.plotDir(summary)).isEqualTo(Path.of("out", "run-3-plots").toAbsolutePath());
        assertThat(BenchReportFiles.html(Path.of("x"))).isEqualTo(Path.of("x.html").toAbsolutePath());
        for (String[] cmd : new String[][] {{"e2e"}, {"sbfl-decrement"}, {"url-seen"}, {"url-seen-memory"},
                {"imp-cbf"}, {"satl"}}) {
            String help = new CommandLine(new BenchCommand()).getSubcommands().get(cmd[0]).getUsageMessage();
            assertThat(help).as(cmd[0]).contains("--summary out/NAME.json also writes out/NAME.html and "
                    + "out/NAME-plots/");
        }
    }

    private static void run(Object command, String... args) {
        assertThat(new CommandLine(command).execute(args)).isZero();
    }

    private static String svg(Path summary, String name) throws Exception {
        return Files.readString(BenchReportFiles.plotDir(summary).resolve(name));
    }

    /**
     * Checks the report beside {@code summary}: at least {@code minPlots} SVGs that parse, the HTML titled with
     * {@code figure}, embedding every plot, and showing each of {@code fields} with its number from the JSON.
     */
    static JsonNode assertReport(Path summary, String figure, int minPlots, String... fields) throws Exception {
        JsonNode json = JsonSerde.MAPPER.readTree(summary.toFile());
        Path html = BenchReportFiles.html(summary);
        assertThat(html).exists().hasFileName(BenchReportFiles.baseName(summary) + ".html");
        assertThat(html.getParent()).isEqualTo(summary.toAbsolutePath().getParent());
        List<Path> svgs = new ArrayList<>();
        try (Stream<Path> files = Files.list(BenchReportFiles.plotDir(summary))) {
            files.filter(p -> p.toString().endsWith(".svg")).forEach(svgs::add);
        }
        assertThat(svgs).hasSizeGreaterThanOrEqualTo(minPlots);
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        for (Path svg : svgs) {
            Document doc = f.newDocumentBuilder().parse(svg.toFile());
            assertThat(doc.getDocumentElement().getTagName()).as(svg.toString()).isEqualTo("svg");
            assertThat(doc.getElementsByTagName("text").getLength()).as(svg.toString()).isGreaterThan(3);
            assertThat(doc.getElementsByTagName("polyline").getLength() + doc.getElementsByTagName("rect")
                    .getLength()).as(svg + ": something drawn").isGreaterThan(2);
        }
        String page = Files.readString(html);
        String title = page.substring(page.indexOf("<title>"), page.indexOf("</title>"));
        assertThat(title).contains(figure);
        assertThat(page.substring(page.indexOf("<h1>"), page.indexOf("</h1>"))).contains(figure);
        assertThat(page).contains("crawler bench");
        assertThat(page.split("data:image/svg\\+xml;base64,", -1)).hasSize(svgs.size() + 1);
        for (String field : fields) {
            JsonNode v = json.findValue(field);
            assertThat(v).as(field).isNotNull();
            assertThat(v.isNumber()).as(field + " is a number").isTrue();
            // a table row, or inside compact JSON where the nesting is deeper than the report draws tables
            assertThat(page.contains("<th>" + field + "</th><td class=\"num\">" + v + "</td>")
                    || page.contains("&quot;" + field + "&quot;:" + v)).as(field + " = " + v + " in the report")
                    .isTrue();
        }
        return json;
    }
}
