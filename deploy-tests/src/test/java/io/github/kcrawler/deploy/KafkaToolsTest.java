package io.github.kcrawler.deploy;

import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.kafka.embedded.KafkaTestCluster;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.tools.TopicCommand;
import org.apache.kafka.tools.consumer.ConsoleConsumer;
import org.apache.kafka.tools.consumer.group.ConsumerGroupCommand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Kafka tools docs/DEPLOYMENT.md shows (listing topics, reading a topic, consumer-group lag), run from the
 * {@code kafka-tools} artifact against the project's embedded broker, with what they print parsed back.
 */
class KafkaToolsTest {
    private static final String TOPIC = Topics.FETCH_RESULTS;
    private static final String GROUP = "scheduler";
    private static final Map<String, String> RECORDS = new LinkedHashMap<>();
    private static KafkaTestCluster kafka;

    static {
        RECORDS.put("192.0.2.1", "{\"v\":1,\"url\":\"http://a.test/\",\"status\":200}");
        RECORDS.put("192.0.2.2", "{\"v\":1,\"url\":\"http://b.test/\",\"status\":404}");
        RECORDS.put("192.0.2.3", "{\"v\":1,\"url\":\"http://c.test/\",\"status\":200}");
    }

    @BeforeAll
    static void startBrokerWithOnePartitionOfThreeRecordsAndAGroupAtOffsetOne() throws Exception {
        kafka = KafkaTestCluster.startTemporary();
        kafka.createTopics(1, TOPIC);
        kafka.produce(TOPIC, RECORDS);
        kafka.admin().alterConsumerGroupOffsets(GROUP, Map.of(new TopicPartition(TOPIC, 0), new OffsetAndMetadata(1)))
                .all().get();
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    @Test
    void topicCommandListsTheTopic() throws Exception {
        ToolRun run = run(args -> TopicCommand.main(args), "--bootstrap-server", kafka.bootstrapServers(), "--list");
        assertThat(run.exitCode).isIn(-1, 0);
        assertThat(run.lines()).contains(TOPIC);
    }

    @Test
    void consoleConsumerPrintsKeyAndJsonValueOfEveryRecord() throws Exception {
        ToolRun run = run(ConsoleConsumer::main, "--bootstrap-server", kafka.bootstrapServers(), "--topic", TOPIC,
                "--from-beginning", "--formatter-property", "print.key=true", "--formatter-property", "key.separator=|",
                "--max-messages", "3", "--timeout-ms", "30000", "--group", "kcrawler-tools-test-reader");
        assertThat(run.exitCode).as(run.out).isIn(-1, 0);
        Map<String, String> printed = new LinkedHashMap<>();
        for (String line : run.lines()) {
            int bar = line.indexOf('|');
            if (bar > 0) {
                printed.put(line.substring(0, bar), line.substring(bar + 1));
            }
        }
        assertThat(printed).isEqualTo(RECORDS);
    }

    @Test
    void consumerGroupCommandShowsTheLagOfTheGroup() throws Exception {
        ToolRun run = run(ConsumerGroupCommand::main, "--bootstrap-server", kafka.bootstrapServers(), "--describe",
                "--group", GROUP);
        assertThat(run.exitCode).as(run.out).isIn(-1, 0);
        List<Map<String, String>> rows = table(run.lines(), "GROUP");
        assertThat(rows).hasSize(1);
        Map<String, String> row = rows.get(0);
        assertThat(row).containsEntry("GROUP", GROUP).containsEntry("TOPIC", TOPIC).containsEntry("PARTITION", "0")
                .containsEntry("CURRENT-OFFSET", "1").containsEntry("LOG-END-OFFSET", "3").containsEntry("LAG", "2");
    }

    @Test
    void consumerGroupCommandListsTheGroups() throws Exception {
        ToolRun run = run(ConsumerGroupCommand::main, "--bootstrap-server", kafka.bootstrapServers(), "--list");
        assertThat(run.exitCode).as(run.out).isIn(-1, 0);
        assertThat(run.lines()).contains(GROUP);
    }

    /** Rows of the whitespace-separated table whose header line starts with {@code firstColumn}. */
    private static List<Map<String, String>> table(List<String> lines, String firstColumn) {
        List<Map<String, String>> rows = new ArrayList<>();
        String[] header = null;
        for (String line : lines) {
            String[] cells = line.trim().split("\\s+");
            if (header == null) {
                if (cells[0].equals(firstColumn)) {
                    header = cells;
                }
            } else if (cells.length >= 6) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 0; i < Math.min(header.length, cells.length); i++) {
                    row.put(header[i], cells[i]);
                }
                rows.add(row);
            }
        }
        assertThat(header).as("a table with header " + firstColumn + " in:\n" + String.join("\n", lines)).isNotNull();
        return rows;
    }

    interface ToolMain {
        void main(String[] args) throws Exception;
    }

    record ToolRun(int exitCode, String out) {
        List<String> lines() {
            return out.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        }
    }

    /**
     * Runs a tool's main with System.out captured and Kafka's {@code Exit} replaced, so no tool ends the JVM. The
     * replacement records the status and returns (TopicCommand catches any exception its own exit throws and turns
     * it into status 1), so the exit code is the first status the tool asked for, -1 if it asked for none.
     */
    private static synchronized ToolRun run(ToolMain tool, String... args) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        List<Integer> exits = new ArrayList<>();
        Exit.setExitProcedure((code, message) -> exits.add(code));
        Exit.setShutdownHookAdder((name, hook) -> { });
        try (PrintStream capture = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            tool.main(args);
        } finally {
            System.setOut(original);
            Exit.resetExitProcedure();
            Exit.resetShutdownHookAdder();
        }
        int exitCode = exits.isEmpty() ? -1 : exits.get(0);
        return new ToolRun(exitCode, buffer.toString(StandardCharsets.UTF_8));
    }
}
