package io.github.kcrawler.app.soak;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Forces a full collection in the crawl JVM at a fixed interval with the JDK's {@code jcmd <pid> GC.run}, so that
 * the GC log records the live set ({@code Pause Full (Diagnostic Command)}). Runs jcmd without waiting for it, so the
 * sampling keeps its pace; skips a turn while the previous jcmd is still running. A JDK without jcmd, or a jcmd that
 * fails, is logged and counted, and the live set is then judged on the collections that did happen.
 */
final class LiveSetProbe implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LiveSetProbe.class);

    private final long pid;
    private final long intervalNanos;
    private final Path jcmd;
    private long next;
    private Process running;
    private int forced;
    private int failures;

    /** @param intervalSeconds 0 = never force */
    LiveSetProbe(long pid, int intervalSeconds, long startNanos) {
        this.pid = pid;
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

    /** Starts {@code jcmd GC.run} if one is due and the last one has finished. */
    void maybeForce(long now) {
        if (intervalNanos == 0 || now < next) {
            return;
        }
        next += intervalNanos * Math.max(1, (now - next) / intervalNanos + 1);
        if (running != null) {
            if (running.isAlive()) {
                LOG.warn("the last forced GC (jcmd {} GC.run) has not finished; skipping this one", pid);
                return;
            }
            reap();
        }
        if (!Files.isExecutable(jcmd)) {
            failures++;
            return;
        }
        try {
            running = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.run")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            forced++;
        } catch (IOException e) {
            failures++;
            LOG.warn("could not run {} {} GC.run: {}", jcmd, pid, e.toString());
        }
    }

    /** jcmd runs started. */
    int forced() {
        return forced;
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
            LOG.warn("jcmd {} GC.run exited with {}", pid, running.exitValue());
        }
        running = null;
    }
}
