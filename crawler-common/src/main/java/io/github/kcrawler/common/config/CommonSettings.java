package io.github.kcrawler.common.config;

/**
 * Settings that several services read with the same meaning, declared once: the politeness interval T (scheduler and
 * fetcher, and {@code crawler crawl --politeness-ms}) and the metrics endpoint (every service). A service whose rule
 * is narrower states it in its own config record (the scheduler's wheel needs T &gt; 0).
 */
public final class CommonSettings {
    /** T, the politeness interval: the one place its default is written. */
    public static final Setting<Long> POLITENESS_MS = Setting.longValue("politeness-ms", 1000L, Check.atLeast(0),
            "T: minimum time between two requests to one server IP, in ms (below 100 is warned about)");
    public static final Setting<String> METRICS_HOST = Setting.string("metrics-host", "127.0.0.1", Check.notBlank(),
            "address of the Prometheus /metrics and /health endpoint (0.0.0.0 in a container)");
    public static final Setting<Integer> METRICS_PORT = Setting.integer("metrics-port", 0, Check.range(0, 65_535),
            "port of the /metrics and /health endpoint; 0 picks a free one (logged at start-up)");
    /** Both metrics keys. */
    public static final SettingSet METRICS = SettingSet.of(METRICS_HOST, METRICS_PORT);

    private CommonSettings() {
    }
}
