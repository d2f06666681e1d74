package io.github.kcrawler.lab.cli;

import io.github.kcrawler.app.cli.ExitCodes;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** The whole command line as {@code ./crawler} shows it (LabMain): every verb, product and lab, with its help. */
class LabMainTest {
    private static String help(String... command) {
        CommandLine cl = LabMain.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        int code = cl.execute(command);
        assertThat(code).isZero();
        return out.toString();
    }

    @Test
    void everySubcommandHasHelp() {
        assertThat(help("--help")).contains("demo", "crawl", "seed", "websim", "bench");
        assertThat(help("demo", "--help")).contains("--max-pages", "--politeness-ms", "--summary", "--graph");
        assertThat(help("crawl", "--help")).contains("--seeds", "--bootstrap-servers", "--data-dir");
        assertThat(help("seed", "--help")).contains("--seeds", "--bootstrap-servers", "--topic-prefix", "--hosts-file");
        assertThat(help("websim", "--help")).contains("--graph");
        assertThat(help("bench", "e2e", "--help")).contains("--summary");
    }

    @Test
    void everyCommandsHelpHasExamplesAndExitCodes() {
        for (String[] command : new String[][] {{"--help"}, {"demo", "--help"}, {"crawl", "--help"},
                {"status", "--help"}, {"websim", "--help"}, {"bench", "--help"}, {"bench", "e2e", "--help"},
                {"bench", "sbfl-decrement", "--help"}, {"bench", "url-seen", "--help"},
                {"bench", "url-seen-memory", "--help"}, {"report", "--help"}}) {
            assertThat(help(command)).as(String.join(" ", command)).contains("Examples:", "Exit codes:", "  0  ",
                    "  2  usage error");
        }
        assertThat(help("demo", "--help")).contains("--status-port", "  3  ");
        assertThat(help("crawl", "--help")).contains("--status-port");
        assertThat(help("status", "--help")).contains("--scrape");
    }

    @Test
    void statusCommandRefusesNonHttpEndpoints() {
        CommandLine cl = LabMain.commandLine();
        cl.setErr(new PrintWriter(new StringWriter()));
        assertThat(cl.execute("status", "--scrape", "file:///etc/passwd")).isEqualTo(ExitCodes.USAGE);
        assertThat(cl.execute("demo", "--status-port", "70000")).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void failureIsOneLineWithItsCausesAndExitCodeOne(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        CommandLine cl = LabMain.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        java.nio.file.Path missing = dir.resolve("no-such-summary.json");
        assertThat(cl.execute("report", "--summary", missing.toString(), "--out", dir.resolve("r.html").toString()))
                .isEqualTo(ExitCodes.FAILED);
        assertThat(err.toString()).startsWith("crawler report: ").contains("no-such-summary.json")
                .doesNotContain("\tat ");
    }

    @Test
    void unknownOptionIsAUsageError() {
        CommandLine cl = LabMain.commandLine();
        cl.setErr(new PrintWriter(new StringWriter()));
        assertThat(cl.execute("demo", "--no-such-flag")).isEqualTo(2);
    }
}
