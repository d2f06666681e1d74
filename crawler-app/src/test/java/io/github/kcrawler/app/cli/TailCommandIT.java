package io.github.kcrawler.app.cli;

import io.github.kcrawler.kafka.embedded.KafkaTestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code crawler tail} against a real embedded broker: through {@code --bootstrap-servers} while it runs, and
 * through {@code --data-dir} once it has stopped (the command starts the broker on that directory itself).
 */
class TailCommandIT {
    @TempDir
    Path dir;

    private static final String VALUE_1 = "{\"v\":1,\"url\":\"http://h1.websim.test/p/1\",\"status\":200}";
    private static final String VALUE_2 = "{\"v\":1,\"url\":\"http://h2.websim.test/p/2\",\"status\":404}";

    private static List<String> run(String... args) {
        StringWriter text = new StringWriter();
        CommandLine cmd = new CommandLine(new TailCommand());
        cmd.setOut(new PrintWriter(text));
        int code = cmd.execute(args);
        assertThat(code).as("exit code of tail " + String.join(" ", args)).isZero();
        return Arrays.stream(text.toString().split("\\R")).filter(l -> !l.isBlank()).toList();
    }

    @Test
    void printsKeyPartitionOffsetAndJson_fromARunningBroker_thenFromItsDataDirectory() {
        String bootstrap;
        try (KafkaTestCluster kafka = KafkaTestCluster.start(dir.resolve("kafka"))) {
            kafka.createTopics(1, "crawl.fetch.results");
            kafka.produce("crawl.fetch.results", "127.1.0.1", VALUE_1);
            kafka.produce("crawl.fetch.results", "127.1.0.2", VALUE_2);
            bootstrap = kafka.bootstrapServers();
            assertThat(run("crawl.fetch.results", "--from-beginning", "--max", "2", "--bootstrap-servers", bootstrap))
                    .containsExactly("key=127.1.0.1 partition=0 offset=0 " + VALUE_1,
                            "key=127.1.0.2 partition=0 offset=1 " + VALUE_2);
            // --max stops early; the running broker is found from the data directory too
            assertThat(run("crawl.fetch.results", "--from-beginning", "--max", "1", "--data-dir", dir.toString()))
                    .containsExactly("key=127.1.0.1 partition=0 offset=0 " + VALUE_1);
        }
        // the broker is stopped: tail starts it on dir/kafka, reads, and stops it again
        assertThat(run("crawl.fetch.results", "--from-beginning", "--timeout-ms", "3000", "--data-dir",
                dir.toString())).containsExactly("key=127.1.0.1 partition=0 offset=0 " + VALUE_1,
                "key=127.1.0.2 partition=0 offset=1 " + VALUE_2);
    }

    @Test
    void noBrokerInTheDataDirectory_failsWithAMessage() {
        StringWriter err = new StringWriter();
        CommandLine cmd = new CommandLine(new TailCommand());
        cmd.setErr(new PrintWriter(err));
        assertThat(cmd.execute("crawl.links", "--data-dir", dir.resolve("nothing").toString()))
                .isEqualTo(ExitCodes.FAILED);
        assertThat(err.toString()).contains("No embedded broker in");
    }
}
