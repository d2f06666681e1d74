package io.github.kcrawler.lab.soak;

import io.github.kcrawler.lab.demo.DemoRunner;
import io.github.kcrawler.lab.report.ExperimentReport;
import io.github.kcrawler.app.status.MetricsSnapshot;
import io.github.kcrawler.app.status.PrometheusNames;
import io.github.kcrawler.app.status.PrometheusScrapeSource;
import io.github.kcrawler.websim.WebSim;
import io.github.kcrawler.websim.WebSimConfig;
import io.github.kcrawler.websim.WebSimStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a soak: websim serves a generated web in this JVM; the crawl runs in a child JVM ({@code crawler crawl},
 * embedded broker and all four services) with a bounded heap and a unified GC log, for a fixed time, then gets
 * SIGTERM and is waited for. Meanwhile websim's own page count, the child's RSS and a few of its metrics are sampled
 * at a fixed interval, and at another a class histogram of the child's live heap is taken
 * ({@code jcmd <pid> GC.class_histogram}, the JDK's own tool, run beside the sampling; {@link LiveSetProbe}): the
 * full collection it starts with gives the live set, the histograms name the classes it grew by. Afterwards the GC
 * log gives the heap after each collection and after each forced one, {@link Flatness} judges the rate and both heap
 * series after the warm-up, and the run is written as JSON, SVG plots and one HTML report.
 */
public final class SoakRunner {
    private static final Logger LOG = LoggerFactory.getLogger(SoakRunner.class);
    private static final Pattern METRICS_AT = Pattern.compile("metrics at http://127\\.0\\.0\\.1:(\\d+)/metrics");
    /** The kind the GC log gives the full collection of {@code jcmd GC.class_histogram}. */
    static final String FORCED_KIND = "Heap Inspection Initiated GC";
    /** Classes listed in the summary's live-set growth. */
    static final int GROWTH_CLASSES = 25;
    /** Extra time the child may run past the soak before its own --max-seconds stops it (if this JVM died). */
    private static final long CHILD_GRACE_SECONDS = 300;

    /** Where the outputs go. */
    public record Outputs(Path summary, Path plotDir, Path report) {
    }

    private SoakRunner() {
    }

    public static SoakSummary run(SoakConfig c, Outputs outputs, String commandLine, PrintStream out)
            throws IOException, InterruptedException {
        if (!Files.isRegularFile(c.jar())) {
            throw new IllegalArgumentException("the crawler jar the child runs does not exist: " + c.jar()
                    + " (build it with mvn -pl crawler-lab -am package -DskipTests, or give --jar)");
        }
        Path dir = c.dataDir().toAbsolutePath();
        DemoRunner.deleteRecursively(dir);
        Files.createDirectories(dir);
        WebSimConfig web = WebSimConfig.builder().generate(c.pages()).ips(c.ips()).latencyMs(0)
                .politenessMs(c.politenessMs()).meanPagesPerHost(c.pagesPerHost()).seedPages(c.seedPages())
                .hostsFile(dir.resolve("hosts")).build();
        try (WebSim websim = WebSim.start(web)) {
            long reachable = websim.reachablePages(c.maxDepth()).cardinality();
            Path seeds = dir.resolve("seeds.txt");
            Files.write(seeds, websim.seedUrls(), StandardCharsets.UTF_8);
            Path gcLog = dir.resolve("gc.log");
            Path childLog = dir.resolve("crawl.log");
            List<String> cmd = childCommand(c, websim, seeds, gcLog, dir.resolve("crawl"));
            out.printf(Locale.ROOT, "Simulated web: %,d pages (%,d reachable from %d seed(s)) on %d IPs, port %d.%n"
                    + "Crawl in a child JVM with -Xmx%s for %.1f min; log %s, GC log %s%n", c.pages(), reachable,
                    websim.seedUrls().size(), c.ips(), websim.port(), c.heap(), c.minutes(), childLog, gcLog);
            LOG.info("soak child: {}", String.join(" ", cmd));

            long t0 = System.nanoTime();
            Process child = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(childLog.toFile())
                    .start();
            Thread reaper = new Thread(() -> stop(child, 30), "soak-child-reaper");
            Runtime.getRuntime().addShutdownHook(reaper);
            List<SoakSummary.Sample> samples = new ArrayList<>();
            PrometheusScrapeSource metrics = null;
            long rssMax = -1;
            long intervalNanos = TimeUnit.SECONDS.toNanos(c.intervalSeconds());
            long endNanos = t0 + (long) (c.seconds() * 1e9);
            long next = t0;
            LiveSetProbe liveSet = new LiveSetProbe(child.pid(), c.liveSetSeconds(), t0, dir.resolve("live-set"));
            while (true) {
                long now = System.nanoTime();
                liveSet.maybeForce(now);
                if (now < next) {
                    Thread.sleep(Math.max(1, Math.min(next - now, liveSet.nanosUntilNext(now)) / 1_000_000));
                    continue;
                }
                if (metrics == null) {
                    metrics = metricsOf(childLog);
                }
                SoakSummary.Sample s = sample(t0, websim.stats(), child.pid(), metrics);
                samples.add(s);
                rssMax = Math.max(rssMax, s.rssBytes());
                progress(out, samples, c.intervalSeconds());
                if (!child.isAlive()) {
                    out.printf("The crawl stopped by itself after %.0f s (exit %d); see %s%n", s.seconds(),
                            child.exitValue(), childLog);
                    break;
                }
                if (now >= endNanos) {
                    break;
                }
                next = Math.min(next + intervalNanos, endNanos);
            }
            double endSeconds = samples.get(samples.size() - 1).seconds();
            liveSet.close();
            long sigterm = System.nanoTime();
            int exit = stop(child, c.stopSeconds());
            double stopSeconds = (System.nanoTime() - sigterm) / 1e9;
            try {
                Runtime.getRuntime().removeShutdownHook(reaper);
            } catch (IllegalStateException e) {
                // already shutting down
            }
            WebSimStats total = websim.stats();

            List<GcLog.Pause> pauses = GcLog.read(gcLog);
            List<SoakSummary.Gc> gcs = pauses.stream().map(p -> new SoakSummary.Gc(p.uptimeSeconds(), p.kind(),
                    p.afterBytes(), p.capacityBytes(), p.pauseMs())).toList();
            Flatness.Verdict verdict = Flatness.judge(
                    samples.stream().map(s -> new Flatness.Sample(s.seconds(), s.pagesFetched())).toList(),
                    gcs.stream().map(g -> new Flatness.HeapPoint(g.seconds(), g.afterBytes())).toList(),
                    c.liveSetSeconds() == 0 ? null : liveSetPoints(gcs),
                    c.warmupFraction() * endSeconds, endSeconds, c.windowSeconds(), c.tolerance());
            LiveSetGrowth growth = liveSetGrowth(liveSet.histograms(), c.warmupFraction() * endSeconds);
            String machine = String.format(Locale.ROOT, "%d cores, %s %s, Java %s",
                    Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"),
                    System.getProperty("os.arch"), System.getProperty("java.version"));
            SoakSummary summary = new SoakSummary(SoakSummary.VERSION, commandLine, machine, c.pages(), c.ips(),
                    c.politenessMs(), c.partitions(), c.heap(), c.heapBytes(), c.minutes(), c.intervalSeconds(),
                    c.liveSetSeconds(), liveSet.forced(), liveSet.failures(), c.windowSeconds(), c.warmupFraction(),
                    reachable, websim.seedUrls().size(), total.pagesFetched(),
                    total.distinctUrlsFetched(), total.duplicateFetches(), total.politenessViolations(),
                    total.minGapMs(), exit, cleanExit(exit), stopSeconds, pauses.size(),
                    pauses.stream().mapToDouble(GcLog.Pause::pauseMs).sum(),
                    pauses.stream().mapToDouble(GcLog.Pause::pauseMs).max().orElse(0),
                    (int) pauses.stream().filter(p -> p.kind().startsWith("Full")).count(), rssMax, verdict,
                    growth.fromSeconds(), growth.toSeconds(), growth.grown(), samples, gcs);
            write(summary, c, outputs, commandLine);
            return summary;
        }
    }

    /** What the live set grew by between two histograms (times -1 and no classes when there were not two). */
    record LiveSetGrowth(double fromSeconds, double toSeconds, List<ClassHistogram.Growth> grown) {
    }

    /** Classes the live set grew by most, from the first histogram after the warm-up to the last one. */
    static LiveSetGrowth liveSetGrowth(List<LiveSetProbe.Histogram> histograms, double warmupSeconds) {
        List<LiveSetProbe.Histogram> judged = histograms.stream().filter(h -> h.seconds() >= warmupSeconds).toList();
        List<ClassHistogram> read = new ArrayList<>();
        List<Double> at = new ArrayList<>();
        for (LiveSetProbe.Histogram h : judged) {
            try {
                ClassHistogram c = ClassHistogram.read(h.file());
                if (c.classes() > 0) {
                    read.add(c);
                    at.add(h.seconds());
                }
            } catch (IOException e) {
                LOG.warn("could not read the class histogram {}: {}", h.file(), e.toString());
            }
        }
        if (read.size() < 2) {
            return new LiveSetGrowth(-1, -1, List.of());
        }
        return new LiveSetGrowth(at.get(0), at.get(at.size() - 1),
                read.get(read.size() - 1).grownSince(read.get(0), GROWTH_CLASSES));
    }

    /** Heap after each collection the soak forced (the live set). */
    static List<Flatness.HeapPoint> liveSetPoints(List<SoakSummary.Gc> gcs) {
        return gcs.stream().filter(g -> g.kind().contains(FORCED_KIND))
                .map(g -> new Flatness.HeapPoint(g.seconds(), g.afterBytes())).toList();
    }

    static List<String> childCommand(SoakConfig c, WebSim websim, Path seeds, Path gcLog, Path crawlDir) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + c.heap());
        cmd.add("-Xlog:gc*:file=" + gcLog + ":time,uptime,level,tags");
        cmd.addAll(c.jvmOptions());
        cmd.addAll(List.of("-jar", c.jar().toAbsolutePath().toString(), "crawl",
                "--seeds", seeds.toString(),
                "--data-dir", crawlDir.toString(),
                "--hosts-file", websim.hostsFile().toString(),
                "--allow-addresses", "127.0.0.0/8",
                "--politeness-ms", Long.toString(c.politenessMs()),
                "--max-depth", Integer.toString(c.maxDepth()),
                "--partitions", Integer.toString(c.partitions()),
                "--metrics-port", "0",
                "--max-seconds", Long.toString((long) Math.ceil(c.seconds()) + CHILD_GRACE_SECONDS)));
        for (Map.Entry<String, String> e : c.settings().entrySet()) {
            cmd.add("--set");
            cmd.add(e.getKey() + "=" + e.getValue());
        }
        return cmd;
    }

    /**
     * Whether the child stopped by itself: 0, or 143 (128 + SIGTERM), which the JVM returns after its shutdown hooks
     * — the crawl's orderly stop — have run. -1 means it had to be killed.
     */
    static boolean cleanExit(int exit) {
        return exit == 0 || exit == 128 + 15;
    }

    /** SIGTERM, wait, then SIGKILL; the exit code, or -1 if it had to be killed. */
    private static int stop(Process child, int waitSeconds) {
        if (!child.isAlive()) {
            return child.exitValue();
        }
        child.destroy();
        try {
            if (child.waitFor(waitSeconds, TimeUnit.SECONDS)) {
                return child.exitValue();
            }
            LOG.warn("the crawl did not stop within {} s of SIGTERM; killing it", waitSeconds);
            child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            child.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        return -1;
    }

    /** The child's metrics endpoint once its log announced it, else null. */
    private static PrometheusScrapeSource metricsOf(Path childLog) {
        try {
            if (!Files.exists(childLog) || Files.size(childLog) > (64L << 20)) {
                return null;
            }
            Matcher m = METRICS_AT.matcher(Files.readString(childLog, StandardCharsets.ISO_8859_1));
            if (!m.find()) {
                return null;
            }
            return new PrometheusScrapeSource(List.of(URI.create("http://127.0.0.1:" + m.group(1) + "/metrics")),
                    Duration.ofSeconds(5));
        } catch (IOException e) {
            return null;
        }
    }

    private static SoakSummary.Sample sample(long t0, WebSimStats stats, long pid, PrometheusScrapeSource metrics) {
        double seconds = (System.nanoTime() - t0) / 1e9;
        long heapUsed = -1;
        long frontier = -1;
        long discovered = -1;
        long admitted = -1;
        if (metrics != null) {
            MetricsSnapshot m = metrics.read();
            if (m.errors().isEmpty()) {
                heapUsed = Math.round(m.sum("jvm_memory_used_bytes", s -> "heap".equals(s.label("area"))));
                frontier = m.has(PrometheusNames.FRONTIER_SIZE) ? Math.round(m.sum(PrometheusNames.FRONTIER_SIZE)) : -1;
                discovered = Math.round(m.sum(PrometheusNames.DEDUP_TESTS));
                admitted = Math.round(m.sum(PrometheusNames.DEDUP_NEW));
            }
        }
        return new SoakSummary.Sample(seconds, stats.pagesFetched(), stats.distinctUrlsFetched(), rssBytes(pid),
                heapUsed, frontier, discovered, admitted, loadAverage());
    }

    /** VmRSS of a process from /proc (Linux), or -1. */
    static long rssBytes(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"),
                    StandardCharsets.ISO_8859_1)) {
                if (line.startsWith("VmRSS:")) {
                    String[] f = line.substring(6).trim().split("\\s+");
                    return Long.parseLong(f[0]) * 1024; // always kB
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or the process is gone
        }
        return -1;
    }

    /** The 1-minute load average from /proc/loadavg (Linux), or -1. */
    static double loadAverage() {
        try {
            String line = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.ISO_8859_1).trim();
            return Double.parseDouble(line.split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static void progress(PrintStream out, List<SoakSummary.Sample> samples, int interval) {
        SoakSummary.Sample s = samples.get(samples.size() - 1);
        SoakSummary.Sample p = samples.size() > 1 ? samples.get(samples.size() - 2) : null;
        double rate = p == null || s.seconds() <= p.seconds() ? 0
                : (s.pagesFetched() - p.pagesFetched()) / (s.seconds() - p.seconds());
        out.printf(Locale.ROOT, "[%5.0f s] pages %,10d  %7.1f pages/s  frontier %,9d  heap used %,6.0f MiB  "
                        + "RSS %,6.0f MiB  load %.1f%n", s.seconds(), s.pagesFetched(), rate, s.frontier(),
                s.heapUsedBytes() / 1048576.0, s.rssBytes() / 1048576.0, s.loadAverage());
    }

    private static void write(SoakSummary s, SoakConfig c, Outputs outputs, String commandLine) throws IOException {
        Path summary = outputs.summary() != null ? outputs.summary() : c.dataDir().resolve("soak.json");
        s.write(summary);
        Path plots = outputs.plotDir() != null ? outputs.plotDir() : c.dataDir().resolve("plots");
        SoakPlots.write(s, plots);
        Path report = outputs.report() != null ? outputs.report() : plots.resolve("soak-report.html");
        ExperimentReport.write(report, String.format(Locale.ROOT,
                "Soak: %.0f min, %,d-page web, -Xmx%s\nno figure in the papers: pages/s, heap after GC and live set over "
                        + "time",
                s.minutes(), s.pages(), s.heap()), List.of(plots), List.of(summary), commandLine);
    }
}
