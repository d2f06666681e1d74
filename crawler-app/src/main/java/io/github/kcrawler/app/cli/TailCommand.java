package io.github.kcrawler.app.cli;

import io.github.kcrawler.kafka.embedded.EmbeddedKafkaBroker;
import io.github.kcrawler.kafka.embedded.EmbeddedKafkaConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;

/**
 * {@code crawler tail TOPIC}: prints a topic's records — key, partition, offset and the value, which is compact
 * JSON on every crawl topic — from a running cluster or from the embedded broker of a crawl's data directory.
 * With {@code --data-dir} it connects to the crawl's broker when that crawl is running (the port is remembered in
 * {@code DIR/kafka/embedded-kafka.properties}), and otherwise starts the broker on that directory for the time of
 * the command, as a crawl restarting there would. Reads committed records only (the services write in
 * transactions) and joins no consumer group, so it moves no crawl's offsets.
 */
@Command(name = "tail", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Prints a topic's records (key, partition, offset, value) from a crawl's embedded broker or a "
                + "Kafka cluster.", "Values are the crawl's compact JSON; Kafka's own kafka-console-consumer reads "
                + "the same topics (README, \"Looking inside with Kafka's own tools\")."},
        footerHeading = "%nExamples:%n",
        footer = {"  crawler tail crawl.fetch.results --from-beginning --max 5          the crawl in ./data",
                "  crawler tail crawl.rank.scores --data-dir data/demo --from-beginning --max 3",
                "  crawler tail crawl.urls.discovered --bootstrap-servers kafka:9092   new records as they come",
                "", "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED, ExitCodes.CODES_USAGE})
public final class TailCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TOPIC", description = "The topic, e.g. crawl.fetch.results.")
    String topic;

    @Option(names = "--from-beginning", description = "Start at the earliest record (default: only new records).")
    boolean fromBeginning;

    @Option(names = "--max", paramLabel = "N", description = "Stop after N records (default: never).")
    long max = Long.MAX_VALUE;

    @Option(names = "--timeout-ms", paramLabel = "MS",
            description = "Stop when no record arrived for MS milliseconds (default: never).")
    long timeoutMs = 0;

    static final class Source {
        @Option(names = "--bootstrap-servers", paramLabel = "B", description = "A Kafka cluster.")
        String bootstrapServers;

        @Option(names = "--data-dir", paramLabel = "D",
                description = "A crawl's data directory; its embedded broker is in D/kafka (default ./data).")
        Path dataDir;
    }

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Source source;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (max < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--max must be >= 1, was " + max);
        }
        if (timeoutMs < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--timeout-ms must be >= 0, was " + timeoutMs);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (source != null && source.bootstrapServers != null) {
            return tail(source.bootstrapServers, out);
        }
        Path kafkaDir = (source != null && source.dataDir != null ? source.dataDir : Path.of("data")).resolve("kafka");
        Path state = kafkaDir.resolve(EmbeddedKafkaBroker.STATE_FILE);
        if (!Files.exists(state)) {
            spec.commandLine().getErr().println("No embedded broker in " + kafkaDir + " (no " + state.getFileName()
                    + "); give the crawl's --data-dir or --bootstrap-servers.");
            return ExitCodes.FAILED;
        }
        int port = brokerPort(state);
        if (port > 0 && listening(port)) {
            return tail("127.0.0.1:" + port, out);
        }
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(EmbeddedKafkaConfig.of(kafkaDir))) {
            return tail(broker.bootstrapServers(), out);
        }
    }

    private int tail(String bootstrap, PrintWriter out) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "crawler-tail");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
            if (infos == null || infos.isEmpty()) {
                spec.commandLine().getErr().println("No topic " + topic + " at " + bootstrap);
                return ExitCodes.FAILED;
            }
            List<TopicPartition> partitions = new ArrayList<>();
            infos.forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
            consumer.assign(partitions);
            if (fromBeginning) {
                consumer.seekToBeginning(partitions);
            } else {
                consumer.seekToEnd(partitions);
            }
            long printed = 0;
            long lastRecord = System.nanoTime();
            while (printed < max) {
                var records = consumer.poll(Duration.ofMillis(200));
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    out.println(line(r.key(), r.partition(), r.offset(), r.value()));
                    lastRecord = System.nanoTime();
                    if (++printed >= max) {
                        break;
                    }
                }
                out.flush();
                if (timeoutMs > 0 && System.nanoTime() - lastRecord > timeoutMs * 1_000_000L) {
                    break;
                }
            }
            out.flush();
            return ExitCodes.OK;
        }
    }

    /** One record as printed: {@code key=K partition=P offset=O VALUE}; bytes shown as UTF-8, null as "null". */
    static String line(byte[] key, int partition, long offset, byte[] value) {
        return "key=" + text(key) + " partition=" + partition + " offset=" + offset + " " + text(value);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }

    private static int brokerPort(Path state) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(state)) {
            p.load(in);
        }
        try {
            return Integer.parseInt(p.getProperty("broker.port", "0").trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
