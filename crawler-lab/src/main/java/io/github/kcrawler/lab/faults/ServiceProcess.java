package io.github.kcrawler.lab.faults;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One crawler service (or the broker) as a child JVM that the fault scenario can start, SIGKILL, SIGSTOP / SIGCONT
 * and start again with the same command line, so it comes back on the same data and state directories. Its output
 * is appended to {@code logs/<name>.log} across restarts. Health is the service's own {@code /health} endpoint on
 * its fixed loopback metrics port (the broker, which has none, is healthy once it printed its ready line).
 */
final class ServiceProcess implements AutoCloseable {
    private final String name;
    private final List<String> command;
    private final Path log;
    private final int metricsPort;
    private Process process;
    private int starts;

    /** @param metricsPort the service's {@code /health} port, or -1 for the broker (ready line instead) */
    ServiceProcess(String name, List<String> command, Path logDir, int metricsPort) {
        this.name = name;
        this.command = List.copyOf(command);
        this.log = logDir.resolve(name + ".log");
        this.metricsPort = metricsPort;
    }

    String name() {
        return name;
    }

    Path log() {
        return log;
    }

    synchronized long pid() {
        return process == null ? -1 : process.pid();
    }

    synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Starts the JVM (again); its output goes to the end of the log. */
    synchronized void start() throws IOException {
        if (isAlive()) {
            throw new IllegalStateException(name + " is already running (pid " + process.pid() + ")");
        }
        Files.createDirectories(log.getParent());
        starts++;
        Files.writeString(log, String.format("%n===== start %d of %s =====%n", starts, name), StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    /** SIGKILL: no shutdown hook, no commit, no flush. Returns once the process is gone. */
    synchronized void kill() throws InterruptedException {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + " (pid " + process.pid() + ") survived SIGKILL for 30 s");
        }
    }

    /** Sends a signal by name ({@code STOP}, {@code CONT}) with the system's {@code kill} command. */
    synchronized void signal(String signal) throws IOException, InterruptedException {
        if (!isAlive()) {
            throw new IllegalStateException(name + " is not running");
        }
        Process p = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed: " + out);
        }
    }

    /** True when the service answers 200 on {@code /health} (the broker: when its log has the ready line). */
    boolean healthy() {
        if (!isAlive()) {
            return false;
        }
        if (metricsPort < 0) {
            return brokerReady();
        }
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + metricsPort + "/health").toURL()
                    .openConnection();
            c.setConnectTimeout(1000);
            c.setReadTimeout(2000);
            try {
                return c.getResponseCode() == 200;
            } finally {
                c.disconnect();
            }
        } catch (IOException e) {
            return false;
        }
    }

    private boolean brokerReady() {
        return currentLog().contains("\n" + io.github.kcrawler.kafka.embedded.EmbeddedKafkaMain.READY + " ");
    }

    /** What the process wrote since its latest start ("" if nothing, or the log cannot be read). */
    private String currentLog() {
        String marker = "===== start " + starts + " of " + name + " =====";
        try {
            String text = Files.readString(log, StandardCharsets.UTF_8);
            int from = text.lastIndexOf(marker);
            return from < 0 ? "" : text.substring(from);
        } catch (IOException | java.io.UncheckedIOException e) {
            return "";
        }
    }

    /**
     * For a report of why the crawl stalled: the process's WARN and ERROR lines since its latest start (an ERROR
     * with the line after it, usually the exception) and its last lines, the last {@code maxLines} of each.
     */
    String diagnosis(int maxLines) {
        String[] lines = currentLog().split("\n");
        List<String> errors = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains(" WARN ")) {
                errors.add(clip(lines[i]));
            } else if (lines[i].contains(" ERROR ")) {
                errors.add(clip(lines[i]));
                if (i + 1 < lines.length && !lines[i + 1].contains(" ERROR ") && !lines[i + 1].contains(" WARN ")) {
                    errors.add(clip(lines[i + 1]));
                }
            }
        }
        StringBuilder b = new StringBuilder();
        b.append("---- ").append(this).append(", healthy ").append(healthy()).append(", log ").append(log)
                .append('\n');
        List<String> lastErrors = errors.subList(Math.max(0, errors.size() - maxLines), errors.size());
        if (!lastErrors.isEmpty()) {
            b.append("  ").append(errors.size()).append(" warning and error lines since its latest start, the last ")
                    .append(lastErrors.size()).append(":\n");
            lastErrors.forEach(l -> b.append("    ").append(l).append('\n'));
        }
        b.append("  last lines:\n");
        for (int i = Math.max(0, lines.length - maxLines); i < lines.length; i++) {
            b.append("    ").append(clip(lines[i])).append('\n');
        }
        return b.toString();
    }

    private static String clip(String line) {
        return line.length() <= 400 ? line : line.substring(0, 400) + " …";
    }

    /** SIGTERM, then SIGKILL after {@code graceSeconds}; a stopped (SIGSTOP) process is continued first. */
    synchronized void stop(long graceSeconds) throws InterruptedException {
        if (process == null || !process.isAlive()) {
            return;
        }
        try {
            signal("CONT");
        } catch (IOException | RuntimeException e) {
            // already running or gone: SIGTERM below decides
        }
        process.destroy();
        if (!process.waitFor(graceSeconds, TimeUnit.SECONDS)) {
            kill();
        }
    }

    @Override
    public void close() {
        try {
            stop(30);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Process p = process;
            if (p != null) {
                p.destroyForcibly();
            }
        }
    }

    /** The command line of a class from {@code jar} in a new JVM with {@code heap}. */
    static List<String> javaCommand(Path jar, String heap, String mainClass, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + heap);
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:+ExitOnOutOfMemoryError");
        cmd.add("-cp");
        cmd.add(jar.toAbsolutePath().toString());
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }

    @Override
    public String toString() {
        return name + (isAlive() ? " (pid " + pid() + ")" : " (not running)");
    }
}
