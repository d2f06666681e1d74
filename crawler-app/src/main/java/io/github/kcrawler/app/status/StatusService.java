package io.github.kcrawler.app.status;

import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.topic.Topic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The status page of a crawl: a {@link StatusModel} polled once a second on its own thread (so the charts have a
 * history even before a browser opens the page, and several browsers do not change the rates) and the
 * {@link StatusServer} that serves it.
 */
public final class StatusService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatusService.class);
    /** Ten minutes of one-second points. */
    public static final int HISTORY_POINTS = 600;

    private final StatusModel model;
    private final StatusServer server;
    private final ScheduledExecutorService poller;
    private FetchResultsTail tail;

    private StatusService(StatusModel model, StatusServer server, ScheduledExecutorService poller) {
        this.model = model;
        this.server = server;
        this.poller = poller;
    }

    public static StatusService start(MetricsSource source, String host, int port, Duration interval)
            throws IOException {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("status poll interval must be > 0, was " + interval);
        }
        StatusModel model = new StatusModel(source, HISTORY_POINTS, System::currentTimeMillis);
        model.poll();
        StatusServer server = StatusServer.start(model, host, port);
        ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "status-poll");
            t.setDaemon(true);
            return t;
        });
        poller.scheduleAtFixedRate(() -> {
            try {
                model.poll();
            } catch (RuntimeException e) { // a failed poll must not cancel the schedule
                LOG.warn("Status poll failed: {}", e.toString());
            }
        }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        LOG.info("Status page at {} (reading {})", server.url(), source.describe());
        return new StatusService(model, server, poller);
    }

    /**
     * Also shows the busiest hosts and IPs and the recent errors, read from the fetch results topic of the cluster
     * {@code kafka} names (with its pass-through client settings) over the last minute.
     */
    public synchronized StatusService withFetchResults(KafkaSettings kafka,
                                                       Topic<String, FetchResult> fetchResults) {
        if (tail == null) {
            ActivityWindow window = new ActivityWindow(60_000, 200_000, 50);
            tail = new FetchResultsTail(kafka, fetchResults, window, System::currentTimeMillis).start();
            model.activityFrom(window);
        }
        return this;
    }

    public String url() {
        return server.url();
    }

    public int port() {
        return server.port();
    }

    public StatusModel model() {
        return model;
    }

    @Override
    public void close() {
        poller.shutdownNow();
        server.close();
        synchronized (this) {
            if (tail != null) {
                tail.close();
            }
        }
    }
}
