package io.github.kcrawler.lab;

import io.github.kcrawler.app.cli.CrawlCommand;
import io.github.kcrawler.app.cli.ExitCodes;
import io.github.kcrawler.lab.demo.DemoRunner;
import io.github.kcrawler.app.runtime.CrawlOutcome;
import io.github.kcrawler.app.runtime.CrawlSession;
import io.github.kcrawler.app.runtime.SeedInjector;
import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.service.CrawlerService;
import io.github.kcrawler.common.service.DeadLetters;
import io.github.kcrawler.common.service.StreamsDefaults;
import io.github.kcrawler.common.service.StreamsRunner;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.websim.WebSim;
import io.github.kcrawler.websim.WebSimConfig;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 20, "done means": a deliberately broken record ends up in {@code crawl.deadletter} while the crawl continues,
 * and the crawl's exit code says that it happened. A real embedded broker, the four services and websim in one
 * process, plus a test-only Streams service ({@link Probe}, built like the crawler's own with
 * {@link StreamsDefaults} and {@link StreamsRunner}) that reads {@code crawl.urls.discovered} and throws on a record
 * marked with a header — a processor that fails deterministically on one record, without a back door in the product.
 * The probe's partition moves on (it consumes the records after the broken one; the idle rule waits for its lag
 * too), every reachable page is fetched, and {@link CrawlCommand#exitCode} answers {@link ExitCodes#DEAD_LETTERS}.
 */
class DeadLetterCrawlIT {
    private static final String POISON_HEADER = "test-poison";

    /** Throws on marked records, remembers the offsets of the others. */
    static final class Picky implements Processor<String, byte[], Void, Void> {
        private final Set<String> processed;
        private org.apache.kafka.streams.processor.api.ProcessorContext<Void, Void> context;

        Picky(Set<String> processed) {
            this.processed = processed;
        }

        @Override
        public void init(org.apache.kafka.streams.processor.api.ProcessorContext<Void, Void> context) {
            this.context = context;
        }

        @Override
        public void process(Record<String, byte[]> record) {
            if (record.headers().lastHeader(POISON_HEADER) != null) {
                throw new IllegalStateException("deliberately broken record for " + record.key());
            }
            context.recordMetadata().ifPresent(m -> processed.add(m.partition() + "@" + m.offset()));
        }
    }

    /** A Streams service of its own ({@code probe}), started beside the crawler's in the same runtime. */
    static final class Probe implements CrawlerService {
        final Set<String> processed = ConcurrentHashMap.newKeySet();
        private final StreamsRunner runner;

        Probe(KafkaSettings kafka, MeterRegistry registry) {
            Topology topology = new Topology();
            topology.addSource("discovered", new StringDeserializer(), new ByteArrayDeserializer(),
                    kafka.topics().discovered.name());
            topology.addProcessor("picky", () -> new Picky(processed), "discovered");
            runner = new StreamsRunner("probe", topology, StreamsDefaults.properties(kafka, "probe", 1, 100), registry);
        }

        @Override
        public String name() {
            return "probe";
        }

        @Override
        public void start() {
            runner.start();
        }

        @Override
        public boolean isHealthy() {
            return runner.isHealthy();
        }

        @Override
        public boolean settled() {
            return runner.settled();
        }

        @Override
        public String problem() {
            return runner.problem();
        }

        @Override
        public Optional<DeadLetters> deadLetters() {
            return runner.deadLetters();
        }

        @Override
        public void close() {
            runner.close();
        }
    }

    @Test
    void brokenRecordIsDeadLettered_crawlContinues_exitCodeSaysSo() throws Exception {
        Path dir = Path.of("target", "dead-letter-it");
        DemoRunner.deleteRecursively(dir);
        WebSimConfig web = WebSimConfig.builder().generate(80).ips(8).politenessMs(20).meanPagesPerHost(10)
                .hostsFile(dir.resolve("hosts")).build();
        try (WebSim websim = WebSim.start(web)) {
            Map<String, String> settings = Map.of("politeness-ms", "20", "hosts-file", websim.hostsFile().toString(),
                    "allow-addresses", "127.0.0.0/8");
            try (CrawlSession session = CrawlSession.start(dir, Optional.empty(), "", 2, settings, "127.0.0.1", 0)) {
                KafkaSettings kafka = session.runtime().kafka();
                Topics topics = session.runtime().topics();
                Probe probe = session.runtime().startService(new Probe(kafka, session.registry()), List.of());
                session.watchServices();

                String seed = websim.seedUrls().get(0);
                String ip = websim.layout().hostToIp().get(java.net.URI.create(seed).getHost());
                RecordMetadata poison;
                List<RecordMetadata> after = new ArrayList<>();
                try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(kafka.clientProperties(Map.of()),
                        new StringSerializer(), new ByteArraySerializer())) {
                    ProducerRecord<String, byte[]> bad = new ProducerRecord<>(topics.discovered.name(), ip,
                            topics.discovered.valueSerde().serializer().serialize(topics.discovered.name(),
                                    DiscoveredUrls.of(null, 0, System.currentTimeMillis(),
                                            List.of(new DiscoveredUrls.Entry(seed, ip)))));
                    bad.headers().add(POISON_HEADER, "1".getBytes(StandardCharsets.UTF_8));
                    poison = producer.send(bad).get(30, TimeUnit.SECONDS);
                    for (int i = 0; i < 3; i++) { // same key, same partition, after the broken one
                        after.add(producer.send(new ProducerRecord<>(topics.discovered.name(), ip,
                                topics.discovered.valueSerde().serializer().serialize(topics.discovered.name(),
                                        DiscoveredUrls.of(null, 0, System.currentTimeMillis(),
                                            List.of(new DiscoveredUrls.Entry(seed, ip)))))).get(30,
                                TimeUnit.SECONDS));
                    }
                }
                SeedInjector.inject(kafka, topics.discovered, websim.seedUrls(),
                        SeedInjector.resolver(websim.layout().hostToIp()), System.currentTimeMillis());

                session.awaitQuiet(Duration.ofMinutes(4), null, () -> false);
                CrawlOutcome outcome = session.outcome();

                // the crawl continued: it ended idle, healthy, with every reachable page fetched
                assertThat(outcome.ending()).isEqualTo(CrawlOutcome.Ending.IDLE);
                assertThat(outcome.problems()).isEmpty();
                BitSet reachable = websim.reachablePages(1000);
                BitSet missing = (BitSet) reachable.clone();
                missing.andNot(websim.fetchedPages());
                assertThat(missing.cardinality()).as("reachable pages not fetched").isZero();
                // the probe's partition moved on past the broken record
                for (RecordMetadata m : after) {
                    assertThat(m.partition()).isEqualTo(poison.partition());
                    assertThat(probe.processed).contains(m.partition() + "@" + m.offset());
                }
                assertThat(probe.processed).doesNotContain(poison.partition() + "@" + poison.offset());

                // the broken record is in crawl.deadletter, keyed as its source, with its reason
                List<ConsumerRecord<String, byte[]>> letters = readAll(kafka, topics.deadLetter.name());
                assertThat(letters).hasSize(1);
                ConsumerRecord<String, byte[]> letter = letters.get(0);
                assertThat(letter.key()).isEqualTo(ip);
                assertThat(header(letter, DeadLetters.HEADER_TOPIC)).isEqualTo(topics.discovered.name());
                assertThat(header(letter, DeadLetters.HEADER_PARTITION)).isEqualTo(Integer.toString(poison.partition()));
                assertThat(header(letter, DeadLetters.HEADER_OFFSET)).isEqualTo(Long.toString(poison.offset()));
                assertThat(header(letter, DeadLetters.HEADER_SERVICE)).isEqualTo("probe");
                assertThat(header(letter, DeadLetters.HEADER_EXCEPTION)).isEqualTo(IllegalStateException.class.getName());
                assertThat(session.registry().get(MetricNames.DEADLETTER_RECORDS).tag("service", "probe")
                        .tag("topic", topics.discovered.name()).counter().count()).isEqualTo(1.0);

                // and the exit code says so
                assertThat(outcome.deadLetters().count()).isEqualTo(1);
                assertThat(outcome.deadLetters().first().get(0).offset()).isEqualTo(poison.offset());
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                int code = CrawlCommand.exitCode(outcome, topics.deadLetter.name(),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
                assertThat(code).isEqualTo(ExitCodes.DEAD_LETTERS);
                assertThat(err.toString(StandardCharsets.UTF_8)).contains("dead-lettered to crawl.deadletter");
            }
        }
    }

    private static String header(ConsumerRecord<String, byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static List<ConsumerRecord<String, byte[]>> readAll(KafkaSettings kafka, String topic) {
        List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(kafka.clientProperties(Map.of(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false)), new StringDeserializer(), new ByteArrayDeserializer())) {
            List<org.apache.kafka.common.TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new org.apache.kafka.common.TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<org.apache.kafka.common.TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline
                    && partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }
}
