package io.github.kcrawler.deploy;

import io.github.kcrawler.fetcher.FetcherConfig;
import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.CommonSettings;
import io.github.kcrawler.app.cli.CrawlerMain;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.internals.AppInfoParser;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static io.github.kcrawler.deploy.Repo.list;
import static io.github.kcrawler.deploy.Repo.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** docker-compose.yml: valid for docker-compose, and in agreement with the code it deploys. */
class ComposeFileTest {
    private static final Path COMPOSE = Repo.file("docker-compose.yml");
    private static final Set<String> SERVICES = Set.of("kafka", "topics", "fetcher", "dedup", "scheduler", "ranker",
            "seed", "prometheus");

    private static Map<String, Object> services() {
        return map(Repo.yamlMap(COMPOSE).get("services"), "services");
    }

    private static Map<String, Object> service(String name) {
        return map(services().get(name), "service " + name);
    }

    private static Map<String, String> env(String service) {
        return Repo.composeEnvironment(service(service).get("environment"));
    }

    private static List<String> command(String service) {
        Object c = service(service).get("command");
        return c == null ? List.of() : list(c, "command").stream().map(o -> Repo.interpolateDefaults(String.valueOf(o)))
                .toList();
    }

    /**
     * docker-compose itself merges the websim self-test override over the file as ComposeWithoutDockerIT's
     * ComposeProject does: same environment, command and network of every service the IT runs.
     */
    @Test
    void dockerComposeMergesTheWebsimOverrideAsTheItDoes() throws Exception {
        assumeTrue(onPath("docker-compose"), "docker-compose is not installed (apt-get install docker-compose)");
        Process p = new ProcessBuilder("docker-compose", "-f", COMPOSE.toString(), "-f",
                Repo.file("docker-compose.websim.yml").toString(), "config")
                .directory(Repo.root().toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("docker-compose config said: %s", err).isZero();
        Map<String, Object> merged = Repo.map(Repo.map(new org.yaml.snakeyaml.Yaml().load(out), "config")
                .get("services"), "services");
        ComposeProject mine = ComposeProject.load(Map.of(), COMPOSE, Repo.file("docker-compose.websim.yml"));
        for (String s : List.of("kafka", "topics", "dedup", "scheduler", "ranker", "fetcher", "seed", "websim")) {
            Map<String, Object> theirs = Repo.map(merged.get(s), s);
            Map<String, String> env = new java.util.LinkedHashMap<>();
            Object e = theirs.get("environment");
            if (e != null) {
                Repo.map(e, s + " environment").forEach((k, v) -> env.put(k, v == null ? "" : String.valueOf(v)));
            }
            assertThat(mine.environment(s)).as(s + " environment").isEqualTo(env);
            Object command = theirs.get("command");
            assertThat(mine.stringList(s, "command")).as(s + " command").isEqualTo(command == null ? List.of()
                    : Repo.list(command, "command").stream().map(String::valueOf).toList());
            assertThat(String.valueOf(mine.service(s).get("network_mode")))
                    .as(s + " network").isEqualTo(String.valueOf(theirs.get("network_mode")));
        }
    }

    @Test
    void dockerComposeValidatesTheFile() throws Exception {
        assumeTrue(onPath("docker-compose"), "docker-compose is not installed (apt-get install docker-compose)");
        Process p = new ProcessBuilder("docker-compose", "-f", COMPOSE.toString(), "config", "-q")
                .directory(Repo.root().toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("docker-compose config -q said: %s", out).isZero();
    }

    @Test
    void declaresTheBrokerTheJobsTheFourServicesAndPrometheusAsAProfile() {
        assertThat(services().keySet()).containsExactlyInAnyOrderElementsOf(SERVICES);
        assertThat(list(service("prometheus").get("profiles"), "profiles")).containsExactly("prometheus");
        for (String name : SERVICES) {
            if (!name.equals("prometheus")) {
                assertThat(service(name)).as(name + " is in the default profile").doesNotContainKey("profiles");
            }
            String image = String.valueOf(service(name).get("image"));
            assertThat(image).as(name + " image is pinned").matches("[a-z0-9./-]+:[A-Za-z0-9._${}:-]+")
                    .doesNotEndWith(":latest");
            assertThat(service(name)).as(name + " memory limit").containsKey("mem_limit");
        }
    }

    @Test
    void kafkaIsOneKraftNodeOfTheClientsVersionWithAValidClusterId() {
        Map<String, String> env = env("kafka");
        assertThat(String.valueOf(service("kafka").get("image"))).isEqualTo("apache/kafka:" + AppInfoParser.getVersion());
        assertThat(env).containsEntry("KAFKA_PROCESS_ROLES", "broker,controller")
                .containsEntry("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false")
                .containsEntry("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1")
                .containsEntry("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1");
        assertThat(env.get("KAFKA_ADVERTISED_LISTENERS")).contains("PLAINTEXT://kafka:9092");
        Uuid.fromString(env.get("CLUSTER_ID")); // throws unless 16 bytes of URL-safe base64, as Kafka requires
        assertThat(healthcheck("kafka")).contains("--bootstrap-server localhost:9092");
        assertThat(volumes("kafka")).contains("kafka-data:/var/lib/kafka/data");
    }

    @Test
    void topicJobRunsTheSharedScriptWithTheServicesPartitionCountAfterKafkaIsHealthy() {
        Map<String, String> env = env("topics");
        assertThat(String.valueOf(service("topics").get("image"))).isEqualTo(service("kafka").get("image"));
        assertThat(volumes("topics")).contains("./k8s/base/kafka/create-topics.sh:/opt/kcrawler/create-topics.sh:ro");
        assertThat(list(service("topics").get("entrypoint"), "entrypoint")).contains("/opt/kcrawler/create-topics.sh");
        assertThat(dependsOn("topics")).containsExactly(Map.entry("kafka", "service_healthy"));
        assertThat(env.get("BOOTSTRAP_SERVERS")).isEqualTo("kafka:9092");
        String partitions = env.get("PARTITIONS");
        assertThat(env("kafka")).containsEntry("KAFKA_NUM_PARTITIONS", partitions);
        for (Deployable d : Deployable.values()) {
            assertThat(env(d.serviceName)).as(d.serviceName)
                    .containsEntry(KafkaSettings.PARTITIONS.env(), partitions)
                    .containsEntry(KafkaSettings.BOOTSTRAP_SERVERS.env(), env.get("BOOTSTRAP_SERVERS"))
                    .containsEntry(KafkaSettings.TOPIC_PREFIX.env(), env.get("TOPIC_PREFIX"));
        }
    }

    @Test
    void everyServiceSettingIsOneTheServiceAcceptsWithAValidValue() {
        for (Deployable d : Deployable.values()) {
            Map<String, String> env = new HashMap<>(Repo.dockerfileCrawlerEnv());
            env(d.serviceName).forEach((k, v) -> {
                if (k.startsWith("CRAWLER_")) {
                    env.put(k, v);
                }
            });
            List<String> args = command(d.serviceName);
            // the service's own parser and validator: unknown keys and bad values throw, naming them
            assertThat(d.configure(env, args)).as(d.serviceName).isNotNull();
            for (String arg : args) {
                if (arg.startsWith("--kafka.")) {
                    String name = arg.substring("--kafka.".length()).split("=", 2)[0];
                    assertThat(d.acceptsKafkaSetting(name)).as(d.serviceName + " " + arg).isTrue();
                }
            }
        }
        assertThat(env("fetcher").get(CommonSettings.POLITENESS_MS.env())).as("fetcher and scheduler share T")
                .isEqualTo(env("scheduler").get(CommonSettings.POLITENESS_MS.env()));
    }

    @Test
    void serviceImagesAreBuiltFromTheOneDockerfileWithHealthChecksStateVolumesAndTopicsFirst() {
        Map<String, String> expectedVolume = Map.of("fetcher", "warc:/var/lib/kcrawler/warc",
                "dedup", "dedup-state:/var/lib/kcrawler/state", "scheduler", "scheduler-state:/var/lib/kcrawler/state",
                "ranker", "ranker-state:/var/lib/kcrawler/state");
        for (Deployable d : Deployable.values()) {
            assertBuiltFromDockerfile(d.serviceName, d.module);
            String health = healthcheck(d.serviceName);
            assertThat(health).contains("/health")
                    .contains("/" + Repo.dockerfileCrawlerEnv().get(CommonSettings.METRICS_PORT.env()) + " ");
            assertThat(dependsOn(d.serviceName)).containsEntry("topics", "service_completed_successfully");
            assertThat(volumes(d.serviceName)).contains(expectedVolume.get(d.serviceName));
            assertThat(service(d.serviceName)).containsEntry("restart", "unless-stopped");
        }
        assertThat(env("fetcher")).containsEntry(FetcherConfig.Warc.DIR.env(), "/var/lib/kcrawler/warc");
        Map<String, Object> declared = map(Repo.yamlMap(COMPOSE).get("volumes"), "volumes");
        assertThat(declared.keySet()).contains("kafka-data", "dedup-state", "scheduler-state", "ranker-state", "warc",
                "prometheus-data");
    }

    @Test
    void seedServiceRunsCrawlerSeedAgainstTheBrokerWithTheMountedFile() {
        assertBuiltFromDockerfile("seed", "crawler-app");
        List<String> command = command("seed");
        assertThat(command.get(0)).isEqualTo("seed");
        // the command line parses with the real `crawler seed` options
        CommandLine.ParseResult parsed = new CommandLine(new CrawlerMain()).parseArgs(command.toArray(String[]::new));
        CommandLine.ParseResult seed = parsed.subcommand();
        assertThat(seed.matchedOptionValue("--bootstrap-servers", "")).isEqualTo("kafka:9092");
        List<String> seeds = seed.matchedOptionValue("--seeds", List.of());
        assertThat(seeds).containsExactly("/seeds/seeds.txt");
        assertThat(volumes("seed")).contains("./deploy/seeds.txt:/seeds/seeds.txt:ro");
        assertThat(Files.exists(Repo.file("deploy/seeds.txt"))).isTrue();
        assertThat(dependsOn("seed")).containsEntry("topics", "service_completed_successfully");
        assertThat(map(service("seed").get("healthcheck"), "healthcheck")).containsEntry("disable", true);
    }

    @Test
    void topicScriptCreatesEveryTopicAndChangelogTheCodeUses() {
        Path script = Repo.file("k8s/base/kafka/create-topics.sh");
        assertThat(Repo.shellList(script, "PIPELINE_TOPICS")).containsExactlyElementsOf(Deployable.pipelineTopics());
        assertThat(Repo.shellList(script, "CHANGELOG_TOPICS"))
                .containsExactlyInAnyOrderElementsOf(Deployable.changelogTopics());
    }

    @Test
    void prometheusScrapesEveryServiceOnTheMetricsPort() {
        assertThat(volumes("prometheus")).contains("./deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro");
        Map<String, Object> config = Repo.yamlMap(Repo.file("deploy/prometheus/prometheus.yml"));
        Map<String, String> targets = new TreeMap<>();
        for (Object job : list(config.get("scrape_configs"), "scrape_configs")) {
            Map<String, Object> j = map(job, "scrape config");
            for (Object sd : list(j.get("dns_sd_configs"), "dns_sd_configs")) {
                Map<String, Object> s = map(sd, "dns_sd_config");
                for (Object n : list(s.get("names"), "names")) {
                    targets.put(String.valueOf(n), String.valueOf(s.get("port")));
                }
            }
        }
        String port = Repo.dockerfileCrawlerEnv().get(CommonSettings.METRICS_PORT.env());
        Map<String, String> expected = new TreeMap<>();
        for (Deployable d : Deployable.values()) {
            expected.put(d.serviceName, port);
        }
        assertThat(targets).isEqualTo(expected);
    }

    private void assertBuiltFromDockerfile(String service, String module) {
        Map<String, Object> build = map(service(service).get("build"), service + " build");
        assertThat(build).containsEntry("context", ".").containsEntry("dockerfile", "docker/Dockerfile");
        assertThat(map(build.get("args"), "build args")).containsEntry("SERVICE", module);
        assertThat(Repo.interpolateDefaults(String.valueOf(service(service).get("image"))))
                .isEqualTo("kcrawler/" + module + ":" + Repo.projectVersion());
        assertThat(Files.isRegularFile(Repo.file(module + "/pom.xml"))).as(module + " module").isTrue();
    }

    private static String healthcheck(String service) {
        Object test = map(service(service).get("healthcheck"), service + " healthcheck").get("test");
        return list(test, "healthcheck test").stream().map(String::valueOf).collect(Collectors.joining(" "));
    }

    private static List<String> volumes(String service) {
        return list(service(service).get("volumes"), service + " volumes").stream()
                .map(v -> Repo.interpolateDefaults(String.valueOf(v))).toList();
    }

    private static Map<String, String> dependsOn(String service) {
        Map<String, String> out = new LinkedHashMap<>();
        map(service(service).get("depends_on"), service + " depends_on")
                .forEach((k, v) -> out.put(k, String.valueOf(map(v, "condition").get("condition"))));
        return out;
    }

    static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
