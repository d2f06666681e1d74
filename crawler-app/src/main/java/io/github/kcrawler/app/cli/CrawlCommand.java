package io.github.kcrawler.app.cli;

import io.github.kcrawler.app.runtime.CrawlOutcome;
import io.github.kcrawler.app.runtime.CrawlReport;
import io.github.kcrawler.app.runtime.CrawlSession;
import io.github.kcrawler.app.runtime.SeedInjector;
import io.github.kcrawler.app.runtime.WarcFiles;
import io.github.kcrawler.common.config.CommonSettings;
import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.common.scope.AddressPolicy;
import io.github.kcrawler.common.scope.CrawlScope;
import io.github.kcrawler.fetcher.FetcherConfig;
import io.github.kcrawler.fetcher.dns.HostsFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code crawler crawl}: crawl the real web. Started again on the same data directory it resumes: the broker's
 * topics, the services' state and the consumer offsets are all under {@code --data-dir}.
 */
@Command(name = "crawl", mixinStandardHelpOptions = true, sortOptions = false,
        resourceBundle = "io.github.kcrawler.app.cli.SettingFlagsHelp",
        description = {"Crawls from seed URLs with all services in this process (embedded broker unless",
                "--bootstrap-servers is given). Run it again on the same --data-dir to resume."},
        footerHeading = "%nExamples:%n",
        footer = {"  crawler crawl --seeds https://example.org/ --max-pages 1000 --set scope=same-host --status-port 9500",
                "  crawler crawl --seeds seeds.txt --politeness-ms 2000 --exit-when-idle",
                "  crawler crawl --seeds seeds.txt --bootstrap-servers kafka:9092 --data-dir /var/lib/crawler",
                "Stop with Ctrl-C; the same command on the same --data-dir resumes. Metrics: http://127.0.0.1:9400/metrics.",
                "",
                "Exit codes:", ExitCodes.CODES_OK, ExitCodes.CODES_FAILED, ExitCodes.CODES_USAGE,
                ExitCodes.CODES_DEAD_LETTERS})
public final class CrawlCommand implements Callable<Integer> {
    @Option(names = "--seeds", arity = "1..*", paramLabel = "FILE|URL",
            description = "Seed URLs, or files with one URL a line (# comments).", required = true)
    List<String> seeds;

    @Option(names = "--bootstrap-servers", description = "Use this Kafka cluster instead of an embedded broker.")
    String bootstrapServers;

    @Option(names = "--data-dir", description = "Broker data, service state and WARC files (default ${DEFAULT-VALUE}).")
    Path dataDir = Path.of("data");

    // the flags below set service settings: descriptions and defaults come from the declarations (SettingFlagsHelp)
    @Option(names = "--partitions", descriptionKey = "partitions")
    int partitions = KafkaSettings.PARTITIONS.defaultValue();

    @Option(names = "--topic-prefix", descriptionKey = "topic-prefix")
    String topicPrefix = KafkaSettings.TOPIC_PREFIX.defaultValue();

    @Option(names = "--politeness-ms", descriptionKey = "politeness-ms")
    long politenessMs = CommonSettings.POLITENESS_MS.defaultValue();

    @Option(names = "--max-pages", descriptionKey = "max-pages")
    long maxPages = FetcherConfig.Limits.MAX_PAGES.defaultValue();

    @Option(names = "--max-depth", descriptionKey = "max-depth")
    int maxDepth = CrawlScope.MAX_DEPTH.defaultValue();

    @Option(names = "--hosts-file", descriptionKey = "hosts-file")
    Path hostsFile;

    @Option(names = "--allow-addresses", descriptionKey = "allow-addresses")
    String allowAddresses;

    @Option(names = "--metrics-port", description = "Prometheus endpoint port on 127.0.0.1 (default ${DEFAULT-VALUE}).")
    int metricsPort = 9400;

    @Option(names = "--status-port", paramLabel = "P",
            description = "Status page on http://127.0.0.1:P/ (0 = a free port; default -1 = none).")
    int statusPort = -1;

    @Option(names = "--exit-when-idle", description = "Exit once nothing is pending, in flight or unconsumed.")
    boolean exitWhenIdle;

    @Option(names = "--max-seconds", description = "Stop after this long (default: run until stopped).")
    long maxSeconds = Long.MAX_VALUE / 4_000_000_000L;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = {"Any service setting, e.g. --set scope=same-host;",
            "Kafka client settings as --kafka.NAME=VALUE (as every service takes them; --set kafka.NAME=VALUE,",
            "deprecated, still works) or CRAWLER_KAFKA_* variables (secrets: use those)."})
    Map<String, String> settings = new LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        if (statusPort < -1 || statusPort > 65_535) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                    "--status-port must be in 0..65535 (or -1 for none), was " + statusPort);
        }
        Map<String, String> all = new LinkedHashMap<>();
        all.put(CommonSettings.POLITENESS_MS.key(), Long.toString(politenessMs));
        all.put(CrawlScope.MAX_DEPTH.key(), Integer.toString(maxDepth));
        all.put(FetcherConfig.Warc.DIR.key(), dataDir.resolve("warc").toString());
        if (maxPages > 0) {
            all.put(FetcherConfig.Limits.MAX_PAGES.key(), Long.toString(maxPages));
        }
        if (hostsFile != null) {
            all.put(FetcherConfig.Dns.HOSTS_FILE.key(), hostsFile.toString());
        }
        if (allowAddresses != null) {
            all.put(AddressPolicy.ALLOW_ADDRESSES.key(), allowAddresses);
        }
        Settings.kafkaFromEnv(System.getenv()).forEach((k, v) -> all.put(Settings.KAFKA_PREFIX + k, v));
        all.putAll(settings); // --set wins over CRAWLER_KAFKA_* variables
        List<String> seedUrls = readSeeds(seeds);
        HostsFile hosts = hostsFile == null ? HostsFile.empty() : HostsFile.load(hostsFile);
        AtomicBoolean stop = new AtomicBoolean();
        int code;
        CountDownLatch closed = new CountDownLatch(1);
        try (CrawlSession session = CrawlSession.start(dataDir, Optional.ofNullable(bootstrapServers), topicPrefix,
                partitions, all, "127.0.0.1", metricsPort)) {
            Thread hook = new Thread(() -> {
                stop.set(true);
                try {
                    closed.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "crawler-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            System.out.printf("Kafka at %s; metrics at http://127.0.0.1:%d/metrics; data in %s%n",
                    session.runtime().bootstrapServers(), session.metricsPort(), dataDir.toAbsolutePath());
            if (statusPort >= 0) {
                System.out.println("Status page: " + session.startStatusPage("127.0.0.1", statusPort));
            }
            SeedInjector.inject(session.runtime().kafka(), session.runtime().topics().discovered, seedUrls,
                    SeedInjector.resolver(host -> {
                        java.net.InetAddress a = hosts.lookup(host);
                        return a == null ? null : a.getHostAddress();
                    }), System.currentTimeMillis());
            Duration limit = Duration.ofSeconds(maxSeconds);
            session.run(limit, System.out, stop::get, exitWhenIdle);
            CrawlOutcome outcome = session.outcome();
            System.out.println(CrawlReport.of(session.monitor(), WarcFiles.in(dataDir.resolve("warc")),
                    outcome.deadLetters(), session.runtime().topics().deadLetter.name()).toText());
            System.out.printf("Next: resume with the same command; read the results with%n"
                    + "  java -cp crawler-app/target/crawler-app-0.1.0-SNAPSHOT-all.jar "
                    + "org.apache.kafka.tools.consumer.ConsoleConsumer --bootstrap-server %s --topic %s --from-beginning%n",
                    session.runtime().bootstrapServers(), session.runtime().topics().fetchResults.name());
            code = exitCode(outcome, session.runtime().topics().deadLetter.name(), System.err);
        } finally {
            closed.countDown();
        }
        return code;
    }

    /** The crawl's exit code ({@link ExitCodes#forCrawl}), with the reasons for a non-zero one on {@code err}. */
    public static int exitCode(CrawlOutcome outcome, String deadLetterTopic, java.io.PrintStream err) {
        int code = ExitCodes.forCrawl(outcome.serviceFailed(), false, outcome.deadLetters().count());
        if (code != ExitCodes.OK) {
            for (String reason : outcome.reasons(deadLetterTopic)) {
                err.println("crawler crawl: " + reason);
            }
            err.println("crawler crawl: exit code " + code);
        }
        return code;
    }

    static List<String> readSeeds(List<String> args) throws IOException {
        List<String> out = new ArrayList<>();
        for (String a : args) {
            if (a.contains("://")) {
                out.add(a);
                continue;
            }
            for (String line : Files.readAllLines(Path.of(a), StandardCharsets.UTF_8)) {
                String s = line.strip().replace("\uFEFF", "");
                if (!s.isEmpty() && !s.startsWith("#")) {
                    out.add(s);
                }
            }
        }
        return out;
    }
}
