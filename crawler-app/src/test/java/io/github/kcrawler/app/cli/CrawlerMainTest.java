package io.github.kcrawler.app.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** The product's command line (crawler-app): crawl, seed, tail, status; the lab's verbs are LabMainTest's. */
class CrawlerMainTest {
    private static String help(String... command) {
        CommandLine cl = new CommandLine(new CrawlerMain());
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        int code = cl.execute(command);
        assertThat(code).isZero();
        return out.toString();
    }

    @Test
    void everySubcommandHasHelp() {
        assertThat(help("--help")).contains("crawl", "seed", "tail", "status");
        assertThat(new CommandLine(new CrawlerMain()).getSubcommands().keySet())
                .containsExactlyInAnyOrder("crawl", "status", "seed", "tail", "cdx", "help");
        assertThat(help("crawl", "--help")).contains("--seeds", "--bootstrap-servers", "--data-dir");
        assertThat(help("seed", "--help")).contains("--seeds", "--bootstrap-servers", "--topic-prefix", "--hosts-file");
        assertThat(help("tail", "--help")).contains("--from-beginning");
    }

    @Test
    void everyCommandsHelpHasExamplesAndExitCodes() {
        for (String[] command : new String[][] {{"--help"}, {"crawl", "--help"}, {"status", "--help"}}) {
            assertThat(help(command)).as(String.join(" ", command)).contains("Examples:", "Exit codes:", "  0  ",
                    "  2  usage error");
        }
        assertThat(help("crawl", "--help")).contains("--status-port");
        assertThat(help("status", "--help")).contains("--scrape");
    }

    @Test
    void statusCommandRefusesNonHttpEndpoints() {
        CommandLine cl = new CommandLine(new CrawlerMain());
        cl.setErr(new PrintWriter(new StringWriter()));
        assertThat(cl.execute("status", "--scrape", "file:///etc/passwd")).isEqualTo(ExitCodes.USAGE);
        assertThat(cl.execute("crawl", "--status-port", "70000")).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void failureMessageNamesEachCauseOnce() {
        assertThat(CrawlerMain.describe(new IllegalStateException("outer: inner", new RuntimeException("inner"))))
                .isEqualTo("outer: inner");
        assertThat(CrawlerMain.describe(new RuntimeException("a", new java.io.IOException()))).isEqualTo("a: IOException");
    }

    @Test
    void unknownOptionIsAUsageError() {
        CommandLine cl = new CommandLine(new CrawlerMain());
        cl.setErr(new PrintWriter(new StringWriter()));
        assertThat(cl.execute("crawl", "--no-such-flag")).isEqualTo(2);
    }

    @Test
    void readsSeedFilesAndUrls(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = dir.resolve("seeds.txt");
        java.nio.file.Files.writeString(file, "\uFEFFhttp://a.example/\n# comment\n\nhttps://b.example/x\n");
        assertThat(CrawlCommand.readSeeds(java.util.List.of(file.toString(), "http://c.example/")))
                .containsExactly("http://a.example/", "https://b.example/x", "http://c.example/");
    }

    @Test
    void settingFlagsAreDescribedAndDefaultedByTheSettingsDeclarations() {
        String crawl = help("crawl", "--help").replaceAll("\\s+", " ");
        String politeness = io.github.kcrawler.common.config.CommonSettings.POLITENESS_MS.description();
        assertThat(crawl).contains(politeness.substring(1, 40), "(default 1000)", "(default 4)", "(default 20)");
        assertThat(crawl).contains(io.github.kcrawler.common.scope.CrawlScope.MAX_DEPTH.description().substring(1));
        assertThat(new CrawlCommand().politenessMs)
                .isEqualTo(io.github.kcrawler.common.config.CommonSettings.POLITENESS_MS.defaultValue());
        assertThat(help("seed", "--help").replaceAll("\\s+", " "))
                .contains(io.github.kcrawler.fetcher.FetcherConfig.Dns.HOSTS_FILE.description().substring(1));
    }
}
