package io.github.kcrawler.lab.faults;

import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.serde.Decoded;
import io.github.kcrawler.common.service.DeadLetters;
import io.github.kcrawler.common.serde.LenientJsonDeserializer;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.common.url.UrlNormalizer;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.scheduler.processor.PendingEntry;
import io.github.kcrawler.scheduler.processor.PendingEntryCodec;
import io.github.kcrawler.scheduler.processor.SchedulerTopology;
import io.github.kcrawler.scheduler.revisit.RevisitRecords;
import io.github.kcrawler.scheduler.revisit.RevisitState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the scheduler's revisit changelog ({@code scheduler-scheduler-revisit-satl-changelog}: URL fingerprint →
 * revisit record, the SAT/L store a restarted scheduler recovers from; issue 22) and its pending-store changelog
 * (a due page's state moves into its REVISIT pending entry) to their committed ends and checks that every fetched page
 * has a usable state in one of them: that is what the next scheduler instance would revisit from. The latest value
 * per key counts (a tombstone removes it), as in the compacted topics. With {@code revisit-state=store} the baseline's
 * changelog ({@code scheduler-scheduler-revisit-state-changelog}, plain {@link RevisitState} JSON) is read instead.
 *
 * @param records       changelog records read (read-committed)
 * @param states        keys whose latest value is a usable state
 * @param unreadable    keys whose latest value does not parse or is not usable
 * @param fetched       pages the check was asked about
 * @param missing       of those, pages without a usable state
 * @param missingSample up to 20 of the missing pages' URLs, each with what the committed fetch results say of it
 *                      ({@link #resultsOf}), so that a failure tells a page whose results never arrived from one whose
 *                      every fetch failed after the server had answered
 */
public record RevisitStateCheck(long records, long states, long unreadable, long fetched, long missing,
                                List<String> missingSample) {
    /** The changelog topic name for topic prefix "" and default settings (the scenario's). */
    static String topic() {
        return SchedulerTopology.revisitChangelogTopic(defaults());
    }

    /** Reads the changelogs at {@code bootstrap} and checks the given fetched page URLs against them. */
    static RevisitStateCheck read(String bootstrap, Collection<String> fetchedUrls, Duration timeout) {
        long[] records = new long[1];
        Map<ByteBuffer, byte[]> latest = latest(bootstrap, topic(), timeout, records);
        Map<ByteBuffer, byte[]> pending = latest(bootstrap,
                SchedulerTopology.changelogTopic(defaults()), timeout, records);
        Set<String> withState = new HashSet<>();
        long unreadable = 0;
        for (byte[] value : latest.values()) {
            RevisitState s = RevisitRecords.state(value, value.length);
            if (s == null) {
                try {
                    s = RevisitState.SERDE.deserializer().deserialize(topic(), value); // revisit-state=store
                } catch (RuntimeException e) {
                    s = null;
                }
            }
            if (s == null || !s.isUsable() || s.lastFetchedMs() <= 0) {
                unreadable++;
            } else {
                withState.add(canonical(s.url()));
            }
        }
        for (byte[] value : pending.values()) {
            // binary or (written before the pending store went binary) JSON; null when it is not an entry
            PendingEntry e = PendingEntryCodec.decode(value);
            if (e != null && e.kind() == FetchKind.REVISIT && e.revisit() != null && e.revisit().isUsable()) {
                withState.add(canonical(e.url()));
            }
        }
        List<String> sample = new ArrayList<>();
        long missing = 0;
        for (String url : fetchedUrls) {
            if (!withState.contains(canonical(url))) {
                missing++;
                if (sample.size() < 20) {
                    sample.add(url);
                }
            }
        }
        if (!sample.isEmpty()) {
            Map<String, List<String>> said = resultsOf(bootstrap, sample, timeout);
            sample.replaceAll(url -> url + " " + said.getOrDefault(canonical(url), List.of("(no fetch result)")));
        }
        return new RevisitStateCheck(records[0], withState.size(), unreadable, fetchedUrls.size(), missing,
                List.copyOf(sample));
    }

    /**
     * Every committed fetch result of the given pages, by canonical URL, in topic order: kind, outcome, status and
     * whether it carried a revisit memo; then every dead letter whose value names the page (a record a service could
     * not process), with the service and exception from its headers.
     */
    private static Map<String, List<String>> resultsOf(String bootstrap, List<String> urls, Duration timeout) {
        Set<String> wanted = new HashSet<>();
        urls.forEach(u -> wanted.add(canonical(u)));
        Map<String, List<String>> said = new HashMap<>();
        LenientJsonDeserializer<FetchResult> json = new LenientJsonDeserializer<>(FetchResult.class);
        readAll(bootstrap, Topics.withPrefix("").fetchResults.name(), timeout, r -> {
            Decoded<FetchResult> d = r.value() == null ? null : json.deserialize(r.topic(), r.value());
            if (d != null && d.isOk() && d.value().url() != null && wanted.contains(canonical(d.value().url()))) {
                FetchResult f = d.value();
                said.computeIfAbsent(canonical(f.url()), k -> new ArrayList<>()).add(f.kind() + " " + f.outcome()
                        + " " + f.status() + (f.revisit() == null ? "" : " memo") + " @" + f.fetchedAt()
                        + " offset " + r.partition() + ":" + r.offset());
            }
        });
        readAll(bootstrap, Topics.withPrefix("").deadLetter.name(), timeout, r -> {
            String value = r.value() == null ? "" : new String(r.value(), StandardCharsets.UTF_8);
            for (String url : wanted) {
                if (value.contains(url)) {
                    said.computeIfAbsent(url, k -> new ArrayList<>()).add("DEAD LETTER from "
                            + header(r, DeadLetters.HEADER_SERVICE) + " (" + header(r, DeadLetters.HEADER_TOPIC) + "): "
                            + header(r, DeadLetters.HEADER_EXCEPTION) + " " + header(r, DeadLetters.HEADER_MESSAGE));
                }
            }
        });
        return said;
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        org.apache.kafka.common.header.Header h = r.headers().lastHeader(name);
        return h == null || h.value() == null ? "?" : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static Map<ByteBuffer, byte[]> latest(String bootstrap, String topic, Duration timeout, long[] count) {
        Map<ByteBuffer, byte[]> latest = new HashMap<>();
        readAll(bootstrap, topic, timeout, r -> {
            count[0]++;
            ByteBuffer key = ByteBuffer.wrap(r.key() == null ? new byte[0] : r.key());
            if (r.value() == null) {
                latest.remove(key);
            } else {
                latest.put(key, r.value());
            }
        });
        return latest;
    }

    /** Reads every partition of {@code topic} from its beginning to its committed end (read-committed). */
    private static void readAll(String bootstrap, String topic, Duration timeout,
                                java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> each) {
        Map<String, Object> props = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000, ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = new ArrayList<>();
            List<PartitionInfo> infos = c.partitionsFor(topic, timeout);
            for (PartitionInfo p : infos == null ? List.<PartitionInfo>of() : infos) { // none: the topic does not exist
                parts.add(new TopicPartition(p.topic(), p.partition()));
            }
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            Set<TopicPartition> open = new HashSet<>(parts);
            open.removeIf(tp -> end.get(tp) == 0);
            while (!open.isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end within " + timeout);
                }
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    each.accept(r);
                }
                open.removeIf(tp -> c.position(tp) >= end.get(tp));
            }
        }
    }

    private static SchedulerConfig defaults() {
        return SchedulerConfig.from(io.github.kcrawler.common.config.Settings.parse(SchedulerConfig.KEYS, Map.of(),
                new String[0]));
    }

    private static String canonical(String url) {
        return UrlNormalizer.normalize(url).orElse(url);
    }
}
