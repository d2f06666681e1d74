package io.github.kcrawler.lab.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExperimentReportTest {
    private static final String SVG = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">"
            + "<rect width=\"10\" height=\"10\" fill=\"red\"/></svg>";

    @Test
    void embedsEveryPlotOfADirectoryAndTheSummaryInOneFile(@TempDir Path dir) throws Exception {
        Path plots = Files.createDirectories(dir.resolve("plots"));
        Files.writeString(plots.resolve("fig2.svg"), SVG);
        Files.writeString(plots.resolve("fig1.svg"), SVG.replace("red", "blue"));
        Files.writeString(plots.resolve("notes.txt"), "ignored");
        Path summary = dir.resolve("summary.json");
        Files.writeString(summary, """
                {"graph": "cnr-2000", "pages": 325557, "curve": [1, 2, 3],
                 "nested": {"b": 64, "rows": [{"x": 1}, {"x": 2}]}}""");
        Path out = dir.resolve("out/report.html");
        ExperimentReport.write(out, "Scheduler <B, H>", List.of(plots), List.of(summary), "crawler simulate ...");
        String html = Files.readString(out);
        Matcher images = Pattern.compile("src=\"data:image/svg\\+xml;base64,([A-Za-z0-9+/=]+)\"").matcher(html);
        assertThat(images.find()).isTrue();
        assertThat(new String(Base64.getDecoder().decode(images.group(1)), StandardCharsets.UTF_8)).contains("blue");
        assertThat(images.find()).isTrue();
        assertThat(new String(Base64.getDecoder().decode(images.group(1)), StandardCharsets.UTF_8)).contains("red");
        assertThat(images.find()).as("only the two plots").isFalse();
        assertThat(html).contains("<title>Scheduler &lt;B, H&gt;</title>", "fig1.svg", "fig2.svg", "cnr-2000",
                "325557", "1, 2, 3", "<th>rows</th>", "crawler simulate ...").doesNotContain("notes.txt", "<script");
        assertThat(html.replaceAll("data:[^\"]+", "")).doesNotContain("http://", "https://");
    }

    @Test
    void textFromTheInputsIsEscaped(@TempDir Path dir) throws Exception {
        Path summary = dir.resolve("s.json");
        Files.writeString(summary, "{\"<script>alert(1)</script>\": \"<img src=x onerror=alert(1)>\"}");
        Path out = dir.resolve("r.html");
        ExperimentReport.write(out, "t", List.of(), List.of(summary), null);
        String html = Files.readString(out);
        assertThat(html).doesNotContain("<script>", "<img src=x").contains("&lt;script&gt;", "&lt;img src=x");
    }

    @Test
    void refusesWhatItCannotEmbed(@TempDir Path dir) throws Exception {
        Path txt = Files.writeString(dir.resolve("a.txt"), "x");
        assertThatThrownBy(() -> ExperimentReport.write(dir.resolve("r.html"), "t", List.of(txt), List.of(), null))
                .isInstanceOf(IllegalArgumentException.class);
        Path bad = Files.writeString(dir.resolve("bad.json"), "{not json");
        assertThatThrownBy(() -> ExperimentReport.write(dir.resolve("r.html"), "t", List.of(), List.of(bad), null))
                .hasMessageContaining("bad.json");
    }
}
