package io.github.kcrawler.lab.simulate;

import java.util.Arrays;

/**
 * Result of one crawl of a {@link SchedulerExperiment}, with its curves (sampled every ~1/curvePoints of the reached
 * pages).
 */
final class SchedulerRun {
    final String name;
    final int reached;
    int pagesCrawled;
    double prSum;
    long peakStored;
    long dropped;
    long steps;
    double pageShare;
    double prShare;
    long capacity = -1;
    private double[] cx = new double[64];
    private double[] cpr = new double[64];
    private double[] cst = new double[64];
    private int points;

    SchedulerRun(String name, int reached) {
        this.name = name;
        this.reached = reached;
    }

    void sample(long stored) {
        if (points == cx.length) {
            cx = Arrays.copyOf(cx, points * 2);
            cpr = Arrays.copyOf(cpr, points * 2);
            cst = Arrays.copyOf(cst, points * 2);
        }
        cx[points] = pagesCrawled;
        cpr[points] = prSum;
        cst[points] = stored;
        points++;
    }

    void finish() {
        pageShare = (double) pagesCrawled / reached;
        prShare = Math.min(1.0, prSum);
    }

    double[] curveX() {
        return Arrays.copyOf(cx, points);
    }

    double[] curvePr() {
        return Arrays.copyOf(cpr, points);
    }

    double[] curveStored() {
        return Arrays.copyOf(cst, points);
    }

    SchedulerResult.Run summary(boolean withCurve) {
        return new SchedulerResult.Run(name, pagesCrawled, pageShare, prShare, peakStored, dropped, steps,
                capacity >= 0 ? capacity : null, withCurve ? curveX() : null, withCurve ? curvePr() : null,
                withCurve ? curveStored() : null);
    }
}
