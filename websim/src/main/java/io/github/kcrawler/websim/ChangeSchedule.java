package io.github.kcrawler.websim;

import java.time.InstantSource;

/**
 * When each page of the simulated web changes: a deterministic periodic schedule per page, so that a crawler's
 * revisit policy (DESIGN.md §4.4: conditional GET, change = 200 with a new content hash, Cho &amp; Garcia-Molina's
 * estimator) can be tested against exact ground truth.
 *
 * <p>Page p gets a change interval I_p ∈ [1, T] units drawn from paper 003's Zipf or Peaked distribution
 * ({@link IntervalDistribution}, the same code as the SAT/L benchmark) with the uniform {@code hash(seed, p)}, and a
 * phase φ_p ∈ [0, I_p) (ms) from another hash. Its version at time t (epoch ms) is
 * <pre>  v_p(t) = ⌊(t − E + φ_p) / I_p⌋</pre>
 * with E = {@link #EPOCH_MS}; version v starts at E + v·I_p − φ_p. So the rank-frequency of intervals over the pages
 * follows the model, page changes are spread over time instead of all falling on unit boundaries, and everything is
 * a pure function of (seed, page, t): two servers with the same seed agree, and a test on a fake clock knows exactly
 * when a page changes. The schedule is periodic, not Poisson: a crawler revisiting a page at intervals of at least
 * I_p finds it changed at every visit (X = n), where Poisson changes would sometimes be missed.
 *
 * <p>With {@link ChangeModel#NONE} pages are static: version 0 forever. Thread-safe and allocation-free per call
 * (sampling is a binary search on a shared cumulative table).
 */
public final class ChangeSchedule {

    /** E = 2024-01-01T00:00:00Z, the origin of every page's version count. */
    public static final long EPOCH_MS = 1_704_067_200_000L;
    private static final long INTERVAL = 21;
    private static final long PHASE = 22;

    private final ChangeModel model;
    private final long seed;
    private final long unitMs;
    private final IntervalDistribution distribution;
    private final InstantSource time;

    private ChangeSchedule(ChangeModel model, long seed, long unitMs, int maxInterval, InstantSource time) {
        this.model = model;
        this.seed = seed;
        this.unitMs = unitMs;
        this.distribution = model == ChangeModel.NONE ? null : IntervalDistribution.of(model.shape(), maxInterval);
        this.time = time;
    }

    /** The schedule {@code config} describes (its model, unit, T, seed and time source). */
    public static ChangeSchedule of(WebSimConfig config) {
        return new ChangeSchedule(config.changeModel(), config.seed(), config.changeUnitMs(),
                config.changeMaxInterval(), config.timeSource());
    }

    public ChangeModel model() {
        return model;
    }

    /** Whether pages change at all (model other than NONE). */
    public boolean changing() {
        return distribution != null;
    }

    /** The time unit, ms. */
    public long unitMs() {
        return unitMs;
    }

    /** The interval distribution, or null for NONE. */
    public IntervalDistribution distribution() {
        return distribution;
    }

    /** Now, from the configured time source, epoch ms. */
    public long nowMillis() {
        return time.millis();
    }

    /** I_p in units (1…T); 0 for static pages. */
    public int intervalUnits(int page) {
        return distribution == null ? 0 : distribution.sample(Mix.unit(Mix.hash(seed, page, INTERVAL)));
    }

    /** I_p in ms; 0 for static pages. */
    public long intervalMs(int page) {
        return intervalUnits(page) * unitMs;
    }

    /** φ_p in [0, I_p) ms; 0 for static pages. */
    public long phaseMs(int page) {
        long interval = intervalMs(page);
        return interval == 0 ? 0 : (long) (Mix.unit(Mix.hash(seed, page, PHASE)) * interval);
    }

    /** v_p(t): the page's version at {@code epochMillis}; always 0 for static pages. */
    public long version(int page, long epochMillis) {
        long interval = intervalMs(page);
        return interval == 0 ? 0 : Math.floorDiv(epochMillis - EPOCH_MS + phaseMs(page), interval);
    }

    /** When version {@code version} of the page started, epoch ms (E for static pages). */
    public long versionStartMillis(int page, long version) {
        long interval = intervalMs(page);
        return interval == 0 ? EPOCH_MS : EPOCH_MS + version * interval - phaseMs(page);
    }

    /** The Last-Modified of a version: its start, rounded down to the whole second as HTTP dates have it. */
    public long lastModifiedMillis(int page, long version) {
        return Math.floorDiv(versionStartMillis(page, version), 1000L) * 1000L;
    }

    /** The first time after {@code epochMillis} at which the page changes, or Long.MAX_VALUE for static pages. */
    public long nextChangeMillis(int page, long epochMillis) {
        return changing() ? versionStartMillis(page, version(page, epochMillis) + 1) : Long.MAX_VALUE;
    }
}
