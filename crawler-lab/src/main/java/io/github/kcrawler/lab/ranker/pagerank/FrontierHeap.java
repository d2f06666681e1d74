package io.github.kcrawler.lab.ranker.pagerank;

import java.util.Arrays;

/**
 * The crawl frontier: an indexed binary max-heap of node ids ordered by a double priority (highest first) and, on
 * equal priority, by a long order key (smallest first). Crawl-ordering strategies raise a frontier node's priority
 * whenever a fetched page links to it, so the heap keeps each node's position ({@code pos[node]}) and changes a key
 * in O(log n) by sifting — a plain {@code PriorityQueue} would need an O(n) remove per update. Keys live in arrays
 * parallel to the heap array, so comparisons during a sift touch only contiguous memory.
 *
 * <p>Invariants: {@code pos[heap[i]] == i} for {@code i < size}, {@code pos[v] == -1} for every node not in the heap,
 * and every parent orders before or equal to its children; {@link #checkInvariants()} verifies them for tests.
 * Priorities must not be NaN.
 */
final class FrontierHeap {

    private final int[] pos;
    private int[] heap;
    private double[] prio;
    private long[] order;
    private int size;

    FrontierHeap(int numNodes) {
        pos = new int[numNodes];
        Arrays.fill(pos, -1);
        int cap = Math.max(16, Math.min(numNodes, 1 << 16));
        heap = new int[cap];
        prio = new double[cap];
        order = new long[cap];
    }

    int size() {
        return size;
    }

    boolean contains(int node) {
        return pos[node] >= 0;
    }

    /** Priority of a node in the heap. */
    double priority(int node) {
        return prio[pos[node]];
    }

    void insert(int node, double priority, long orderKey) {
        assert pos[node] < 0 : "node " + node + " is already in the heap";
        assert !Double.isNaN(priority) : "NaN priority for node " + node;
        if (size == heap.length) {
            int cap = (int) Math.min(pos.length, heap.length * 2L);
            heap = Arrays.copyOf(heap, cap);
            prio = Arrays.copyOf(prio, cap);
            order = Arrays.copyOf(order, cap);
        }
        int i = size++;
        heap[i] = node;
        prio[i] = priority;
        order[i] = orderKey;
        pos[node] = i;
        siftUp(i);
    }

    /** Sets the priority of a node in the heap, moving it either way. */
    void update(int node, double priority) {
        assert !Double.isNaN(priority) : "NaN priority for node " + node;
        int i = pos[node];
        double old = prio[i];
        prio[i] = priority;
        if (priority > old) {
            siftUp(i);
        } else if (priority < old) {
            siftDown(i);
        }
    }

    /** The best node without removing it, or -1 when empty. */
    int peek() {
        return size == 0 ? -1 : heap[0];
    }

    /** Order key of a node in the heap. */
    long orderKey(int node) {
        return order[pos[node]];
    }

    /** Removes a node that is in the heap. */
    void remove(int node) {
        int i = pos[node];
        assert i >= 0 : "node " + node + " is not in the heap";
        pos[node] = -1;
        int last = --size;
        if (i != last) {
            move(last, i);
            int moved = heap[i];
            siftUp(i);
            siftDown(pos[moved]);
        }
    }

    /** Removes and returns the best node, or -1 when empty. */
    int pollMax() {
        if (size == 0) {
            return -1;
        }
        int top = heap[0];
        pos[top] = -1;
        int last = --size;
        if (last > 0) {
            move(last, 0);
            siftDown(0);
        }
        return top;
    }

    /** Replaces every priority with {@code priorityByNode[node]} and restores the heap order in O(size). */
    void reprioritize(double[] priorityByNode) {
        for (int i = 0; i < size; i++) {
            prio[i] = priorityByNode[heap[i]];
        }
        for (int i = (size >>> 1) - 1; i >= 0; i--) {
            siftDown(i);
        }
    }

    private boolean before(int i, int j) {
        return prio[i] > prio[j] || (prio[i] == prio[j] && order[i] < order[j]);
    }

    private void siftUp(int i) {
        int node = heap[i];
        double p = prio[i];
        long o = order[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            double pp = prio[parent];
            if (pp > p || (pp == p && order[parent] < o)) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        heap[i] = node;
        prio[i] = p;
        order[i] = o;
        pos[node] = i;
    }

    private void siftDown(int i) {
        int node = heap[i];
        double p = prio[i];
        long o = order[i];
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < size && before(right, child)) {
                child = right;
            }
            double cp = prio[child];
            if (p > cp || (p == cp && o < order[child])) {
                break;
            }
            move(child, i);
            i = child;
        }
        heap[i] = node;
        prio[i] = p;
        order[i] = o;
        pos[node] = i;
    }

    private void move(int from, int to) {
        int node = heap[from];
        heap[to] = node;
        prio[to] = prio[from];
        order[to] = order[from];
        pos[node] = to;
    }

    /** Throws if the heap invariants do not hold (tests). */
    void checkInvariants() {
        for (int i = 0; i < size; i++) {
            if (pos[heap[i]] != i) {
                throw new IllegalStateException("pos[" + heap[i] + "] = " + pos[heap[i]] + ", expected " + i);
            }
            if (i > 0 && before(i, (i - 1) >>> 1)) {
                throw new IllegalStateException("heap order broken at index " + i);
            }
        }
        int present = 0;
        for (int p : pos) {
            if (p >= 0) {
                present++;
            }
        }
        if (present != size) {
            throw new IllegalStateException(present + " nodes have a position but the heap holds " + size);
        }
    }
}
