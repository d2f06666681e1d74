package io.github.kcrawler.scheduler.politeness;

import it.unimi.dsi.fastutil.ints.IntArrayFIFOQueue;

/** An int FIFO whose backing array's size is readable, for {@link WheelFrontier#memoryBytes()}. Not thread-safe. */
final class OverflowQueue extends IntArrayFIFOQueue {
    private static final long serialVersionUID = 1L;

    long memoryBytes() {
        return 16 + 4L * array.length;
    }
}
