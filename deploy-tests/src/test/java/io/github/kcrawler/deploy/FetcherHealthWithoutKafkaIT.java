package io.github.kcrawler.deploy;

import io.github.kcrawler.kafka.embedded.KafkaTestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fetcher's shaded jar, as its image runs it, answers /health with 200 while its broker is up and turns
 * unhealthy (503) once the broker has been unreachable for longer than KafkaReachability's window (issue 23: it
 * stayed 200, so no liveness probe or compose health check noticed), and healthy again when the broker is back.
 */
class FetcherHealthWithoutKafkaIT {
    @TempDir
    Path work;

    @Test
    void healthFollowsKafkaReachability() throws Exception {
        Path data = KafkaTestCluster.newTemporaryDirectory("fetcher-health-kafka-");
        KafkaTestCluster kafka = KafkaTestCluster.start(data);
        try (LocalContainers c = new LocalContainers(work)) {
            kafka.createTopics(2, Deployable.pipelineTopics().toArray(String[]::new));
            Map<String, String> env = Map.of("CRAWLER_BOOTSTRAP_SERVERS", kafka.bootstrapServers(),
                    "CRAWLER_PARTITIONS", "2", "CRAWLER_METRICS_HOST", "0.0.0.0",
                    "JAVA_OPTS", "-Xmx256m -XX:TieredStopAtLevel=1");
            KcrawlerImage.start(c, "fetcher", "fetcher", "fetcher-service", env, List.of(), c.mounts("fetcher"),
                    "1g", 2);
            KafkaTestCluster up = kafka;
            LocalContainers.await("fetcher joined its group", Duration.ofMinutes(2), () -> {
                try {
                    return !up.admin().describeConsumerGroups(List.of("fetcher")).all().get().get("fetcher")
                            .members().isEmpty();
                } catch (Exception e) {
                    return false;
                }
            });
            assertThat(c.httpStatus("fetcher", 9400, "/health")).isEqualTo(200);
            Thread.sleep(6000); // a probe answered after the join
            kafka.close();
            long stopped = System.nanoTime();
            LocalContainers.await("fetcher unhealthy without Kafka", Duration.ofSeconds(90),
                    () -> c.httpStatus("fetcher", 9400, "/health") == 503);
            assertThat(Duration.ofNanos(System.nanoTime() - stopped)).isGreaterThanOrEqualTo(Duration.ofSeconds(25));
            assertThat(c.log("fetcher")).contains("Kafka unreachable");
            kafka = KafkaTestCluster.start(data);
            LocalContainers.await("fetcher healthy again", Duration.ofMinutes(2),
                    () -> c.httpStatus("fetcher", 9400, "/health") == 200);
            List<String> lines = new ArrayList<>(c.log("fetcher").lines().toList());
            assertThat(lines).as("a bounded log while the broker was away (issue 23 counted 77,670 lines)")
                    .hasSizeLessThan(2000);
        } finally {
            kafka.close();
            KafkaTestCluster.deleteRecursively(data);
        }
    }
}
