package io.github.kcrawler.websim;


/**
 * How the pages of the simulated web change over time (see {@link ChangeSchedule}). Never reorder: names appear on
 * the command line.
 */
public enum ChangeModel {
    /** Static pages: one version forever, the ETag and Last-Modified of a page never change. */
    NONE(null),
    /** Change intervals 1…T units with f(i) ∝ 1/i (paper 003, eqs. (7)–(8)): most pages change often. */
    ZIPF(IntervalDistribution.Shape.ZIPF),
    /** Change intervals ∝ i up to 100 units and ∝ 1/i beyond (paper 003, eqs. (9)–(10)). */
    PEAKED(IntervalDistribution.Shape.PEAKED);

    private final IntervalDistribution.Shape shape;

    ChangeModel(IntervalDistribution.Shape shape) {
        this.shape = shape;
    }

    /** The interval distribution's shape, or null for {@link #NONE}. */
    public IntervalDistribution.Shape shape() {
        return shape;
    }
}
