package io.github.kcrawler.deploy;

import io.github.kcrawler.kafka.embedded.EmbeddedKafkaConfig;
import io.github.kcrawler.kafka.embedded.KafkaTestCluster;
import io.github.kcrawler.kafka.embedded.TopicProvisioner;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * k8s/base/kafka/create-topics.sh, the topic step of compose and Kubernetes, run for real against the embedded
 * broker: {@code kafka-topics.sh} is a two-line shim around Kafka's own {@code TopicCommand} from the test classpath
 * (the apache/kafka image's script does the same with its own jars).
 */
class CreateTopicsScriptIT {
    private static final int PARTITIONS = 3;
    private static KafkaTestCluster kafka;
    @TempDir
    static Path bin;

    @BeforeAll
    static void startBrokerAndShim() throws Exception {
        kafka = KafkaTestCluster.startTemporary();
        KafkaCliShim.write(bin, "kafka-topics.sh", "org.apache.kafka.tools.TopicCommand",
                List.of("-XX:TieredStopAtLevel=1"));
        KafkaCliShim.write(bin, "kafka-features.sh", "org.apache.kafka.tools.FeatureCommand",
                List.of("-XX:TieredStopAtLevel=1"));
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    @Test
    void createsEveryTopicCoPartitionedWithCompactedChangelogsAndIsIdempotent() throws Exception {
        Result first = runScript("");
        assertThat(first.exitCode).as(first.output).isZero();
        List<String> all = new ArrayList<>(Deployable.pipelineTopics());
        all.addAll(Deployable.changelogTopics());
        Map<String, Integer> counts = TopicProvisioner.partitionCounts(kafka.admin(), all, Duration.ofSeconds(30));
        assertThat(counts).hasSize(all.size()).allSatisfy((t, n) -> assertThat(n).as(t).isEqualTo(PARTITIONS));
        for (String changelog : Deployable.changelogTopics()) {
            ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, changelog);
            Config config = kafka.admin().describeConfigs(List.of(r)).all().get().get(r);
            assertThat(config.get("cleanup.policy").value()).as(changelog).isEqualTo("compact");
        }

        Result again = runScript("");
        assertThat(again.exitCode).as(again.output).isZero();
        assertThat(again.output).contains("exists").contains("ready (" + PARTITIONS + " partitions each");
        // the embedded broker is formatted at transaction.version 1 already: nothing to change
        assertThat(first.output).contains("transaction.version is 1");
    }

    @Test
    void failsWhenAnExistingTopicHasAnotherPartitionCount() throws Exception {
        String prefix = "other.";
        List<String> all = new ArrayList<>(Deployable.pipelineTopics());
        all.addAll(Deployable.changelogTopics());
        for (String t : all) {
            kafka.createTopics(t.equals("crawl.links") ? PARTITIONS + 1 : PARTITIONS, prefix + t);
        }
        Result run = runScript(prefix);
        assertThat(run.exitCode).isEqualTo(1);
        assertThat(run.output).contains("other.crawl.links has " + (PARTITIONS + 1) + " partitions, expected " + PARTITIONS);
    }

    /** A secured cluster: the script's COMMAND_CONFIG file carries the SASL settings to kafka-topics.sh. */
    @Test
    void createsTopicsOnASaslClusterWithACommandConfigFile() throws Exception {
        Path dir = KafkaTestCluster.newTemporaryDirectory("kafka-sasl-topics-");
        try (KafkaTestCluster sasl = KafkaTestCluster.start(EmbeddedKafkaConfig.of(dir)
                .withSaslPlain("topics", "topics-secret"))) {
            Path clientProperties = bin.resolve("client.properties");
            Properties p = new Properties();
            p.putAll(sasl.broker().securityConfig());
            try (var out = Files.newOutputStream(clientProperties)) {
                p.store(out, null);
            }
            // all topics but one exist already, so the script lists, creates one and describes (each a JVM start)
            List<String> all = new ArrayList<>(Deployable.pipelineTopics());
            all.addAll(Deployable.changelogTopics());
            sasl.createTopics(PARTITIONS, all.stream().filter(t -> !t.equals("crawl.links")).toArray(String[]::new));
            Result run = runScript(sasl.bootstrapServers(), "", Map.of("COMMAND_CONFIG", clientProperties.toString()));
            assertThat(run.exitCode).as(run.output).isZero();
            assertThat(run.output).doesNotContain("topics-secret").contains("crawl.urls.discovered exists");
            assertThat(TopicProvisioner.partitionCounts(sasl.admin(), all, Duration.ofSeconds(30)))
                    .hasSize(all.size()).allSatisfy((t, n) -> assertThat(n).as(t).isEqualTo(PARTITIONS));
        } finally {
            KafkaTestCluster.deleteRecursively(dir);
        }
    }

    private record Result(int exitCode, String output) {
    }

    private static Result runScript(String prefix) throws Exception {
        return runScript(kafka.bootstrapServers(), prefix, Map.of());
    }

    private static Result runScript(String bootstrap, String prefix, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("sh", Repo.file("k8s/base/kafka/create-topics.sh").toString())
                .redirectErrorStream(true);
        pb.environment().putAll(Map.of("BOOTSTRAP_SERVERS", bootstrap, "PARTITIONS",
                Integer.toString(PARTITIONS), "REPLICATION_FACTOR", "1", "TOPIC_PREFIX", prefix,
                "KAFKA_BIN", bin.toString(), "WAIT_SECONDS", "60"));
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        return new Result(p.exitValue(), out);
    }
}
