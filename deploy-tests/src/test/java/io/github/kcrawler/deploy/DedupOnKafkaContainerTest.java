package io.github.kcrawler.deploy;

import io.github.kcrawler.common.metrics.MetricsServer;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.dedup.DedupConfig;
import io.github.kcrawler.dedup.DedupService;
import io.github.kcrawler.kafka.embedded.TopicProvisioner;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.internals.AppInfoParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dedup service as its container runs it (settings from the compose file's environment, topics created up
 * front) against the Kafka image the deployment uses. Needs a Docker engine; skipped without one.
 */
@Testcontainers(disabledWithoutDocker = true)
class DedupOnKafkaContainerTest {
    @Container
    static final KafkaContainer KAFKA = new KafkaContainer("apache/kafka:" + AppInfoParser.getVersion());

    @Test
    void admitsEachDiscoveredUrlOnceAndReportsHealthy(@TempDir Path stateDir) throws Exception {
        int partitions = 4;
        Map<String, String> env = new HashMap<>(Repo.composeEnvironment(
                Repo.map(Repo.map(Repo.yamlMap(Repo.file("docker-compose.yml")).get("services"), "services")
                        .get("dedup"), "dedup").get("environment")));
        env.keySet().removeIf(k -> !k.startsWith("CRAWLER_"));
        env.put("CRAWLER_BOOTSTRAP_SERVERS", KAFKA.getBootstrapServers());
        env.put("CRAWLER_PARTITIONS", Integer.toString(partitions));
        env.put("CRAWLER_STATE_DIR", stateDir.toString());
        env.put("CRAWLER_METRICS_PORT", "0");
        DedupConfig config = (DedupConfig) Deployable.DEDUP.configure(env, List.of("--kafka.num.standby.replicas=0"));

        List<NewTopic> topics = new ArrayList<>();
        for (String name : Deployable.pipelineTopics()) {
            topics.add(new NewTopic(name, Optional.of(partitions), Optional.empty()));
        }
        for (String name : DedupService.internalTopics(config)) {
            topics.add(new NewTopic(name, Optional.of(partitions), Optional.empty())
                    .configs(Map.of("cleanup.policy", "compact")));
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.getBootstrapServers()))) {
            TopicProvisioner.ensureTopics(admin, topics, Duration.ofSeconds(60));
        }

        PrometheusMeterRegistry registry = MetricsServer.newRegistry();
        try (DedupService service = new DedupService(config, registry);
             MetricsServer metrics = MetricsServer.start(registry, "127.0.0.1", 0, service::isHealthy)) {
            service.start();
            HttpClient http = HttpClient.newHttpClient();
            URI health = URI.create("http://127.0.0.1:" + metrics.port() + "/health");
            await().atMost(Duration.ofSeconds(90)).until(() ->
                    http.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString()).statusCode() == 200);

            Topics t = Topics.defaults();
            Map<String, Object> producerProps = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.getBootstrapServers());
            try (KafkaProducer<String, DiscoveredUrls> producer = new KafkaProducer<>(producerProps, new StringSerializer(),
                    t.discovered.valueSerde().serializer())) {
                for (int i = 0; i < 3; i++) {
                    producer.send(new ProducerRecord<>(t.discovered.name(), "192.0.2.7",
                            DiscoveredUrls.of("http://once.test/", 1, System.currentTimeMillis(),
                                    List.of(new DiscoveredUrls.Entry("http://once.test/page", "192.0.2.7")))));
                }
                producer.flush();
            }

            Map<String, Object> consumerProps = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.getBootstrapServers(),
                    ConsumerConfig.GROUP_ID_CONFIG, "dedup-container-test", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            List<ConsumerRecord<String, String>> admitted = new ArrayList<>();
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps, new StringDeserializer(),
                    new StringDeserializer())) {
                consumer.subscribe(List.of(t.admitted.name()));
                await().atMost(Duration.ofSeconds(60)).until(() -> {
                    consumer.poll(Duration.ofMillis(500)).forEach(admitted::add);
                    return !admitted.isEmpty();
                });
                // the two duplicates must not follow: poll a little longer
                long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
                while (System.nanoTime() < until) {
                    consumer.poll(Duration.ofMillis(500)).forEach(admitted::add);
                }
            }
            assertThat(admitted).hasSize(1);
            assertThat(admitted.get(0).key()).isEqualTo("192.0.2.7");
            assertThat(admitted.get(0).value()).contains("http://once.test/page");
        }
    }
}
