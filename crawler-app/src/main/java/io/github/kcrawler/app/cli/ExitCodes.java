package io.github.kcrawler.app.cli;

/**
 * Exit codes of every {@code crawler} command, and the {@code --help} footer that documents them.
 */
public final class ExitCodes {
    /** The command did what it was asked. */
    public static final int OK = 0;
    /** It failed: a service stopped with an error, a file or port could not be opened, the broker did not start. */
    public static final int FAILED = 1;
    /** The command line was wrong (unknown option, bad value); picocli prints the usage. */
    public static final int USAGE = 2;
    /** {@code demo} only: the crawl ran, but websim counted a politeness violation or pages were left unfetched. */
    public static final int CHECK_FAILED = 3;
    /**
     * {@code crawl} and {@code demo}: the crawl ran to its end, but records failed processing and were sent to
     * {@code crawl.deadletter} (the summary names them): work was skipped, not retried.
     */
    public static final int DEAD_LETTERS = 4;

    /** Footer lines listing the exit codes, for every command's help. */
    public static final String FOOTER_HEADING = "%nExit codes:%n";
    public static final String CODES_OK = "  0  success";
    public static final String CODES_FAILED = "  1  failure (a service failed, a file or port could not be opened; see the log)";
    public static final String CODES_USAGE = "  2  usage error (unknown option or bad value)";
    public static final String CODES_CHECK = "  3  the demo crawl ran but websim counted politeness violations or missing pages";
    public static final String CODES_DEAD_LETTERS = "  4  the crawl ran but records were dead-lettered (crawl.deadletter; see the summary)";

    private ExitCodes() {
    }

    /**
     * The exit code of a crawl ({@code crawl}, {@code demo}), the worst that happened first: a service that died or
     * gave up ({@link #FAILED}) hides nothing that follows; a failed demo check ({@link #CHECK_FAILED}: pages missing
     * or a politeness violation, which dead letters may explain); records dead-lettered ({@link #DEAD_LETTERS});
     * else {@link #OK}.
     */
    public static int forCrawl(boolean serviceFailed, boolean checkFailed, long deadLetters) {
        if (deadLetters < 0) {
            throw new IllegalArgumentException("deadLetters must be >= 0, was " + deadLetters);
        }
        if (serviceFailed) {
            return FAILED;
        }
        if (checkFailed) {
            return CHECK_FAILED;
        }
        return deadLetters > 0 ? DEAD_LETTERS : OK;
    }
}
