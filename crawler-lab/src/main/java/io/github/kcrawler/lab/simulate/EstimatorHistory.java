package io.github.kcrawler.lab.simulate;

import io.github.kcrawler.common.model.ChangeIntervals;
import io.github.kcrawler.scheduler.revisit.ChangeRateEstimator;
import io.github.kcrawler.scheduler.revisit.ChangeRateEstimator.Kind;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import static io.github.kcrawler.lab.simulate.FreshnessExperiment.round;

/**
 * The per-estimator side of the freshness experiment (issue 21): the bounded history the crawler keeps per page —
 * observed and changed spans in ticks of 1/{@value FreshnessRun#TICKS} unit and the changed intervals' length classes
 * ({@link ChangeIntervals}) — so that an estimatedOptimal run can re-plan with any of the three estimators of paper
 * 003's change-rate section ({@link ChangeRateEstimator}: naive X/T, bias-reduced §4.2, irregular §4.3) and every
 * estimator's λ error can be measured on the same histories.
 *
 * <p>Invariants: per page, changedTicks ≤ observedTicks, and the class counts sum to the page's changes.
 */
final class EstimatorHistory {
    /** |log2(λ̂/λ)| is capped here, so that λ̂ = 0 (the naive estimator at X = 0) counts as a finite error. */
    static final double MAX_LOG2_ERROR = 10;
    private static final double LN2 = Math.log(2);

    private final long[] observedTicks;
    private final long[] changedTicks;
    private final long[] classes;

    EstimatorHistory(int pages) {
        if ((long) pages * ChangeIntervals.BUCKETS > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("an estimator run holds at most " + (Integer.MAX_VALUE - 8)
                    / ChangeIntervals.BUCKETS + " pages, was " + pages);
        }
        observedTicks = new long[pages];
        changedTicks = new long[pages];
        classes = new long[pages * ChangeIntervals.BUCKETS];
    }

    /** Records a visit to page {@code p} after {@code ticks} ticks, and whether the page had changed. */
    void visit(int p, long ticks, boolean changed) {
        observedTicks[p] += ticks;
        if (changed) {
            changedTicks[p] += ticks;
            classes[p * ChangeIntervals.BUCKETS + ChangeIntervals.bucket(ticks)]++;
        }
        assert changedTicks[p] <= observedTicks[p] : "changed span beyond the observed one";
    }

    /**
     * λ̂ of page {@code p}, per unit, by estimator {@code k} after {@code visits} visits of which {@code changes} found
     * a change, or NaN before its first revisit: NAIVE X/T (0 at X = 0); BIAS_REDUCED §4.2 on the mean interval and
     * IRREGULAR §4.3 on the length classes, both with the half-change rule at X = 0 — the crawler's
     * {@link ChangeRateEstimator#rate} on the same numbers.
     */
    double estimate(Kind k, int p, long visits, long changes) {
        if (visits == 0) {
            return Double.NaN;
        }
        long obs = observedTicks[p];
        double perTick = switch (k) {
            case NAIVE -> ChangeRateEstimator.naive(visits, changes, obs);
            case BIAS_REDUCED -> changes == 0 ? ChangeRateEstimator.zeroChangeRate(visits, (double) obs / visits)
                    : ChangeRateEstimator.changeRate(visits, changes, (double) obs / visits);
            case IRREGULAR -> changes == 0 ? ChangeRateEstimator.zeroChangeRate(visits, (double) obs / visits)
                    : ChangeRateEstimator.irregular(classes, p * ChangeIntervals.BUCKETS, changedTicks[p], obs,
                    visits, changes);
        };
        return perTick * FreshnessRun.TICKS;
    }

    /**
     * Every estimator's λ̂ against the true λ over the pages revisited at least once: Σλ̂/Σλ, median λ̂/λ, mean
     * |log2(λ̂/λ)| (capped at {@value #MAX_LOG2_ERROR}, so λ̂ = 0 counts as 10) and the pages with λ̂ = 0.
     */
    Map<String, FreshnessResult.LambdaError> lambdaErrors(FreshnessPopulation pop, int[] visits, int[] changes) {
        Map<String, FreshnessResult.LambdaError> errors = new LinkedHashMap<>();
        for (Kind k : Kind.values()) {
            double sumEst = 0;
            double sumTrue = 0;
            double logError = 0;
            long zeros = 0;
            double[] ratios = new double[pop.n];
            int pages = 0;
            for (int p = 0; p < pop.n; p++) {
                if (visits[p] == 0) {
                    continue;
                }
                double est = estimate(k, p, visits[p], changes[p]);
                double truth = pop.rate(p);
                sumEst += est;
                sumTrue += truth;
                zeros += est == 0 ? 1 : 0;
                logError += est == 0 ? MAX_LOG2_ERROR
                        : Math.min(MAX_LOG2_ERROR, Math.abs(Math.log(est / truth) / LN2));
                ratios[pages++] = est / truth;
            }
            if (pages == 0) {
                errors.put(key(k), new FreshnessResult.LambdaError(0, null, null, null, null));
            } else {
                Arrays.sort(ratios, 0, pages);
                errors.put(key(k), new FreshnessResult.LambdaError(pages, round(sumEst / sumTrue),
                        round(ratios[pages / 2]), round(logError / pages), zeros));
            }
        }
        return errors;
    }

    /** The JSON name of an estimator. */
    static String key(Kind k) {
        return switch (k) {
            case NAIVE -> "naive";
            case BIAS_REDUCED -> "biasReduced";
            case IRREGULAR -> "irregular";
        };
    }
}
