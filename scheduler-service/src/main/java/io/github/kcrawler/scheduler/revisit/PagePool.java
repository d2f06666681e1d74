package io.github.kcrawler.scheduler.revisit;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The free-page pool of paper 003 (§2.2, Fig. 3): all write buffers draw fixed 4 KiB pages from one pool, so memory
 * follows whichever buckets are busy instead of being split evenly. The pages are slices of one direct buffer aligned
 * to 4 KiB, so they can be written with O_DIRECT as they are. Pages are named by int index; the free list is an int
 * stack.
 */
final class PagePool {
    static final int PAGE_SIZE = 4096;

    private final ByteBuffer[] pages;
    private final int[] free;
    private int freeCount;

    PagePool(int pageCount) {
        ByteBuffer all = ByteBuffer.allocateDirect((pageCount + 1) * PAGE_SIZE).alignedSlice(PAGE_SIZE);
        pages = new ByteBuffer[pageCount];
        free = new int[pageCount];
        for (int i = 0; i < pageCount; i++) {
            pages[i] = all.slice(i * PAGE_SIZE, PAGE_SIZE).order(ByteOrder.BIG_ENDIAN);
            free[i] = pageCount - 1 - i;
        }
        freeCount = pageCount;
    }

    int capacity() {
        return pages.length;
    }

    int freeCount() {
        return freeCount;
    }

    /** A free page index, or -1 when the pool is dry. */
    int take() {
        return freeCount == 0 ? -1 : free[--freeCount];
    }

    void release(int page) {
        assert freeCount < free.length : "page released twice";
        free[freeCount++] = page;
    }

    ByteBuffer page(int page) {
        return pages[page];
    }
}
