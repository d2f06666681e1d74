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

    /** Footer lines listing the exit codes, for every command's help. */
    public static final String FOOTER_HEADING = "%nExit codes:%n";
    public static final String CODES_OK = "  0  success";
    public static final String CODES_FAILED = "  1  failure (a service failed, a file or port could not be opened; see the log)";
    public static final String CODES_USAGE = "  2  usage error (unknown option or bad value)";
    public static final String CODES_CHECK = "  3  the demo crawl ran but websim counted politeness violations or missing pages";

    private ExitCodes() {
    }
}
