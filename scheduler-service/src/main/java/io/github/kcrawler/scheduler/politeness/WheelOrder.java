package io.github.kcrawler.scheduler.politeness;

/**
 * The order in which admitted URLs enter paper 004's politeness wheel ({@link WheelFrontier}); the scheduler's
 * {@code order} setting chooses one.
 */
public enum WheelOrder {
    /** Paper 004 as published: first come, first served; a URL whose residue is full is dropped. */
    FIFO,
    /** Best score first: URLs wait in the priority front ({@code PriorityFront}) and enter the wheel from it. */
    PRIORITY;

    /** The order named {@code s} (case-insensitive). */
    public static WheelOrder parse(String s) {
        if (s != null) {
            for (WheelOrder o : values()) {
                if (o.name().equalsIgnoreCase(s.trim())) {
                    return o;
                }
            }
        }
        throw new IllegalArgumentException("order must be fifo or priority, was '" + s + "'");
    }
}
