package io.github.kcrawler.app.cli;

import io.github.kcrawler.app.runtime.SeedInjector;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.fetcher.dns.HostsFile;
import io.github.kcrawler.kafka.embedded.TopicProvisioner;
import org.apache.kafka.clients.admin.Admin;
import io.github.kcrawler.common.config.KafkaSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code crawler seed}: puts seed URLs on {@code crawl.urls.discovered} of a running cluster and exits. No broker
 * and no service runs in this process, so it is the one-shot seeding step of a compose or Kubernetes deployment
 * ({@code crawler crawl --bootstrap-servers} also runs all four services in-process). Seeding again is harmless:
 * the URL-seen test admits each URL once.
 *
 * <p>Exit status: 0 when at least one seed was accepted (or none was given), 1 when every seed was rejected (not an
 * http(s) URL, or its host does not resolve), 2 on bad arguments; a topic that does not become writable in
 * {@code --wait-seconds} fails with an exception (status 1).
 */
@Command(name = "seed", mixinStandardHelpOptions = true, sortOptions = false,
        resourceBundle = "io.github.kcrawler.app.cli.SettingFlagsHelp",
        description = {"Puts seed URLs on crawl.urls.discovered of a running Kafka cluster and exits",
                "(no embedded broker, no services). The topics must exist."})
public final class SeedCommand implements Callable<Integer> {
    @Option(names = "--seeds", arity = "1..*", paramLabel = "FILE|URL", required = true,
            description = "Seed URLs, or files with one URL a line (# comments).")
    List<String> seeds;

    @Option(names = "--bootstrap-servers", required = true, description = "The Kafka cluster.")
    String bootstrapServers;

    // descriptions and the default from the settings' declarations (SettingFlagsHelp), as the services print them
    @Option(names = "--topic-prefix", descriptionKey = "topic-prefix")
    String topicPrefix = KafkaSettings.TOPIC_PREFIX.defaultValue();

    @Option(names = "--hosts-file", descriptionKey = "hosts-file")
    Path hostsFile;

    @Mixin
    KafkaClientOptions kafka = new KafkaClientOptions();

    @Option(names = "--wait-seconds", description = "How long to wait for the topic to be writable (default ${DEFAULT-VALUE}).")
    long waitSeconds = 120;

    @Override
    public Integer call() throws Exception {
        List<String> urls = CrawlCommand.readSeeds(seeds);
        Topics topics = Topics.withPrefix(topicPrefix);
        KafkaSettings cluster = kafka.settings(bootstrapServers, topicPrefix, System.getenv());
        try (Admin admin = Admin.create(cluster.clientProperties(Map.of()))) {
            TopicProvisioner.awaitWritable(admin, List.of(topics.discovered.name()), Duration.ofSeconds(waitSeconds));
        }
        HostsFile hosts = hostsFile == null ? HostsFile.empty() : HostsFile.load(hostsFile);
        List<String> accepted = SeedInjector.inject(cluster, topics.discovered, urls,
                SeedInjector.resolver(host -> {
                    InetAddress a = hosts.lookup(host);
                    return a == null ? null : a.getHostAddress();
                }), System.currentTimeMillis());
        System.out.printf("Seeded %d of %d URL(s) to %s%n", accepted.size(), urls.size(), topics.discovered.name());
        return accepted.isEmpty() && !urls.isEmpty() ? 1 : 0;
    }
}
