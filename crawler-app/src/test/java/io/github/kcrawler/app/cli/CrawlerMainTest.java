package io.github.kcrawler.app.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

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
        assertThat(help("--help")).contains("demo", "crawl", "seed", "websim", "bench");
        assertThat(help("demo", "--help")).contains("--max-pages", "--politeness-ms", "--summary", "--graph");
        assertThat(help("crawl", "--help")).contains("--seeds", "--bootstrap-servers", "--data-dir");
        assertThat(help("seed", "--help")).contains("--seeds", "--bootstrap-servers", "--topic-prefix", "--hosts-file");
        assertThat(help("websim", "--help")).contains("--graph");
        assertThat(help("bench", "e2e", "--help")).contains("--summary");
    }

    @Test
    void unknownOptionIsAUsageError() {
        CommandLine cl = new CommandLine(new CrawlerMain());
        cl.setErr(new PrintWriter(new StringWriter()));
        assertThat(cl.execute("demo", "--no-such-flag")).isEqualTo(2);
    }

    @Test
    void readsSeedFilesAndUrls(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = dir.resolve("seeds.txt");
        java.nio.file.Files.writeString(file, "\uFEFFhttp://a.example/\n# comment\n\nhttps://b.example/x\n");
        assertThat(CrawlCommand.readSeeds(java.util.List.of(file.toString(), "http://c.example/")))
                .containsExactly("http://a.example/", "https://b.example/x", "http://c.example/");
    }
}
