package io.github.kcrawler.lab.demo;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The course of a crawl over time, for {@code crawler bench e2e}'s plots: every {@code period} the cumulative count of
 * pages fetched (responses from the server) and of the records through each pipeline stage of
 * {@link DemoRunner#STAGES}, read from the services' metrics in this process. Rates are differences of successive
 * samples; the counters are cumulative so a late sample loses nothing.
 *
 * <p>Samples are taken on a daemon thread between {@link #start} and {@link #stop}; {@link #sample} takes one by hand
 * (tests). Time comes from the injected ticker (nanoseconds).
 */
public final class CrawlTimeline {
    /** One sample: seconds since {@link #start}, pages fetched, and records per stage, all cumulative. */
    public record Sample(double seconds, long pages, Map<String, Long> stages) {
    }

    private final long periodMillis;
    private final LongSupplier ticker;
    private final List<Sample> samples = Collections.synchronizedList(new ArrayList<>());
    private MeterRegistry registry;
    private LongSupplier pages;
    private long startNanos;
    private ScheduledExecutorService executor;

    /**
     * @param periodMillis time between samples, ≥ 10 ms
     * @param ticker       nanosecond clock (e.g. {@code System::nanoTime})
     */
    public CrawlTimeline(long periodMillis, LongSupplier ticker) {
        if (periodMillis < 10) {
            throw new IllegalArgumentException("timeline period must be >= 10 ms, was " + periodMillis);
        }
        this.periodMillis = periodMillis;
        this.ticker = java.util.Objects.requireNonNull(ticker, "ticker");
    }

    /** Takes the first sample now and then one every period, until {@link #stop}. */
    public synchronized void start(MeterRegistry registry, LongSupplier pagesFetched) {
        if (this.registry != null) {
            throw new IllegalStateException("timeline already started");
        }
        this.registry = registry;
        this.pages = pagesFetched;
        this.startNanos = ticker.getAsLong();
        sample();
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "crawl-timeline");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleAtFixedRate(this::sample, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    /** Stops sampling, after one last sample. */
    public synchronized void stop() {
        if (executor != null) {
            executor.shutdownNow();
            try {
                executor.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            executor = null;
            sample();
        }
    }

    /** Takes one sample now. */
    public void sample() {
        if (registry == null) {
            throw new IllegalStateException("timeline not started");
        }
        Map<String, Long> stages = new LinkedHashMap<>();
        for (Map.Entry<String, String> s : DemoRunner.STAGES.entrySet()) {
            double count = registry.find(s.getValue()).counters().stream().mapToDouble(Counter::count).sum();
            stages.put(s.getKey(), Math.round(count));
        }
        samples.add(new Sample((ticker.getAsLong() - startNanos) / 1e9, pages.getAsLong(), stages));
    }

    public long periodMillis() {
        return periodMillis;
    }

    /** The samples so far, oldest first. */
    public List<Sample> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    /**
     * The course so far, as written to {@code NAME-plots/timeline.json} and read back for the plots.
     *
     * @param periodMillis time between samples
     * @param samples      oldest first
     */
    public record Course(long periodMillis, List<Sample> samples) {
    }

    /** The course so far: the period and the samples. */
    public Course course() {
        return new Course(periodMillis, samples());
    }
}
