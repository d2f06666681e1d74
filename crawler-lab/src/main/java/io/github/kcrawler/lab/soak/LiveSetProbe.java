package io.github.kcrawler.lab.soak;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Takes a class histogram of the crawl JVM's live heap at a fixed interval with the JDK's
 * {@code jcmd <pid> GC.class_histogram}: a full collection first (the GC log records it as
 * {@code Pause Full (Heap Inspection Initiated GC)}, whose heap after GC is the live set), then instances and bytes
 * per class, written to {@code histo-<seconds>.txt} so that a growing live set can be traced to its classes
 * ({@link ClassHistogram}). Runs jcmd without waiting for it, so the sampling keeps its pace; skips a turn while the
 * previous jcmd is still running. A JDK without jcmd, or a jcmd that fails, is logged and counted, and the live set
 * is then judged on the collections that did happen.
 */
final class LiveSetProbe implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LiveSetProbe.class);

    private final long pid;
    private final long intervalNanos;
    private final Path jcmd;
    private final Path dir;
    private final long startNanos;
    private final List<Histogram> histograms = new ArrayList<>();
    private long next;
    private Process running;
    private int forced;
    private int failures;

    /** A histogram file and when it was asked for (seconds since the crawl started). */
    record Histogram(double seconds, Path file) {
    }

    /**
     * @param intervalSeconds 0 = never force
     * @param dir             where the histograms go
     */
    LiveSetProbe(long pid, int intervalSeconds, long startNanos, Path dir) {
        this.pid = pid;
        this.dir = dir;
        this.startNanos = startNanos;
        this.intervalNanos = TimeUnit.SECONDS.toNanos(intervalSeconds);
        this.next = startNanos + intervalNanos;
        this.jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (intervalSeconds > 0 && !Files.isExecutable(jcmd)) {
            LOG.warn("no {} in this JDK: the soak cannot force full GCs, so the live set will not be measured", jcmd);
        }
    }

    /** Nanoseconds from {@code now} until the next forced collection is due (Long.MAX_VALUE when never). */
    long nanosUntilNext(long now) {
        return intervalNanos == 0 ? Long.MAX_VALUE : Math.max(0, next - now);
    }

    /** Starts {@code jcmd GC.class_histogram} if one is due and the last one has finished. */
    void maybeForce(long now) {
        if (intervalNanos == 0 || now < next) {
            return;
        }
        next += intervalNanos * Math.max(1, (now - next) / intervalNanos + 1);
        if (running != null) {
            if (running.isAlive()) {
                LOG.warn("the last class histogram (jcmd {} GC.class_histogram) has not finished; skipping this one",
                        pid);
                return;
            }
            reap();
        }
        if (!Files.isExecutable(jcmd)) {
            failures++;
            return;
        }
        double seconds = (now - startNanos) / 1e9;
        Path file = dir.resolve(String.format(Locale.ROOT, "histo-%04.0f.txt", seconds));
        try {
            Files.createDirectories(dir);
            running = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.class_histogram")
                    .redirectErrorStream(true).redirectOutput(file.toFile()).start();
            histograms.add(new Histogram(seconds, file));
            forced++;
        } catch (IOException e) {
            failures++;
            LOG.warn("could not run {} {} GC.class_histogram: {}", jcmd, pid, e.toString());
        }
    }

    /** jcmd runs started. */
    int forced() {
        return forced;
    }

    /** The histograms asked for, in time order (a failed jcmd leaves its file without rows). */
    List<Histogram> histograms() {
        return List.copyOf(histograms);
    }

    /** jcmd runs that could not start or exited non-zero. */
    int failures() {
        return failures;
    }

    /** Waits (briefly) for the last jcmd. */
    @Override
    public void close() {
        if (running == null) {
            return;
        }
        try {
            if (!running.waitFor(30, TimeUnit.SECONDS)) {
                running.destroyForcibly();
            }
        } catch (InterruptedException e) {
            running.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        reap();
    }

    private void reap() {
        if (!running.isAlive() && running.exitValue() != 0) {
            failures++;
            LOG.warn("jcmd {} GC.class_histogram exited with {}", pid, running.exitValue());
        }
        running = null;
    }
}
