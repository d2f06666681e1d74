package io.github.kcrawler.app.runtime;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressPrinterTest {
    private static final String LINE = "     120 pages/s | fetched 1,234 | frontier 5,678 | in flight 3 | errors 2";

    @Test
    void fitDropsWholeTrailingFieldsBeforeCutting() {
        assertThat(ProgressPrinter.fit(LINE, 200)).isEqualTo(LINE);
        assertThat(ProgressPrinter.fit(LINE, 50)).isEqualTo("     120 pages/s | fetched 1,234 | frontier 5,678");
        assertThat(ProgressPrinter.fit(LINE, 10)).isEqualTo("     120 p");
        assertThat(ProgressPrinter.fit(LINE, 0)).isEmpty();
    }

    @Test
    void terminalRewritesOneLineWithinTheWidth() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressPrinter p = new ProgressPrinter(new PrintStream(bytes, true, StandardCharsets.UTF_8), true, 10,
                () -> 40);
        p.update(LINE);
        p.update(LINE);
        p.finish();
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).doesNotContain("\n" + "\r").endsWith("\n");
        for (String frame : out.split("\r")) {
            if (!frame.isEmpty()) {
                assertThat(frame.replace("\u001b[K", "").strip().length()).isLessThanOrEqualTo(39);
            }
        }
        assertThat(out.chars().filter(c -> c == '\n').count()).isEqualTo(1);
    }

    @Test
    void notATerminalPrintsPlainPeriodicLinesWithoutCarriageReturns() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressPrinter p = new ProgressPrinter(new PrintStream(bytes, true, StandardCharsets.UTF_8), false, 10,
                () -> Integer.MAX_VALUE);
        for (int i = 0; i < 25; i++) {
            p.update(LINE + " #" + i);
        }
        p.finish();
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).doesNotContain("\r", "\u001b");
        assertThat(out.lines()).containsExactly(LINE + " #0", LINE + " #10", LINE + " #20");
    }

    @Test
    void widthFromEnvironmentIsValidated() {
        assertThat(ProgressPrinter.parseWidth("132")).isEqualTo(132);
        assertThat(ProgressPrinter.parseWidth(" 80 ")).isEqualTo(80);
        assertThat(ProgressPrinter.parseWidth("5")).isNull();
        assertThat(ProgressPrinter.parseWidth("wide")).isNull();
        assertThat(ProgressPrinter.parseWidth(null)).isNull();
    }
}
