package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.kafka.embedded.KafkaTestCluster;
import io.github.kcrawler.kafka.embedded.TopicRecord;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link TransactionalOutput}'s kept results against a real broker: a job whose partition left this instance before
 * its results were committed (lost with the broker, say) is not fetched again when the same record comes back here —
 * its results answer the new delivery and commit its offset, exactly once — and they are dropped when the record
 * cannot come back. The partition's leaving and return are driven on the {@link OffsetTracker} as the consumer
 * thread's rebalance callbacks drive it; the transactions, the group's offsets and the read_committed results are
 * Kafka's.
 */
class KeptResultsIT {
    private static final AtomicInteger RUN = new AtomicInteger();
    private static KafkaTestCluster kafka;

    private String requests;
    private String results;
    private String group;
    private TopicPartition tp;
    private KafkaConsumer<String, String> consumer;
    private KafkaProducer<String, byte[]> producer;
    private SimpleMeterRegistry registry;
    private OffsetTracker tracker;
    private TransactionalOutput output;
    /** Jobs over, with their error ("none" when there was none). */
    private final List<String> over = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startKafka() {
        kafka = KafkaTestCluster.startTemporary();
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @BeforeEach
    void groupMemberAndProducer() {
        int run = RUN.incrementAndGet();
        requests = "kept-req-" + run;
        results = "kept-out-" + run;
        group = "kept-fetcher-" + run;
        kafka.createTopics(1, requests, results);
        tp = new TopicPartition(requests, 0);
        kafka.produce(requests, "k", "request 0");
        consumer = new KafkaConsumer<>(kafka.consumerProps(group));
        consumer.subscribe(List.of(requests));
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (consumer.assignment().isEmpty()) {
            assertThat(System.nanoTime()).as("assigned within 60 s").isLessThan(deadline);
            consumer.poll(Duration.ofMillis(100));
        }
        consumer.pause(consumer.assignment()); // a member of its group (a generation) that takes no records
        Map<String, Object> props = kafka.transactionalProducerProps("kept-" + run);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        producer = new KafkaProducer<>(props);
        registry = new SimpleMeterRegistry();
        tracker = new OffsetTracker();
        output = new TransactionalOutput(producer, tracker, new FetchMetrics(registry, requests, () -> 0), () -> true);
        output.init();
    }

    @AfterEach
    void close() {
        output.close();
        producer.close();
        consumer.close();
    }

    /** The job of offset 0 with its one result built, as the publisher leaves it for the consumer thread. */
    private Completion built(OffsetTracker.Slot slot) {
        String url = "http://127.0.0.1:1/page";
        FetchJob job = new FetchJob("127.0.0.1", FetchRequest.fresh(url, Fingerprints.url(url), 0, 1, 0), slot);
        Completion c = new Completion(job, 1, (j, e) -> over.add(e == null ? "none" : e.toString()));
        assertThat(c.stage(new ProducerRecord<>(results, "127.0.0.1", "page".getBytes(StandardCharsets.UTF_8))))
                .isTrue();
        return c;
    }

    private TransactionalOutput.Result commit() {
        return output.commit(false, tracker.partitions(), consumer.groupMetadata());
    }

    private List<TopicRecord> committedResults() {
        return kafka.readAll(results, Duration.ofSeconds(30));
    }

    /** The group's committed offset, once the transaction's markers made it visible (they follow its commit). */
    private long committedOffset() {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        OffsetAndMetadata c;
        while ((c = consumer.committed(Set.of(tp), Duration.ofSeconds(30)).get(tp)) == null) {
            assertThat(System.nanoTime()).as("a committed offset within 30 s").isLessThan(deadline);
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
        return c.offset();
    }

    private double answered() {
        return registry.get("crawler.fetch.redelivered.answered").counter().count();
    }

    @Test
    void resultsReadyWhenThePartitionLeftAnswerTheRecordsNextDeliveryHere() {
        OffsetTracker.Slot first = tracker.add(tp, 0);
        first.started();
        output.ready(built(first));
        tracker.remove(List.of(tp)); // lost (the broker went away) before the next transaction
        assertThat(commit()).as("nothing of this member's to commit").isEqualTo(TransactionalOutput.Result.NOTHING);
        assertThat(output.kept().size()).isEqualTo(1);
        assertThat(over).as("the job is not over: its results wait").isEmpty();
        assertThat(first.hasGivenUp()).isFalse();

        OffsetTracker.Slot again = tracker.add(tp, 0); // the partition came back; Kafka delivers offset 0 again
        output.kept().passed(tp, 0);
        assertThat(output.answer(again)).isTrue();
        assertThat(again.isAnswered()).isTrue();
        assertThat(output.kept().size()).isZero();
        assertThat(commit()).isEqualTo(TransactionalOutput.Result.COMMITTED);

        assertThat(again.isDone()).isTrue();
        assertThat(over).containsExactly("none");
        assertThat(committedResults()).extracting(TopicRecord::value).containsExactly("page");
        assertThat(committedOffset()).as("the record counts as finished").isEqualTo(1);
        assertThat(answered()).isEqualTo(1.0);
    }

    @Test
    void aDeliveryWaitingForItsEarlierOneIsAnsweredWhenThoseResultsBecomeReady() {
        OffsetTracker.Slot first = tracker.add(tp, 0);
        first.started(); // on the network
        tracker.remove(List.of(tp));
        OffsetTracker.Slot again = tracker.add(tp, 0);
        output.kept().passed(tp, 0);
        assertThat(output.answer(again)).as("no results yet").isFalse();
        again.started(); // handed to the pipeline, where it waits for the earlier delivery
        assertThat(again.earlier()).isSameAs(first);
        assertThat(first.later()).isSameAs(again);

        output.ready(built(first)); // the earlier fetch finished after its partition had left
        assertThat(commit()).isEqualTo(TransactionalOutput.Result.COMMITTED);

        assertThat(again.isAnswered()).isTrue();
        assertThat(again.isDone()).isTrue();
        assertThat(output.kept().size()).isZero();
        assertThat(over).containsExactly("none");
        assertThat(committedResults()).extracting(TopicRecord::value).containsExactly("page");
        assertThat(committedOffset()).isEqualTo(1);
        assertThat(answered()).isEqualTo(1.0);
    }

    @Test
    void keptResultsAreDroppedOnceTheirRecordCannotComeBackHere() {
        OffsetTracker.Slot first = tracker.add(tp, 0);
        first.started();
        output.ready(built(first));
        tracker.remove(List.of(tp));
        commit();
        assertThat(output.kept().size()).isEqualTo(1);

        output.kept().retain(Set.of(tp)); // a rebalance gave the partition back: kept
        assertThat(output.kept().size()).isEqualTo(1);
        output.kept().passed(tp, 0); // delivery starts at the record: kept
        assertThat(output.kept().size()).isEqualTo(1);
        output.kept().passed(tp, 1); // delivery starts after it (another owner committed past it)
        assertThat(output.kept().size()).isZero();
        assertThat(over).containsExactly("none"); // over without results: the request is someone else's
        assertThat(first.hasGivenUp()).as("a later delivery here must fetch it").isTrue();

        OffsetTracker.Slot second = tracker.add(tp, 1);
        second.started();
        output.ready(built(second));
        tracker.remove(List.of(tp));
        commit();
        assertThat(output.kept().size()).isEqualTo(1);
        output.kept().retain(Set.of()); // the rebalance is over and the partition went elsewhere
        assertThat(output.kept().size()).isZero();
        assertThat(second.hasGivenUp()).isTrue();
        OffsetTracker.Slot back = tracker.add(tp, 1);
        assertThat(output.answer(back)).as("nothing kept any more: it is fetched").isFalse();

        back.started(); // on the network when the partition left again; the rebalance has ended elsewhere
        tracker.remove(List.of(tp));
        output.ready(built(back));
        commit();
        assertThat(output.kept().size()).as("not kept: the partition is another member's until the next rebalance")
                .isZero();
        assertThat(back.hasGivenUp()).isTrue();
        assertThat(committedResults()).isEmpty();
        assertThat(answered()).isZero();
    }
}
