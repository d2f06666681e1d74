package io.github.kcrawler.app.runtime;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * The live progress line. On a terminal it rewrites one line in place ({@code \r}, then erase to the end of the
 * line), cut to the terminal's width by dropping its last {@code " | "} fields first; when the output is not a
 * terminal (redirected to a file, a pipe, a CI log) it prints a plain line every {@code plainEvery} updates instead,
 * so logs get a readable history and no carriage returns.
 */
public final class ProgressPrinter {
    /** Used when the width cannot be found out. */
    static final int DEFAULT_WIDTH = 100;
    private static final String SEPARATOR = " | ";

    private final PrintStream out;
    private final boolean terminal;
    private final int plainEvery;
    private final IntSupplier width;
    private int updates;
    private boolean pending;

    ProgressPrinter(PrintStream out, boolean terminal, int plainEvery, IntSupplier width) {
        if (plainEvery < 1) {
            throw new IllegalArgumentException("plain line interval must be >= 1, was " + plainEvery);
        }
        this.out = Objects.requireNonNull(out, "out");
        this.terminal = terminal;
        this.plainEvery = plainEvery;
        this.width = width;
    }

    /**
     * For {@code out}: a rewritten line when it is this process' standard output and that is a terminal
     * ({@link System#console()} is not null), else a plain line every ten updates.
     */
    public static ProgressPrinter of(PrintStream out) {
        boolean terminal = out == System.out && System.console() != null;
        return new ProgressPrinter(out, terminal, 10, terminal ? cachedTerminalWidth() : () -> Integer.MAX_VALUE);
    }

    public boolean terminal() {
        return terminal;
    }

    public void update(String line) {
        if (terminal) {
            out.print("\r" + fit(line, width.getAsInt() - 1) + "\u001b[K");
            pending = true;
        } else if (updates % plainEvery == 0) {
            out.println(line);
        }
        updates++;
        out.flush();
    }

    /** Ends the rewritten line so that what follows starts on a fresh one. */
    public void finish() {
        if (pending) {
            out.println();
            pending = false;
        }
        out.flush();
    }

    /** {@code line} in at most {@code width} characters: whole trailing fields dropped first, then cut. */
    static String fit(String line, int width) {
        if (width < 1) {
            return "";
        }
        String s = line;
        while (s.length() > width) {
            int cut = s.lastIndexOf(SEPARATOR);
            if (cut <= 0) {
                return s.substring(0, width);
            }
            s = s.substring(0, cut);
        }
        return s;
    }

    /** The terminal's width, asked again at most every ten seconds (the window may be resized). */
    private static IntSupplier cachedTerminalWidth() {
        return new IntSupplier() {
            private int cached = -1;
            private long askedAt;

            @Override
            public int getAsInt() {
                long now = System.nanoTime();
                if (cached < 0 || now - askedAt > TimeUnit.SECONDS.toNanos(10)) {
                    cached = terminalWidth();
                    askedAt = now;
                }
                return cached;
            }
        };
    }

    /** {@code COLUMNS} if exported, else {@code stty size} on the controlling terminal, else {@link #DEFAULT_WIDTH}. */
    static int terminalWidth() {
        Integer columns = parseWidth(System.getenv("COLUMNS"));
        if (columns != null) {
            return columns;
        }
        try {
            Process p = new ProcessBuilder("stty", "size").redirectInput(new java.io.File("/dev/tty"))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (p.waitFor(1, TimeUnit.SECONDS) && p.exitValue() == 0) {
                String[] parts = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim()
                        .split("\\s+");
                Integer w = parts.length == 2 ? parseWidth(parts[1]) : null;
                if (w != null) {
                    return w;
                }
            } else {
                p.destroy();
            }
        } catch (IOException e) {
            // no stty or no /dev/tty: use the default
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return DEFAULT_WIDTH;
    }

    static Integer parseWidth(String s) {
        if (s == null || !s.strip().matches("\\d{1,4}")) {
            return null;
        }
        int w = Integer.parseInt(s.strip());
        return w >= 20 ? w : null;
    }
}
