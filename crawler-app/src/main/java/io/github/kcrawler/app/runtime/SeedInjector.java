package io.github.kcrawler.app.runtime;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.topic.Topic;
import io.github.kcrawler.common.topic.UrlBatches;
import io.github.kcrawler.common.url.UrlNormalizer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Puts seed URLs on {@code crawl.urls.discovered} at depth 0, grouped like every page's outlinks: one
 * {@link DiscoveredUrls} record per partition their hosts' IPs belong to (cut above {@link UrlBatches#DEFAULT_LIMITS}),
 * keyed by one of those IPs, the partition count taken from the producer's metadata. Seeding again on restart is
 * harmless: the URL-seen test admits each URL once.
 */
public final class SeedInjector {
    private static final Logger LOG = LoggerFactory.getLogger(SeedInjector.class);

    private SeedInjector() {
    }

    /** Resolves with the hosts map first (the simulated web), then the system resolver. */
    public static Function<String, Optional<String>> resolver(Map<String, String> hosts) {
        return resolver(hosts::get);
    }

    /** Resolves with a static lookup first (null when unknown), then the system resolver. */
    public static Function<String, Optional<String>> resolver(Function<String, String> hosts) {
        return host -> {
            String ip = hosts.apply(host);
            if (ip != null) {
                return Optional.of(ip);
            }
            try {
                return Optional.of(InetAddress.getByName(host).getHostAddress());
            } catch (UnknownHostException e) {
                return Optional.empty();
            }
        };
    }

    /**
     * @param kafka the cluster and the pass-through client settings (security included)
     * @return the seeds accepted (normalised) and written; rejected ones are logged with the reason
     * @throws IllegalStateException if the cluster did not take the seeds (authentication failed, no such topic,
     *                               timeout): the producer reports that through the send results, never by throwing
     *                               itself, so they are all checked before a seed counts as written
     */
    public static List<String> inject(KafkaSettings kafka, Topic<String, DiscoveredUrls> topic, List<String> seeds,
                                      Function<String, Optional<String>> resolver, long now) {
        Map<String, Object> p = kafka.clientProperties(Map.of(ProducerConfig.ACKS_CONFIG, "all"));
        List<String> accepted = new ArrayList<>();
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        List<DiscoveredUrls.Entry> entries = new ArrayList<>();
        try (KafkaProducer<String, DiscoveredUrls> producer = new KafkaProducer<>(p, new StringSerializer(),
                topic.valueSerde().serializer())) {
            for (String raw : seeds) {
                Optional<String> url = UrlNormalizer.normalize(raw);
                if (url.isEmpty()) {
                    LOG.warn("Seed '{}' is not a usable http(s) URL; skipped", raw);
                    continue;
                }
                String host = UrlNormalizer.host(url.get());
                Optional<String> ip = resolver.apply(host);
                if (ip.isEmpty()) {
                    LOG.warn("Seed {}: host {} does not resolve; skipped", url.get(), host);
                    continue;
                }
                entries.add(new DiscoveredUrls.Entry(url.get(), ip.get()));
                accepted.add(url.get());
            }
            if (!entries.isEmpty()) {
                int partitions = partitions(producer, topic.name());
                for (UrlBatches.Keyed<DiscoveredUrls> r : UrlBatches.discovered(entries, partitions, null, 0, now,
                        UrlBatches.DEFAULT_LIMITS)) {
                    sent.add(producer.send(new ProducerRecord<>(topic.name(), r.key(), r.value())));
                }
            }
            producer.flush();
            for (Future<RecordMetadata> f : sent) {
                awaitWritten(f, topic.name());
            }
        }
        LOG.info("Seeded {} of {} URL(s)", accepted.size(), seeds.size());
        return accepted;
    }

    private static int partitions(KafkaProducer<String, DiscoveredUrls> producer, String topic) {
        try {
            return producer.partitionsFor(topic).size();
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot write seeds to " + topic + ": " + e, e);
        }
    }

    private static void awaitWritten(Future<RecordMetadata> f, String topic) {
        try {
            f.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot write seeds to " + topic + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing seeds to " + topic, e);
        }
    }
}
