package io.github.kcrawler.lab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ImpCbfBenchCommandTest {
    @TempDir
    Path dir;

    @Test
    void tinyRun_writesTheSummary() throws Exception {
        Path summary = dir.resolve("summary.json");
        int code = new CommandLine(new ImpCbfBenchCommand()).execute("--max-items", "3000", "--ratios", "0.1,0.3",
                "--repeats", "1", "--work-dir", dir.resolve("work").toString(), "--summary", summary.toString());
        assertThat(code).isZero();
        String json = Files.readString(summary);
        assertThat(json).contains("\"speedup\"").contains("\"answersAgree\" : true").contains("\"complete\" : true");
    }

    @Test
    void badRatio_isAUsageError() {
        java.io.StringWriter err = new java.io.StringWriter();
        CommandLine cl = new CommandLine(new ImpCbfBenchCommand());
        cl.setErr(new java.io.PrintWriter(err));
        int code = cl.execute("--ratios", "1.5", "--max-items", "10", "--work-dir", dir.toString());
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("duplicate ratio must be in [0, 1), was 1.5");
    }
}
