package io.github.kcrawler.deploy;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Containers without a container engine: each container is a child process, its network namespace one loopback
 * address of its own (127.a.b.n, so every container may bind the same port, as in docker), container names resolve
 * through a hosts file given to every JVM ({@code -Djdk.net.hosts.file}, the name service of compose's network or a
 * cluster's headless services), and container paths map to directories: a mount's source, or the container's own
 * file system under {@code rootfs/NAME}. Binding "all interfaces" (0.0.0.0, an empty listener host) binds the
 * container's address: nothing listens beyond loopback.
 *
 * <p>Images are emulated by what they run: {@code kcrawler/*} is docker/Dockerfile's ENTRYPOINT ({@code java
 * $JAVA_OPTS -jar app.jar ARGS}) with its ENV, on the module's shaded jar; {@code apache/kafka} is {@link KafkaImage}.
 */
final class LocalContainers implements AutoCloseable {
    private final Path work;
    private final String subnet;
    private final Map<String, String> ips = new LinkedHashMap<>();
    private final Map<String, Process> processes = new LinkedHashMap<>();
    private final Path hostsFile;
    private final Path bin;
    private int next = 2;

    LocalContainers(Path work) throws IOException {
        this.work = work;
        long seed = System.nanoTime();
        SplittableRandom r = new SplittableRandom(seed);
        // not 127.0/16 (other tests' fixed addresses), not 127.1/16 and 127.2/16 (websim's)
        this.subnet = "127." + (10 + r.nextInt(200)) + "." + r.nextInt(250);
        this.hostsFile = work.resolve("hosts");
        this.bin = Files.createDirectories(work.resolve("opt-kafka-bin"));
        Files.writeString(hostsFile, "127.0.0.1 localhost\n");
        shim("kafka-topics.sh", "org.apache.kafka.tools.TopicCommand");
        shim("kafka-features.sh", "org.apache.kafka.tools.FeatureCommand");
        shim("kafka-broker-api-versions.sh", "org.apache.kafka.tools.BrokerApiVersionsCommand");
    }

    /** The address of container {@code name} (allocated on first use, registered in the hosts file). */
    synchronized String ip(String name) {
        String ip = ips.get(name);
        if (ip == null) {
            ip = subnet + "." + next++;
            ips.put(name, ip);
            try {
                Files.writeString(hostsFile, ip + " " + name + "\n", java.nio.file.StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return ip;
    }

    /** Another name for an existing address (a pod's stable DNS name, a service in front of it). */
    synchronized void alias(String name, String of) {
        String ip = ip(of);
        ips.put(name, ip);
        try {
            Files.writeString(hostsFile, ip + " " + name + "\n", java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    Path hostsFile() {
        return hostsFile;
    }

    /** The image's {@code /opt/kafka/bin}: Kafka's own tools from the test class path. */
    Path kafkaBin() {
        return bin;
    }

    Path work() {
        return work;
    }

    /** JVM flags every container's JVM gets: name resolution, and the container's memory limit and CPUs. */
    List<String> jvmFlags(String memLimit, int cpus) {
        List<String> f = new ArrayList<>(List.of("-Djdk.net.hosts.file=" + hostsFile, "-Xshare:auto"));
        if (memLimit != null) {
            f.add("-XX:MaxRAM=" + memLimit);
        }
        if (cpus > 0) {
            f.add("-XX:ActiveProcessorCount=" + cpus);
        }
        return f;
    }

    private void shim(String name, String mainClass) throws IOException {
        KafkaCliShim.write(bin, name, mainClass, List.of("-Djdk.net.hosts.file=" + hostsFile,
                "-XX:TieredStopAtLevel=1", "-Xmx256m"));
    }

    /** Container paths of one container: its mounts (container path → host path), and its own root file system. */
    final class Mounts {
        private final String container;
        private final Map<String, Path> mounts = new LinkedHashMap<>();

        Mounts(String container) {
            this.container = container;
        }

        /** A named volume (shared by every container that mounts it) or, for a path, a bind mount. */
        Mounts add(String source, String containerPath) throws IOException {
            Path host;
            if (source.startsWith("./") || source.startsWith("/")) {
                host = source.startsWith("/") ? Path.of(source) : Repo.root().resolve(source).normalize();
            } else {
                host = Files.createDirectories(work.resolve("volumes").resolve(source));
            }
            mounts.put(containerPath, host);
            return this;
        }

        /** The host path of {@code path} if it is a container path (absolute, under a mount or the image's dirs). */
        String map(String path) {
            if (!path.startsWith("/") || path.startsWith(work.toString())) {
                return path; // not a container path, or already a host path (a test's own file)
            }
            String best = null;
            for (String m : mounts.keySet()) {
                if ((path.equals(m) || path.startsWith(m.endsWith("/") ? m : m + "/"))
                        && (best == null || m.length() > best.length())) {
                    best = m;
                }
            }
            if (best != null) {
                String rest = path.substring(best.length());
                return mounts.get(best) + rest;
            }
            if (path.startsWith("/var/lib/") || path.startsWith("/opt/kcrawler") || path.startsWith("/tmp/")) {
                Path p = work.resolve("rootfs").resolve(container).resolve(path.substring(1));
                try {
                    Files.createDirectories(p.getParent());
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                return p.toString();
            }
            return path;
        }
    }

    Mounts mounts(String container) {
        return new Mounts(container);
    }

    private static final Pattern ALL_INTERFACES = Pattern.compile("(://)(0\\.0\\.0\\.0)?(:\\d+)");

    /** A listener list or address with "all interfaces" replaced by the container's address. */
    String bindOwnAddress(String container, String value) {
        Matcher m = ALL_INTERFACES.matcher(value);
        return m.replaceAll(Matcher.quoteReplacement("://" + ip(container)) + "$3");
    }

    /** Starts {@code command} as container {@code name}; output goes to {@code logs/NAME.log}. */
    Process start(String name, List<String> command, Map<String, String> env) throws IOException {
        Path log = Files.createDirectories(work.resolve("logs")).resolve(name + ".log");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .directory(Files.createDirectories(work.resolve("rootfs").resolve(name)).toFile());
        pb.environment().clear();
        pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        pb.environment().put("HOSTNAME", name);
        pb.environment().putAll(env);
        Process p = pb.start();
        synchronized (this) {
            processes.put(name, p);
        }
        return p;
    }

    /** Runs a one-shot container to its end; returns its exit code (its output is in its log). */
    int run(String name, List<String> command, Map<String, String> env, Duration timeout) throws Exception {
        Process p = start(name, command, env);
        if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(name + " did not finish within " + timeout + ":\n" + log(name));
        }
        return p.exitValue();
    }

    String log(String name) {
        Path log = work.resolve("logs").resolve(name + ".log");
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    /** The tail of a container's log, for failure messages. */
    String logTail(String name, int chars) {
        String l = log(name);
        return l.length() <= chars ? l : "..." + l.substring(l.length() - chars);
    }

    Process process(String name) {
        return processes.get(name);
    }

    /** Status of {@code GET http://IP:port/path} from the container's own address (its health check), or -1. */
    int httpStatus(String container, int port, String path) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create("http://" + ip(container) + ":" + port + path)
                    .toURL().openConnection();
            c.setConnectTimeout(2000);
            c.setReadTimeout(5000);
            int status = c.getResponseCode();
            c.disconnect();
            return status;
        } catch (IOException e) {
            return -1;
        }
    }

    static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            Thread.sleep(500);
        }
    }

    /**
     * Stops every container as {@code docker compose down} does: in reverse order of start (dependents before what
     * they depend on, so the services leave their groups while the broker still answers), each with SIGTERM
     * ({@code docker stop}), then SIGKILL after the grace period. Stopping all at once made every Streams service
     * wait out its close timeout against a broker already gone (30 s of each deployment test).
     */
    @Override
    public void close() {
        List<Map.Entry<String, Process>> all;
        synchronized (this) {
            all = new ArrayList<>(processes.entrySet());
        }
        long t0 = System.nanoTime();
        for (int i = all.size() - 1; i >= 0; i--) {
            Process p = all.get(i).getValue();
            if (!p.isAlive()) {
                continue;
            }
            p.destroy();
            try {
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
            System.out.printf("LocalContainers: %s stopped, %d ms after the first SIGTERM%n", all.get(i).getKey(),
                    (System.nanoTime() - t0) / 1_000_000);
        }
    }
}
