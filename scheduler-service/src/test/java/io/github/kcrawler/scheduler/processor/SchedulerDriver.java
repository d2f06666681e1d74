package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.common.model.AdmittedUrls;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.ForgetUrl;
import io.github.kcrawler.common.model.RankScoreBatch;
import io.github.kcrawler.common.service.StreamsDefaults;
import io.github.kcrawler.common.time.ManualClock;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.kafka.embedded.SurvivingStoreSupplier;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.scheduler.SchedulerService;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;

/**
 * The scheduler's topology under Kafka's {@link TopologyTestDriver}, with the driver's wall clock and the scheduler's
 * {@link ManualClock} moved together, tick by tick: the set-up the topology tests share. Either on the service's own
 * topology ({@link #of(SchedulerConfig, ManualClock)}: pending URLs in RocksDB under the config's state directory) or
 * on a pending store that outlives the driver, as a changelog restore would ({@link #of(SchedulerConfig,
 * ManualClock, SurvivingStoreSupplier)}). One driver per test run; close it.
 */
final class SchedulerDriver implements AutoCloseable {
    static final long START = 1_700_000_000_000L;
    static final Topics TOPICS = Topics.defaults();

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    /** The service whose topology runs, or null on a surviving store. */
    final SchedulerService service;
    /** The frontier sizes of the driver's task. */
    final LocalFrontiers frontiers;
    final TopologyTestDriver driver;
    final TestInputTopic<String, AdmittedUrls> admitted;
    /** Admitted records as raw bytes (old formats, junk). */
    final TestInputTopic<String, byte[]> rawAdmitted;
    final TestInputTopic<String, RankScoreBatch> scores;
    final TestInputTopic<String, FetchResult> results;
    final TestOutputTopic<String, FetchRequest> requests;
    final TestOutputTopic<String, ForgetUrl> forgets;
    private final ManualClock clock;
    private final long tickMs;

    private SchedulerDriver(SchedulerConfig config, ManualClock clock, SurvivingStoreSupplier store) {
        this.clock = clock;
        this.tickMs = config.tickMs();
        Topology topology;
        Properties properties;
        if (store == null) {
            service = new SchedulerService(config, registry, clock);
            frontiers = null;
            topology = service.topology();
            properties = service.streamsProperties();
        } else {
            service = null;
            frontiers = new LocalFrontiers();
            topology = SchedulerTopology.build(config, clock, new SchedulerMetrics(registry, frontiers,
                    SchedulerTopology.badRecordSources(config)), frontiers, store);
            properties = StreamsDefaults.properties(config.kafka(), SchedulerConfig.APPLICATION_ID, 1, 100);
        }
        driver = new TopologyTestDriver(topology, properties, Instant.ofEpochMilli(clock.millis()));
        StringSerializer keys = new StringSerializer();
        admitted = driver.createInputTopic(TOPICS.admitted.name(), keys, TOPICS.admitted.valueSerde().serializer());
        rawAdmitted = driver.createInputTopic(TOPICS.admitted.name(), keys, new ByteArraySerializer());
        scores = driver.createInputTopic(TOPICS.rankScores.name(), keys, TOPICS.rankScores.valueSerde().serializer());
        results = driver.createInputTopic(TOPICS.fetchResults.name(), keys,
                TOPICS.fetchResults.valueSerde().serializer());
        requests = driver.createOutputTopic(TOPICS.fetchRequests.name(), new StringDeserializer(),
                TOPICS.fetchRequests.valueSerde().deserializer());
        forgets = driver.createOutputTopic(TOPICS.forget.name(), new StringDeserializer(),
                TOPICS.forget.valueSerde().deserializer());
    }

    /** The service's own topology, as {@code SchedulerService} runs it. */
    static SchedulerDriver of(SchedulerConfig config, ManualClock clock) {
        return new SchedulerDriver(config, clock, null);
    }

    /** The topology over a pending store that keeps its contents across drivers (a restart's changelog restore). */
    static SchedulerDriver of(SchedulerConfig config, ManualClock clock, SurvivingStoreSupplier store) {
        return new SchedulerDriver(config, clock, store);
    }

    /** Moves both clocks by whole ticks ({@code tick-ms}), letting the punctuators run after each. */
    void advance(long millis) {
        for (long t = 0; t < millis; t += tickMs) {
            clock.advance(tickMs);
            driver.advanceWallClockTime(Duration.ofMillis(tickMs));
        }
    }

    /** Reads every request released so far and reports its fetch at once (200, with its step), as a fetcher would. */
    List<KeyValue<String, FetchRequest>> fetchAll() {
        List<KeyValue<String, FetchRequest>> out = requests.readKeyValuesToList();
        for (KeyValue<String, FetchRequest> kv : out) {
            FetchRequest r = kv.value;
            results.pipeInput(kv.key, new FetchResult(FetchResult.VERSION, r.url(), r.fingerprint(), 1, r.step(),
                    FetchKind.NEW, 200, FetchOutcome.OK, clock.millis(), 0, 1, null, 10, "text/html", null, null,
                    null, 0, null));
        }
        return out;
    }

    /** The count of a counter, 0 if it was never registered. */
    double counter(String name, String... tags) {
        var counter = registry.find(name).tags(tags).counter();
        return counter == null ? 0 : counter.count();
    }

    @Override
    public void close() {
        driver.close();
    }
}
