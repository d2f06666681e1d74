package io.github.kcrawler.deploy;

import io.github.kcrawler.websim.WebSim;
import io.github.kcrawler.websim.WebSimCommand;
import io.github.kcrawler.websim.WebSimStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docker compose -f docker-compose.yml -f docker-compose.websim.yml up} without Docker (issue 23): the two
 * files are read and merged as compose does, with the variables a user would put in .env for a small test
 * (4 partitions, T = 200 ms, a web of 300 pages); the Kafka broker runs in a child JVM configured exactly as the
 * apache/kafka image configures itself from the file's KAFKA_* environment and formatted as the image formats it
 * (so with transaction.version 2, which the topics step sets to 1); the topics service runs the mounted script with
 * Kafka's own tools; each service runs its own shaded jar with the file's environment, command, mounts, memory
 * limit and CPUs over the Dockerfile's ENV and ENTRYPOINT; websim serves the web of its service's command with its
 * hosts file in the shared volume; the seed job seeds it. Passes when websim counted every reachable page fetched
 * and no politeness violation, every service answers /health with 200 as its health check asks, and no service
 * logged at DEBUG. A change to the files that breaks a service fails it.
 */
class ComposeWithoutDockerIT {
    static final Map<String, String> DOT_ENV = Map.of(
            "KCRAWLER_PARTITIONS", "4",
            "KCRAWLER_POLITENESS_MS", "200",
            "KCRAWLER_WEBSIM_PAGES", "300");
    static final List<String> SERVICES = List.of("dedup", "scheduler", "ranker", "fetcher");

    @TempDir
    Path work;

    @Test
    void theComposeFileCrawlsWebsimCompletelyAndPolitely() throws Exception {
        ComposeProject compose = ComposeProject.load(DOT_ENV, Repo.file("docker-compose.yml"),
                Repo.file("docker-compose.websim.yml"));
        try (LocalContainers c = new LocalContainers(work)) {
            // kafka, then the topics job once it is healthy (depends_on: service_healthy / completed_successfully)
            LocalContainers.Mounts kafkaMounts = mounts(c, compose, "kafka");
            KafkaImage.start(c, "kafka", compose.environment("kafka"), kafkaMounts, compose.memLimit("kafka"));
            awaitKafkaHealthy(c, compose);
            runTopics(c, compose);

            WebSim sim = startWebsim(c, compose);
            try {
                for (String s : SERVICES) {
                    startService(c, compose, s);
                }
                List<String> seedCommand = compose.stringList("seed", "command");
                assertThat(seedCommand).as("the seed job seeds websim's seed pages").containsAll(sim.seedUrls());
                int seed = c.run("seed", command(c, compose, "seed"), Map.of(), Duration.ofMinutes(3));
                assertThat(seed).as(c.log("seed")).isZero();

                int reachable = sim.reachablePages(Integer.MAX_VALUE).cardinality();
                assertThat(reachable).isGreaterThan(100);
                awaitCrawl(c, sim, reachable, Duration.ofMinutes(5));
                WebSimStats stats = sim.stats();
                assertThat(stats.politenessViolations()).as(stats.toJson()).isZero();
                assertThat(sim.fetchedPages().cardinality()).as(stats.toJson()).isGreaterThanOrEqualTo(reachable);
                for (String s : SERVICES) {
                    String net = compose.networkOf(s) == null ? s : compose.networkOf(s);
                    assertThat(c.httpStatus(net, 9400, "/health")).as(s + " /health\n" + c.logTail(s, 4000))
                            .isEqualTo(200);
                    assertThat(c.log(s)).as(s + " logs at DEBUG").doesNotContain(" DEBUG ");
                }
                assertThat(c.log("kafka")).doesNotContain("OutOfMemoryError");
            } finally {
                sim.close();
            }
        }
    }

    static LocalContainers.Mounts mounts(LocalContainers c, ComposeProject compose, String service) throws Exception {
        LocalContainers.Mounts m = c.mounts(service);
        for (String[] v : compose.mounts(service)) {
            m.add(v[0], v[1]);
        }
        return m;
    }

    static void awaitKafkaHealthy(LocalContainers c, ComposeProject compose) throws Exception {
        // the file's own health check, run in the container: /opt/kafka/bin is the image's, localhost its address
        Map<String, Object> hc = Repo.map(compose.service("kafka").get("healthcheck"), "kafka healthcheck");
        List<Object> test = Repo.list(hc.get("test"), "test");
        assertThat(test.get(0)).isEqualTo("CMD-SHELL");
        String shell = String.valueOf(test.get(1)).replace("/opt/kafka/bin/", c.kafkaBin() + "/")
                .replace("localhost:", c.ip("kafka") + ":");
        LocalContainers.await("kafka healthy", Duration.ofMinutes(3), () -> {
            try {
                return c.run("kafka-healthcheck", List.of("sh", "-c", shell), Map.of(), Duration.ofSeconds(60)) == 0;
            } catch (Exception e) {
                return false;
            }
        });
    }

    static void runTopics(LocalContainers c, ComposeProject compose) throws Exception {
        LocalContainers.Mounts m = mounts(c, compose, "topics");
        List<String> entrypoint = compose.stringList("topics", "entrypoint").stream().map(m::map).toList();
        Map<String, String> env = new java.util.LinkedHashMap<>(compose.environment("topics"));
        env.put("KAFKA_BIN", c.kafkaBin().toString()); // the image's /opt/kafka/bin
        int rc = c.run("topics", entrypoint, env, Duration.ofMinutes(5));
        assertThat(rc).as(c.log("topics")).isZero();
        assertThat(c.log("topics")).contains("transaction.version 2 -> 1").contains("ready (4 partitions each");
    }

    static WebSim startWebsim(LocalContainers c, ComposeProject compose) throws Exception {
        LocalContainers.Mounts m = mounts(c, compose, "websim");
        List<String> cmd = compose.stringList("websim", "command");
        assertThat(cmd.get(0)).isEqualTo("websim");
        List<String> args = cmd.subList(1, cmd.size()).stream().map(m::map).toList();
        c.ip("websim");
        return WebSim.start(WebSimCommand.parse(args));
    }

    static void startService(LocalContainers c, ComposeProject compose, String s) throws Exception {
        String net = compose.networkOf(s) == null ? s : compose.networkOf(s);
        KcrawlerImage.start(c, s, net, compose.buildArg(s, "SERVICE"), compose.environment(s),
                compose.stringList(s, "command"), mounts(c, compose, s), compose.memLimit(s), cpus(compose, s));
    }

    static List<String> command(LocalContainers c, ComposeProject compose, String s) throws Exception {
        // a one-shot container: same image emulation, but run to its end
        List<String> cmd = new ArrayList<>();
        LocalContainers.Mounts m = mounts(c, compose, s);
        Map<String, String> env = new java.util.LinkedHashMap<>(KcrawlerImage.imageEnv());
        env.putAll(compose.environment(s));
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of(env.get("JAVA_OPTS").trim().split("\\s+")));
        cmd.addAll(c.jvmFlags(compose.memLimit(s), cpus(compose, s)));
        cmd.addAll(List.of("-jar", KcrawlerImage.jar(compose.buildArg(s, "SERVICE")).toString()));
        compose.stringList(s, "command").forEach(a -> cmd.add(m.map(a)));
        return cmd;
    }

    static int cpus(ComposeProject compose, String s) {
        Object cpus = compose.service(s).get("cpus");
        return cpus == null ? 0 : (int) Math.ceil(Double.parseDouble(String.valueOf(cpus)));
    }

    static void awaitCrawl(LocalContainers c, WebSim sim, int reachable, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (sim.fetchedPages().cardinality() < reachable) {
            for (String s : SERVICES) {
                Process p = c.process(s);
                if (p != null && !p.isAlive()) {
                    throw new AssertionError(s + " exited with " + p.exitValue() + ":\n" + c.logTail(s, 6000));
                }
            }
            if (System.nanoTime() > deadline) {
                StringBuilder logs = new StringBuilder();
                for (String s : SERVICES) {
                    logs.append("--- ").append(s).append('\n').append(c.logTail(s, 3000)).append('\n');
                }
                throw new AssertionError("crawl incomplete after " + timeout + ": " + sim.fetchedPages().cardinality()
                        + " of " + reachable + " pages; " + sim.stats().toJson() + "\n" + logs);
            }
            Thread.sleep(1000);
        }
    }
}
