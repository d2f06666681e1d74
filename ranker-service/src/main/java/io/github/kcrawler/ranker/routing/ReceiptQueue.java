package io.github.kcrawler.ranker.routing;

import java.util.Arrays;

/**
 * A FIFO of score receipts (url, fingerprint, ip, amount, depth) held in parallel arrays, for the receipts a ranker
 * partition applies in place because the target's host is its own: no record, no object per receipt. Processed
 * first-in first-out, so within one partition receipts are applied breadth-first, as the single-process
 * {@code IncrementalPageRank} applies them. Reused across records; grows by doubling, never shrinks.
 */
public final class ReceiptQueue {
    private String[] url = new String[64];
    private long[] fingerprint = new long[64];
    private String[] ip = new String[64];
    private double[] amount = new double[64];
    private int[] depth = new int[64];
    private int head;
    private int tail;

    public void add(String u, long fp, String host, double a, int d) {
        if (tail == url.length) {
            compactOrGrow();
        }
        url[tail] = u;
        fingerprint[tail] = fp;
        ip[tail] = host;
        amount[tail] = a;
        depth[tail] = d;
        tail++;
    }

    public boolean isEmpty() {
        return head == tail;
    }

    public int size() {
        return tail - head;
    }

    /** Drops the head; read it first with the accessors. Clears references so the queue holds no stale URLs. */
    public void remove() {
        if (head == tail) {
            throw new IllegalStateException("queue is empty");
        }
        url[head] = null;
        ip[head] = null;
        head++;
        if (head == tail) {
            head = 0;
            tail = 0;
        }
    }

    public String url() {
        return url[head];
    }

    public long fingerprint() {
        return fingerprint[head];
    }

    public String ip() {
        return ip[head];
    }

    public double amount() {
        return amount[head];
    }

    public int depth() {
        return depth[head];
    }

    private void compactOrGrow() {
        int live = tail - head;
        if (head > 0 && live < url.length / 2) {
            System.arraycopy(url, head, url, 0, live);
            System.arraycopy(fingerprint, head, fingerprint, 0, live);
            System.arraycopy(ip, head, ip, 0, live);
            System.arraycopy(amount, head, amount, 0, live);
            System.arraycopy(depth, head, depth, 0, live);
            Arrays.fill(url, live, tail, null);
            Arrays.fill(ip, live, tail, null);
        } else {
            int cap = url.length * 2;
            String[] u = new String[cap];
            String[] h = new String[cap];
            System.arraycopy(url, head, u, 0, live);
            System.arraycopy(ip, head, h, 0, live);
            url = u;
            ip = h;
            fingerprint = Arrays.copyOfRange(fingerprint, head, head + cap);
            amount = Arrays.copyOfRange(amount, head, head + cap);
            depth = Arrays.copyOfRange(depth, head, head + cap);
        }
        head = 0;
        tail = live;
    }
}
