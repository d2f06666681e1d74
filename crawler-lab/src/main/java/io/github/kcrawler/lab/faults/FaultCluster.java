package io.github.kcrawler.lab.faults;

import io.github.kcrawler.app.runtime.CrawlRuntime;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.dedup.DedupConfig;
import io.github.kcrawler.dedup.DedupMain;
import io.github.kcrawler.dedup.DedupService;
import io.github.kcrawler.fetcher.FetcherMain;
import io.github.kcrawler.kafka.embedded.EmbeddedKafkaMain;
import io.github.kcrawler.ranker.RankerConfig;
import io.github.kcrawler.ranker.RankerMain;
import io.github.kcrawler.ranker.RankerService;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.scheduler.SchedulerMain;
import io.github.kcrawler.scheduler.processor.SchedulerTopology;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A crawl with every part in its own JVM: one broker ({@link EmbeddedKafkaMain}, fixed loopback port and data
 * directory, so it restarts in place), dedup, scheduler, ranker and two fetchers (the fetchers share one consumer
 * group, so a stopped fetcher's partitions move to the other). Every topic, the services' changelog topics included,
 * is created before any service starts. Each service gets a fixed metrics port for its {@code /health} and the short
 * consumer session timeout of the scenario through the {@code kafka.} pass-through settings.
 */
final class FaultCluster implements AutoCloseable {
    static final String BROKER = "broker";
    static final String DEDUP = "dedup";
    static final String SCHEDULER = "scheduler";
    static final String RANKER = "ranker";
    static final String FETCHER_1 = "fetcher-1";
    static final String FETCHER_2 = "fetcher-2";
    /** Log lines of each kind a diagnosis shows per process. */
    static final int DIAGNOSIS_LINES = 30;

    private final FaultsConfig config;
    private final Path runDir;
    private final String bootstrap;
    private final ServiceProcess broker;
    private final Map<String, ServiceProcess> services = new LinkedHashMap<>();
    /** Names of the fetchers this cluster runs now (started, not stopped by a scale-down). */
    private final List<String> fetchers = new ArrayList<>();
    private final Path logs;
    private final Path hostsFile;
    /** Settings every fetcher of this cluster gets beyond the scenario's own (e.g. a smaller {@code max-in-flight}). */
    private final List<String> fetcherArgs;
    /** Stops the child JVMs if this one is stopped (Ctrl-C) before {@link #close()}. */
    private final Thread reaper = new Thread(this::close, "faults-reaper");

    private FaultCluster(FaultsConfig config, Path runDir, Path hostsFile, List<String> fetchers,
                         List<String> fetcherArgs) throws IOException {
        this.config = config;
        this.runDir = runDir.toAbsolutePath();
        this.hostsFile = hostsFile.toAbsolutePath();
        this.fetcherArgs = List.copyOf(fetcherArgs);
        int brokerPort = freePort();
        this.bootstrap = "127.0.0.1:" + brokerPort;
        Path logs = this.runDir.resolve("logs");
        this.logs = logs;
        broker = new ServiceProcess(BROKER, ServiceProcess.javaCommand(config.jar(), "512m",
                EmbeddedKafkaMain.class.getName(), List.of("--data-dir", this.runDir.resolve("kafka").toString(),
                        "--port", Integer.toString(brokerPort), "--set", "num.partitions=" + config.partitions())),
                logs, -1);
        List<String> streams = config.streamsSettings().stream().map(kv -> "--" + kv).toList();
        add(logs, DEDUP, DedupMain.class.getName(), streams);
        add(logs, RANKER, RankerMain.class.getName(), streams);
        List<String> scheduler = new ArrayList<>(List.of("--politeness-ms=" + config.politenessMs()));
        scheduler.addAll(streams);
        add(logs, SCHEDULER, SchedulerMain.class.getName(), scheduler);
        for (String fetcher : fetchers) {
            addFetcher(fetcher);
        }
    }

    private ServiceProcess addFetcher(String fetcher) throws IOException {
        List<String> own = new ArrayList<>(List.of("--politeness-ms=" + config.politenessMs(),
                "--hosts-file=" + hostsFile, "--allow-addresses=127.0.0.0/8",
                "--max-depth=" + config.maxDepth(), "--warc-dir=" + this.runDir.resolve("warc-" + fetcher),
                "--warc-prefix=" + fetcher,
                // the same transactional.id when restarted: its open transaction is aborted at once
                "--instance-id=" + fetcher));
        own.addAll(fetcherArgs);
        ServiceProcess p = add(logs, fetcher, FetcherMain.class.getName(), own);
        fetchers.add(fetcher);
        return p;
    }

    /** How many fetchers this cluster runs: the members its fetcher group has once it has settled. */
    int fetcherCount() {
        return fetchers.size();
    }

    /** Starts more fetchers in the group at once (a scale-up) and waits until each reports healthy. */
    void startFetchers(List<String> names, Duration timeout) throws Exception {
        List<ServiceProcess> started = new ArrayList<>();
        for (String name : names) {
            if (services.containsKey(name)) {
                throw new IllegalArgumentException("a process named " + name + " exists already");
            }
            ServiceProcess p = addFetcher(name);
            p.start();
            started.add(p);
        }
        for (ServiceProcess p : started) {
            awaitHealthy(p, timeout);
        }
    }

    /**
     * Stops a fetcher as a scale-down does (SIGTERM: it finishes what is running, commits and leaves the group) and
     * forgets it; SIGKILL after {@code graceSeconds}.
     */
    void stopFetcher(String name, long graceSeconds) throws InterruptedException {
        ServiceProcess p = services.remove(name);
        if (p == null) {
            throw new IllegalArgumentException("no process named " + name);
        }
        fetchers.remove(name);
        p.stop(graceSeconds);
    }

    private ServiceProcess add(Path logs, String name, String mainClass, List<String> own) throws IOException {
        int metricsPort = freePort();
        List<String> args = new ArrayList<>(List.of("--bootstrap-servers=" + bootstrap,
                "--partitions=" + config.partitions(), "--state-dir=" + runDir.resolve("state"),
                "--metrics-port=" + metricsPort,
                "--kafka.session.timeout.ms=" + config.sessionTimeoutMs(),
                "--kafka.heartbeat.interval.ms=" + Math.max(500, config.sessionTimeoutMs() / 4)));
        args.addAll(own);
        ServiceProcess p = new ServiceProcess(name, ServiceProcess.javaCommand(config.jar(), config.serviceHeap(),
                mainClass, args), logs, metricsPort);
        services.put(name, p);
        return p;
    }

    /** Starts the broker, creates every topic, starts the services and waits until all report healthy. */
    static FaultCluster start(FaultsConfig config, Path runDir, Path hostsFile, Duration timeout) throws Exception {
        return start(config, runDir, hostsFile, timeout, List.of(FETCHER_1, FETCHER_2), List.of());
    }

    /** As {@link #start(FaultsConfig, Path, Path, Duration)} with the given fetchers, each with {@code fetcherArgs}. */
    static FaultCluster start(FaultsConfig config, Path runDir, Path hostsFile, Duration timeout,
                              List<String> fetchers, List<String> fetcherArgs) throws Exception {
        FaultCluster cluster = new FaultCluster(config, runDir, hostsFile, fetchers, fetcherArgs);
        Runtime.getRuntime().addShutdownHook(cluster.reaper);
        try {
            cluster.broker.start();
            cluster.awaitHealthy(cluster.broker, timeout);
            cluster.createTopics();
            for (ServiceProcess s : cluster.services.values()) {
                s.start();
            }
            for (ServiceProcess s : cluster.services.values()) {
                cluster.awaitHealthy(s, timeout);
            }
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    private void createTopics() {
        String[] common = {"--bootstrap-servers=" + bootstrap, "--partitions=" + config.partitions()};
        List<String> internal = new ArrayList<>();
        internal.addAll(DedupService.internalTopics(DedupConfig.from(Settings.parse(DedupConfig.KEYS, Map.of(),
                common))));
        internal.addAll(RankerService.internalTopics(RankerConfig.from(Settings.parse(RankerConfig.KEYS, Map.of(),
                common))));
        internal.addAll(SchedulerTopology.changelogTopics(SchedulerConfig.from(Settings.parse(SchedulerConfig.KEYS,
                Map.of(), common))));
        try (CrawlRuntime topics = CrawlRuntime.start(runDir, Optional.of(bootstrap), "", config.partitions(),
                Map.of())) {
            topics.provisionInternalTopics(internal);
        }
    }

    /** Waits until {@code s} is healthy; fails if it exits or {@code timeout} passes. */
    void awaitHealthy(ServiceProcess s, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!s.healthy()) {
            if (!s.isAlive()) {
                throw new IllegalStateException(s.name() + " exited during start-up; see " + s.log());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(s.name() + " not healthy after " + timeout + "; see " + s.log());
            }
            Thread.sleep(100);
        }
    }

    String bootstrapServers() {
        return bootstrap;
    }

    ServiceProcess broker() {
        return broker;
    }

    ServiceProcess service(String name) {
        ServiceProcess s = BROKER.equals(name) ? broker : services.get(name);
        if (s == null) {
            throw new IllegalArgumentException("no process named " + name);
        }
        return s;
    }

    /** Names of the processes that are not running (a service that died on its own is a finding). */
    List<String> notRunning() {
        List<String> dead = new ArrayList<>();
        if (!broker.isAlive()) {
            dead.add(BROKER);
        }
        services.forEach((n, s) -> {
            if (!s.isAlive()) {
                dead.add(n);
            }
        });
        return dead;
    }

    /**
     * Why the crawl may have stalled: {@link ServiceProcess#diagnosis} of every process that is not running or not
     * healthy; if there is none (a stall with every process up), of every process.
     */
    String diagnosis() {
        List<ServiceProcess> all = new ArrayList<>();
        all.add(broker);
        all.addAll(services.values());
        StringBuilder b = new StringBuilder();
        for (ServiceProcess s : all) {
            if (!s.healthy()) {
                b.append(s.diagnosis(DIAGNOSIS_LINES));
            }
        }
        if (b.length() == 0) {
            b.append("every process is running and healthy; their logs:\n");
            all.forEach(s -> b.append(s.diagnosis(DIAGNOSIS_LINES)));
        }
        return b.toString();
    }

    /**
     * The gist of the diagnoses ({@link #diagnosis}) in a scenario's console output: what did not recover, each
     * process reported, and its ERROR lines with the exception line after each, at most {@code maxLines}.
     */
    static String stallSummary(String console, int maxLines) {
        List<String> out = new ArrayList<>();
        boolean inDiagnosis = false;
        String previous = "";
        for (String line : console.split("\n")) {
            if (line.contains("did not recover") || line.contains("exited after its restart")
                    || line.contains("exited on its own")) {
                inDiagnosis = true;
                out.add(line.strip());
            } else if (inDiagnosis && (line.startsWith("---- ") || line.contains(" ERROR ")
                    || (previous.contains(" ERROR ") && line.contains("Exception")))) {
                out.add(line.strip());
            }
            previous = line;
        }
        if (out.isEmpty()) {
            return "(no diagnosis printed)";
        }
        if (out.size() > maxLines) {
            int more = out.size() - maxLines;
            out = new ArrayList<>(out.subList(0, maxLines));
            out.add("… " + more + " more lines in the output above");
        }
        return String.join("\n", out);
    }

    /**
     * What the fetchers said about their ownership of partitions in a run directory's logs (the gate closing and
     * opening, aborted transactions, pauses, results kept across rebalances), each line prefixed with its log's name: what explains duplicate
     * fetches, for a failure message CI shows. At most {@code maxLines}, the last ones.
     */
    static String fetcherOwnershipLines(Path runDir, int maxLines) {
        List<String> out = new ArrayList<>();
        try (Stream<Path> logs = Files.list(runDir.resolve("logs"))) {
            for (Path log : logs.filter(f -> f.getFileName().toString().startsWith("fetcher")).sorted().toList()) {
                String name = log.getFileName().toString();
                for (String line : Files.readAllLines(log)) {
                    if (line.contains("OwnershipGate") || line.contains("ConsumerLoop")
                            || line.contains("TransactionalOutput") || line.contains("KeptResults")
                            || line.startsWith("=====")) {
                        out.add(name + ": " + line.strip());
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return "(fetcher logs not readable: " + e + ")";
        }
        if (out.size() > maxLines) {
            int more = out.size() - maxLines;
            out = new ArrayList<>(out.subList(more, out.size()));
            out.add(0, "… " + more + " earlier lines in " + runDir.resolve("logs"));
        }
        return out.isEmpty() ? "(nothing in the fetcher logs)" : String.join("\n", out);
    }

    /** Stops the services (SIGTERM, in reverse start order), then the broker. */
    @Override
    public void close() {
        if (Thread.currentThread() != reaper) {
            try {
                Runtime.getRuntime().removeShutdownHook(reaper);
            } catch (IllegalStateException | IllegalArgumentException e) {
                // shutting down already, or never registered
            }
        }
        List<ServiceProcess> all = new ArrayList<>(services.values());
        java.util.Collections.reverse(all);
        for (ServiceProcess s : all) {
            s.close();
        }
        broker.close();
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
