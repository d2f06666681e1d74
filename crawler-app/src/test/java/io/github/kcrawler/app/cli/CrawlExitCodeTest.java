package io.github.kcrawler.app.cli;

import io.github.kcrawler.app.runtime.CrawlOutcome;
import io.github.kcrawler.app.runtime.DeadLetterSummary;
import io.github.kcrawler.common.service.DeadLetters;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 20: a crawl that lost work never exits 0, and says why. */
class CrawlExitCodeTest {
    private static final DeadLetterSummary ONE = new DeadLetterSummary(1, List.of(new DeadLetters.Letter("scheduler",
            "crawl.fetch.results", 0, 5, "java.lang.IllegalArgumentException", "record must be <= 4066 bytes")));

    @Test
    void codesAreDistinct() {
        assertThat(List.of(ExitCodes.OK, ExitCodes.FAILED, ExitCodes.USAGE, ExitCodes.CHECK_FAILED,
                ExitCodes.DEAD_LETTERS)).doesNotHaveDuplicates();
    }

    @Test
    void cleanCrawlExitsZero() {
        assertThat(ExitCodes.forCrawl(false, false, 0)).isEqualTo(ExitCodes.OK);
    }

    @Test
    void deadLettersExitFour() {
        assertThat(ExitCodes.forCrawl(false, false, 3)).isEqualTo(ExitCodes.DEAD_LETTERS);
    }

    @Test
    void theWorstThingDecides() {
        assertThat(ExitCodes.forCrawl(true, true, 3)).isEqualTo(ExitCodes.FAILED);
        assertThat(ExitCodes.forCrawl(true, false, 0)).isEqualTo(ExitCodes.FAILED);
        assertThat(ExitCodes.forCrawl(false, true, 3)).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThatThrownBy(() -> ExitCodes.forCrawl(false, false, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void crawlSaysWhyItExitsNonZero() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CrawlOutcome died = new CrawlOutcome(CrawlOutcome.Ending.SERVICE_FAILED,
                List.of("scheduler gave up: its stream threads kept failing (IllegalArgumentException: x); see the log"),
                ONE);
        int code = CrawlCommand.exitCode(died, "crawl.deadletter", new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(ExitCodes.FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("service failed: scheduler gave up",
                "1 record(s) could not be processed and were dead-lettered to crawl.deadletter", "exit code 1");
    }

    @Test
    void crawlWithDeadLettersSaysSo() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = CrawlCommand.exitCode(new CrawlOutcome(CrawlOutcome.Ending.IDLE, List.of(), ONE), "p.crawl.deadletter",
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(ExitCodes.DEAD_LETTERS);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("dead-lettered to p.crawl.deadletter", "exit code 4");
        assertThat(ONE.describe("p.crawl.deadletter")).contains(
                "scheduler crawl.fetch.results-0@5 java.lang.IllegalArgumentException: record must be <= 4066 bytes");
    }

    @Test
    void cleanCrawlSaysNothing() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = CrawlCommand.exitCode(new CrawlOutcome(CrawlOutcome.Ending.IDLE, List.of(), DeadLetterSummary.NONE),
                "crawl.deadletter", new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isZero();
        assertThat(err.size()).isZero();
    }
}
