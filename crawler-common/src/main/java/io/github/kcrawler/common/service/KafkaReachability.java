package io.github.kcrawler.common.service;

import io.github.kcrawler.common.time.CrawlClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether the Kafka cluster has answered recently, for a service's {@code /health} (issue 23: the fetcher, a plain
 * consumer and producer, reported 200 while no broker was reachable, so nothing restarted it or took it out of
 * service). A daemon thread asks the cluster for its nodes every {@link #PROBE_INTERVAL} with its own small admin
 * client (the service's own security settings, so it reaches what the service reaches); {@link #reachable()} is
 * false once no answer has come for {@code unreachableAfter}, counted from start-up before the first answer.
 *
 * <p>Invariant: {@code reachable()} depends only on the clock and the time of the last answer, so a slow or hung
 * request can only make it false, never true, and it turns true again with the first answer after an outage. Each
 * change of its value is logged once, by whichever caller sees it first, before that caller can act on it: a 503
 * from {@code /health} is never served before its "Kafka unreachable" line is written (the prober alone could be
 * up to a probe interval plus a request timeout late, which a deployment check once caught).
 */
public final class KafkaReachability implements AutoCloseable {
    /** How long no answer from any broker makes a service unhealthy: longer than a broker restart's blip. */
    public static final Duration DEFAULT_UNREACHABLE_AFTER = Duration.ofSeconds(30);
    static final Duration PROBE_INTERVAL = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(KafkaReachability.class);

    private final CrawlClock clock;
    private final long unreachableAfterMs;
    private final long startedMs;
    private volatile long lastAnswerMs = -1;
    private volatile boolean closed;
    private final AtomicBoolean lastReported = new AtomicBoolean(true);
    private final AtomicLong changes = new AtomicLong();
    private final Thread prober;
    private final Admin admin;

    /** The clock-driven window alone, with no prober (tests, and a service that reports answers itself). */
    KafkaReachability(CrawlClock clock, Duration unreachableAfter) {
        this.clock = clock;
        this.unreachableAfterMs = unreachableAfter.toMillis();
        this.startedMs = clock.millis();
        this.prober = null;
        this.admin = null;
        assert unreachableAfterMs > 0 : unreachableAfter;
    }

    private KafkaReachability(CrawlClock clock, Duration unreachableAfter, Map<String, Object> clientProperties) {
        this.clock = clock;
        this.unreachableAfterMs = unreachableAfter.toMillis();
        this.startedMs = clock.millis();
        Map<String, Object> p = new LinkedHashMap<>(clientProperties);
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "kcrawler-health");
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
        this.admin = Admin.create(p);
        this.prober = new Thread(this::probe, "kafka-reachability");
        this.prober.setDaemon(true);
    }

    /**
     * Starts probing the cluster of {@code clientProperties} (bootstrap servers and security settings, e.g.
     * {@code KafkaSettings.clientProperties(Map.of())}).
     */
    public static KafkaReachability start(Map<String, Object> clientProperties, CrawlClock clock,
                                          Duration unreachableAfter) {
        KafkaReachability r = new KafkaReachability(clock, unreachableAfter, clientProperties);
        r.prober.start();
        return r;
    }

    /** Records an answer from the cluster now. */
    void answered() {
        lastAnswerMs = clock.millis();
    }

    /** False once no broker has answered for the configured time (from start-up until the first answer). */
    public boolean reachable() {
        long since = lastAnswerMs >= 0 ? lastAnswerMs : startedMs;
        boolean now = clock.millis() - since <= unreachableAfterMs;
        if (lastReported.compareAndSet(!now, now)) {
            changes.incrementAndGet();
            if (now) {
                LOG.info("Kafka reachable again");
            } else {
                LOG.warn("Kafka unreachable for more than {} ms: reporting unhealthy", unreachableAfterMs);
            }
        }
        return now;
    }

    /** How many times the value of {@link #reachable()} has been seen to change (each change is logged once). */
    long changes() {
        return changes.get();
    }

    private void probe() {
        while (!closed) {
            try {
                admin.describeCluster(new DescribeClusterOptions().timeoutMs(10000)).nodes().get(15, TimeUnit.SECONDS);
                answered();
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                LOG.debug("Kafka did not answer: {}", e.toString());
            }
            reachable(); // logs a change even when no /health request comes
            try {
                Thread.sleep(PROBE_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        if (prober != null) {
            prober.interrupt();
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
        }
    }
}
