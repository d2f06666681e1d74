package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.scope.ScopeDecision;
import io.github.kcrawler.fetcher.guard.HostBackoff;
import io.github.kcrawler.fetcher.http.ValueBounds;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Every meter of the fetcher, registered once up front (one counter per outcome × status class and per rejection
 * reason), so the hot path only indexes an array.
 */
final class FetchMetrics {
    /**
     * Reasons an outlink is not produced besides the scope's own ({@link ScopeDecision#tag()}); together they are
     * the {@code reason} tag of {@code LINKS_REJECTED}.
     */
    enum LinkRejection {
        MALFORMED, SCHEME, NOFOLLOW, LIMIT, ADDRESS, DNS, REDIRECT_LIMIT, REDIRECT_LOOP
    }

    /** Why a response body was not parsed for links; tag {@code reason} of {@code crawler.parse.skipped}. */
    enum ParseSkip { NOT_HTML, UNPARSABLE }

    static final String[] STATUS_CLASSES = {"none", "1xx", "2xx", "3xx", "4xx", "5xx"};

    private final Counter[][] fetches;
    final Counter fetchBytes;
    final Timer fetchLatency;
    final Counter robotsDenied;
    final Timer politenessWait;
    private final Counter[] linksRejected;
    private final Counter[] scopeRejected;
    final Counter linksDiscovered;
    final Counter warcRecords;
    final Counter badRecords;
    final Counter redeliveredSkipped;
    final Counter redeliveredAnswered;
    final Counter commitFailures;
    final Counter linkClosures;
    final Counter assignedHoldsExpired;
    final Counter transactionsCommitted;
    final Counter transactionsAborted;
    private final Counter[] parseSkipped;
    private final Counter[] backoffs;
    private final Counter[][] bounded;

    FetchMetrics(MeterRegistry registry, String requestTopic, Supplier<Number> activeFetches) {
        FetchOutcome[] outcomes = FetchOutcome.values();
        fetches = new Counter[outcomes.length][STATUS_CLASSES.length];
        for (FetchOutcome o : outcomes) {
            for (int s = 0; s < STATUS_CLASSES.length; s++) {
                fetches[o.ordinal()][s] = Counter.builder(MetricNames.FETCHES).description("fetches by outcome")
                        .tag("outcome", o.name()).tag("status", STATUS_CLASSES[s]).register(registry);
            }
        }
        fetchBytes = Counter.builder(MetricNames.FETCH_BYTES).description("body bytes received (decoded)")
                .baseUnit("bytes").register(registry);
        fetchLatency = Timer.builder(MetricNames.FETCH_LATENCY).description("request sent to body complete")
                .publishPercentileHistogram().register(registry);
        robotsDenied = Counter.builder(MetricNames.ROBOTS_DENIED).description("URLs refused by robots.txt")
                .register(registry);
        politenessWait = Timer.builder(MetricNames.POLITENESS_WAIT).description("wait at the per-IP guard")
                .publishPercentileHistogram().register(registry);
        LinkRejection[] reasons = LinkRejection.values();
        linksRejected = new Counter[reasons.length];
        for (LinkRejection r : reasons) {
            linksRejected[r.ordinal()] = Counter.builder(MetricNames.LINKS_REJECTED)
                    .description("outlinks not followed")
                    .tag("reason", r.name().toLowerCase(Locale.ROOT)).register(registry);
        }
        ScopeDecision[] decisions = ScopeDecision.values();
        scopeRejected = new Counter[decisions.length];
        for (ScopeDecision d : decisions) {
            if (!d.inScope()) {
                scopeRejected[d.ordinal()] = Counter.builder(MetricNames.LINKS_REJECTED)
                        .description("outlinks not followed").tag("reason", d.tag()).register(registry);
            }
        }
        linksDiscovered = Counter.builder(MetricNames.LINKS_DISCOVERED)
                .description("outlinks sent to the URL-seen test")
                .register(registry);
        warcRecords = Counter.builder(MetricNames.WARC_RECORDS).description("WARC records written").register(registry);
        badRecords = Counter.builder(MetricNames.BAD_RECORDS).description("unreadable records skipped")
                .tag("topic", requestTopic).tag("reason", "deserialization").register(registry);
        redeliveredSkipped = Counter.builder(MetricNames.FETCH_REDELIVERED_SKIPPED)
                .description("fetch requests delivered again after a rebalance and skipped: fetched here before")
                .register(registry);
        redeliveredAnswered = Counter.builder(MetricNames.FETCH_REDELIVERED_ANSWERED)
                .description("fetch requests delivered again after a rebalance and answered by results fetched here "
                        + "before the partition left, not yet committed then")
                .register(registry);
        commitFailures = Counter.builder(MetricNames.FETCH_COMMIT_FAILURES)
                .description("fetch-request offset commits (transactions) that failed (fetches wait until one "
                        + "succeeds)")
                .register(registry);
        linkClosures = Counter.builder(MetricNames.FETCH_GATE_LINK_CLOSED)
                .description("times fetches waited because a Kafka connection of the fetcher closed, until a "
                        + "transaction round trip confirmed the broker")
                .register(registry);
        assignedHoldsExpired = Counter.builder(MetricNames.FETCH_GATE_ASSIGNED_HOLD_EXPIRED)
                .description("holds of fetches after a rebalance that followed an aborted transaction which ended "
                        + "at their bound without a commit")
                .register(registry);
        transactionsCommitted = Counter.builder(MetricNames.FETCH_TRANSACTIONS)
                .description("fetcher transactions (results, links, discovered URLs and request offsets)")
                .tag("result", "committed").register(registry);
        transactionsAborted = Counter.builder(MetricNames.FETCH_TRANSACTIONS)
                .description("fetcher transactions (results, links, discovered URLs and request offsets)")
                .tag("result", "aborted").register(registry);
        ParseSkip[] skips = ParseSkip.values();
        parseSkipped = new Counter[skips.length];
        for (ParseSkip p : skips) {
            parseSkipped[p.ordinal()] = Counter.builder(MetricNames.PARSE_SKIPPED)
                    .description("responses not parsed for links").tag("reason", p.name().toLowerCase(Locale.ROOT))
                    .register(registry);
        }
        HostBackoff.Cause[] causes = HostBackoff.Cause.values();
        backoffs = new Counter[causes.length];
        for (HostBackoff.Cause c : causes) {
            backoffs[c.ordinal()] = Counter.builder(MetricNames.FETCH_BACKOFFS)
                    .description("per-IP back-off raised").tag("cause", c.name().toLowerCase(Locale.ROOT))
                    .register(registry);
        }
        ValueBounds.Field[] fields = ValueBounds.Field.values();
        bounded = new Counter[fields.length][ValueBounds.Reason.values().length];
        for (ValueBounds.Field f : fields) {
            for (ValueBounds.Reason r : ValueBounds.Reason.values()) {
                if (f.can(r)) {
                    bounded[f.ordinal()][r.ordinal()] = Counter.builder(MetricNames.FETCH_VALUES_BOUNDED)
                            .description("server-controlled values dropped or truncated at their limit")
                            .tag("field", f.tag()).tag("action", f.action().tag()).tag("reason", r.tag())
                            .register(registry);
                }
            }
        }
        Gauge.builder(MetricNames.FETCHES_IN_FLIGHT, activeFetches).description("fetches on the network now")
                .register(registry);
    }

    void fetch(FetchOutcome outcome, int status, long latencyMillis) {
        fetches[outcome.ordinal()][statusClass(status)].increment();
        if (latencyMillis >= 0) {
            fetchLatency.record(latencyMillis, TimeUnit.MILLISECONDS);
        }
    }

    void linkRejected(LinkRejection reason, int count) {
        if (count > 0) {
            linksRejected[reason.ordinal()].increment(count);
        }
    }

    void scopeRejected(ScopeDecision decision, int count) {
        if (count > 0 && !decision.inScope()) {
            scopeRejected[decision.ordinal()].increment(count);
        }
    }

    void backoff(HostBackoff.Cause cause) {
        if (cause != null) {
            backoffs[cause.ordinal()].increment();
        }
    }

    double backoffCount(HostBackoff.Cause cause) {
        return backoffs[cause.ordinal()].count();
    }

    /** The {@link ValueBounds.Listener} of the fetcher: one registered counter per field, action and reason. */
    void bounded(ValueBounds.Field field, ValueBounds.Action action, ValueBounds.Reason reason) {
        assert action == field.action() && field.can(reason) : field + " " + action + " " + reason;
        Counter c = bounded[field.ordinal()][reason.ordinal()];
        if (c != null) {
            c.increment();
        }
    }

    double boundedCount(ValueBounds.Field field, ValueBounds.Reason reason) {
        Counter c = bounded[field.ordinal()][reason.ordinal()];
        return c == null ? 0 : c.count();
    }

    void parseSkipped(ParseSkip reason) {
        parseSkipped[reason.ordinal()].increment();
    }

    double fetchCount(FetchOutcome outcome) {
        double sum = 0;
        for (Counter c : fetches[outcome.ordinal()]) {
            sum += c.count();
        }
        return sum;
    }

    static int statusClass(int status) {
        return status >= 100 && status < 600 ? status / 100 : 0;
    }
}
