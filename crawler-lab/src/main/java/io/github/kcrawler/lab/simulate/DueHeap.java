package io.github.kcrawler.lab.simulate;

/** Binary min-heap of (due time, page) in parallel primitive arrays; every page is in it exactly once. */
final class DueHeap {
    private final double[] due;
    private final int[] page;
    private int size;

    DueHeap(int capacity) {
        due = new double[capacity];
        page = new int[capacity];
    }

    void push(double t, int p) {
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (due[parent] <= t) {
                break;
            }
            due[i] = due[parent];
            page[i] = page[parent];
            i = parent;
        }
        due[i] = t;
        page[i] = p;
    }

    int popPage() {
        if (size == 0) {
            throw new IllegalStateException("empty heap");
        }
        int top = page[0];
        size--;
        if (size > 0) {
            double t = due[size];
            int p = page[size];
            int i = 0;
            while (true) {
                int child = 2 * i + 1;
                if (child >= size) {
                    break;
                }
                if (child + 1 < size && due[child + 1] < due[child]) {
                    child++;
                }
                if (due[child] >= t) {
                    break;
                }
                due[i] = due[child];
                page[i] = page[child];
                i = child;
            }
            due[i] = t;
            page[i] = p;
        }
        return top;
    }

    int size() {
        return size;
    }
}
