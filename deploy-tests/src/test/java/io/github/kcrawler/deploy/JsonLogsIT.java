package io.github.kcrawler.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * JSON logs on request (issue 23): every service's own shaded jar, run as its image runs it, against a broker that
 * does not answer (so Kafka's clients log their warnings and the service its start-up), with
 * {@code CRAWLER_LOG_FORMAT=json} in the environment, or {@code --log-format json} on the command line for the
 * fetcher; and {@code crawler --log-format json seed} from the crawler-app jar. Every line each one writes must
 * parse as one JSON object with the encoder's fields, and the crawler's own lines and Kafka's must both be among
 * them (so the format reaches the crawler's loggers and the libraries').
 */
class JsonLogsIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path work;

    @Test
    void everyServiceAndTheCrawlerCommandWriteOneJsonObjectPerLine() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort(); // closed again below: nothing answers there
        }
        String nowhere = "127.0.0.1:" + closedPort;
        try (LocalContainers c = new LocalContainers(work)) {
            for (Deployable d : Deployable.values()) {
                Map<String, String> env = new LinkedHashMap<>(Map.of("CRAWLER_BOOTSTRAP_SERVERS", nowhere,
                        "CRAWLER_PARTITIONS", "2", "JAVA_OPTS", "-Xmx256m -XX:TieredStopAtLevel=1"));
                List<String> args = List.of();
                if (d == Deployable.FETCHER) {
                    args = List.of("--log-format", "json"); // the flag, applied after logging has started
                } else {
                    env.put("CRAWLER_LOG_FORMAT", "json");
                }
                KcrawlerImage.start(c, d.serviceName, d.serviceName, d.module, env, args, c.mounts(d.serviceName),
                        "1g", 1);
            }
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            c.start("seed", List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar",
                    KcrawlerImage.jar("crawler-app").toString(), "--log-format", "json", "seed",
                    "--bootstrap-servers", nowhere, "--seeds", "https://example.org/", "--wait-seconds", "10"),
                    Map.of());
            for (Deployable d : Deployable.values()) {
                LocalContainers.await(d.serviceName + " logged a line of Kafka's and one of its own",
                        Duration.ofMinutes(2), () -> loggers(c.log(d.serviceName)).contains("org.apache.kafka")
                                && loggers(c.log(d.serviceName)).contains("io.github.kcrawler"));
            }
            LocalContainers.await("crawler seed logged Kafka's warnings", Duration.ofMinutes(2),
                    () -> loggers(c.log("seed")).contains("org.apache.kafka"));
            for (String name : List.of("fetcher", "dedup", "scheduler", "ranker", "seed")) {
                String log = c.log(name);
                List<String> lines = log.lines().toList();
                assertThat(lines).as(name).hasSizeGreaterThan(1);
                for (String line : lines) {
                    if (name.equals("seed") && line.startsWith("crawler seed: ")) {
                        continue; // the command's own one-line verdict on stderr (not a log event) when it gives up
                    }
                    JsonNode o;
                    try {
                        o = JSON.readTree(line);
                    } catch (Exception e) {
                        throw new AssertionError(name + " wrote a line that is not JSON: " + line + "\n" + log, e);
                    }
                    assertThat(o.isObject()).as(name + ": " + line).isTrue();
                    for (String field : List.of("timestamp", "level", "threadName", "loggerName", "formattedMessage")) {
                        assertThat(o.has(field)).as(name + " line has " + field + ": " + line).isTrue();
                    }
                    assertThat(o.get("level").asText()).isIn("TRACE", "DEBUG", "INFO", "WARN", "ERROR");
                    assertThat(o.get("level").asText()).as(name + " logs at DEBUG").isNotIn("TRACE", "DEBUG");
                }
            }
        }
    }

    /** The logger-name prefixes of a log's JSON lines ("org.apache.kafka", "io.github.kcrawler", ...). */
    private static List<String> loggers(String log) {
        return log.lines().map(l -> {
            try {
                String logger = JSON.readTree(l).path("loggerName").asText("");
                String[] parts = logger.split("\\.");
                return parts.length >= 3 ? parts[0] + "." + parts[1] + "." + parts[2] : logger;
            } catch (Exception e) {
                return "";
            }
        }).distinct().toList();
    }
}
