package io.github.kcrawler.fetcher;

import io.github.kcrawler.kafka.embedded.KafkaTestCluster;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClientLinks} against a real broker that goes away: the clients' closed connections are counted while the
 * broker is still down — the signal the fetcher's gate closes on, long before a transaction round is seen to stall —
 * and the count only grows.
 */
class ClientLinksIT {

    @Test
    void aBrokerGoingAwayIsSeenWhileItIsStillDown() throws Exception {
        try (KafkaTestCluster kafka = KafkaTestCluster.startTemporary()) {
            kafka.createTopics(1, "links");
            Map<String, Object> consumerProps = kafka.consumerProps("links-group");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(kafka.producerProps());
                 KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps)) {
                producer.send(new ProducerRecord<>("links", "k", "v")).get(30, TimeUnit.SECONDS);
                consumer.subscribe(List.of("links"));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (consumer.assignment().isEmpty() && System.nanoTime() < deadline) {
                    consumer.poll(Duration.ofMillis(100));
                }
                assertThat(consumer.assignment()).as("the consumer joined its group").isNotEmpty();

                ClientLinks links = new ClientLinks().watch(producer.metrics(), "producer-metrics")
                        .watch(consumer.metrics(), "consumer-metrics");
                assertThat(links.watched()).isEqualTo(2);
                assertThat(new ClientLinks().watch(producer.metrics(), "no-such-group").watched()).isZero();
                long before = links.closed();
                Thread.sleep(300);
                assertThat(links.closed()).as("no connection closes while the broker is there").isEqualTo(before);

                CompletableFuture<Void> restart = CompletableFuture.runAsync(kafka::restart);
                long seen = -1;
                while (!restart.isDone()) {
                    if (links.closed() > before) {
                        seen = links.closed();
                        break;
                    }
                    Thread.sleep(1);
                }
                assertThat(seen).as("closed connections counted before the broker was back").isGreaterThan(before);
                assertThat(restart.isDone()).as("the broker is still restarting").isFalse();
                restart.get(120, TimeUnit.SECONDS);
                assertThat(links.closed()).as("a cumulative count never goes back").isGreaterThanOrEqualTo(seen);

                // the clients work again after the restart
                producer.send(new ProducerRecord<>("links", "k", "w")).get(60, TimeUnit.SECONDS);
            }
        }
    }
}
