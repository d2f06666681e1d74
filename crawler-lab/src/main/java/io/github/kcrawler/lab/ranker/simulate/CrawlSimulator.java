package io.github.kcrawler.lab.ranker.simulate;

import io.github.kcrawler.lab.ranker.pagerank.CrawlOrdering;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Simulates a crawl of an in-memory graph with one ordering strategy, as in paper 002 §4.1: every fetch succeeds,
 * instantly, and yields the page's successors in the graph; the crawl runs until the frontier is empty, so it
 * collects exactly the pages reachable from the seeds. The result is the fetch order, which the criteria judge.
 *
 * <p>The same loop, without recording anything else, measures the "priority determination speed" of the paper's
 * Figure 10: pages per second of {@code next()} + {@code fetched()} on one thread with the graph in memory, which
 * covers both of the paper's parts — extending the known link graph and recomputing priorities.
 */
public final class CrawlSimulator {

    private CrawlSimulator() {
    }

    /** Crawls from {@code seeds} until the frontier is empty; returns the pages in fetch order. */
    public static int[] crawl(CrawlOrdering ordering, LinkGraph graph, int[] seeds) {
        int[] offsets = graph.offsets();
        int[] targets = graph.targets();
        for (int s : seeds) {
            ordering.addSeed(s);
        }
        int[] order = new int[Math.max(16, Math.min(graph.numNodes(), 1 << 16))];
        int count = 0;
        int p;
        while ((p = ordering.next()) >= 0) {
            ordering.fetched(p, targets, offsets[p], offsets[p + 1]);
            if (count == order.length) {
                order = Arrays.copyOf(order, Math.min(graph.numNodes(), order.length * 2));
            }
            order[count++] = p;
        }
        return count == order.length ? order : Arrays.copyOf(order, count);
    }

    /**
     * Crawls with <b>delayed feedback</b> (ours; issue 21, the "pages in flight" of a running crawler): a page's
     * {@code fetched()} — its links and the scores they carry — reaches the strategy only after {@code delay} further
     * pages were handed out (a FIFO of the last {@code delay} hand-outs), as in a pipeline where fetchers, parsers and
     * the ranker are that many pages behind the scheduler. When the frontier is empty the oldest page in flight is
     * reported first. {@code delay = 0} is {@link #crawl(CrawlOrdering, LinkGraph, int[])} exactly.
     */
    public static int[] crawl(CrawlOrdering ordering, LinkGraph graph, int[] seeds, int delay) {
        if (delay < 0) {
            throw new IllegalArgumentException("delay must be >= 0, was " + delay);
        }
        if (delay == 0) {
            return crawl(ordering, graph, seeds);
        }
        int[] offsets = graph.offsets();
        int[] targets = graph.targets();
        for (int s : seeds) {
            ordering.addSeed(s);
        }
        int[] order = new int[Math.max(16, Math.min(graph.numNodes(), 1 << 16))];
        int[] flight = new int[delay];
        int head = 0;
        int inFlight = 0;
        int count = 0;
        while (true) {
            int p = ordering.next();
            if (p < 0) {
                if (inFlight == 0) {
                    break;
                }
                int q = flight[head];
                head = (head + 1) % delay;
                inFlight--;
                ordering.fetched(q, targets, offsets[q], offsets[q + 1]);
                continue;
            }
            if (count == order.length) {
                order = Arrays.copyOf(order, Math.min(graph.numNodes(), order.length * 2));
            }
            order[count++] = p;
            if (inFlight == delay) {
                int q = flight[head];
                head = (head + 1) % delay;
                inFlight--;
                ordering.fetched(q, targets, offsets[q], offsets[q + 1]);
            }
            flight[(head + inFlight) % delay] = p;
            inFlight++;
        }
        return count == order.length ? order : Arrays.copyOf(order, count);
    }

    /** One timed crawl: pages fetched and elapsed nanoseconds of the loop (strategy construction excluded). */
    public record Timing(int pages, long nanos) {
        public double pagesPerSecond() {
            return nanos <= 0 ? Double.POSITIVE_INFINITY : pages * 1e9 / nanos;
        }
    }

    /** Times one crawl with a fresh strategy from {@code factory}. */
    public static Timing time(Supplier<CrawlOrdering> factory, LinkGraph graph, int[] seeds) {
        CrawlOrdering ordering = factory.get();
        int[] offsets = graph.offsets();
        int[] targets = graph.targets();
        long t0 = System.nanoTime();
        for (int s : seeds) {
            ordering.addSeed(s);
        }
        int count = 0;
        int p;
        while ((p = ordering.next()) >= 0) {
            ordering.fetched(p, targets, offsets[p], offsets[p + 1]);
            count++;
        }
        return new Timing(count, System.nanoTime() - t0);
    }

    /**
     * Pages/s of {@code repeats} timed crawls, sorted ascending: the last is the fastest (the run least disturbed by
     * other processes), the middle one the median.
     */
    public static double[] pagesPerSecond(Supplier<CrawlOrdering> factory, LinkGraph graph, int[] seeds, int repeats) {
        if (repeats < 1) {
            throw new IllegalArgumentException("repeats must be >= 1, was " + repeats);
        }
        double[] rates = new double[repeats];
        for (int i = 0; i < repeats; i++) {
            rates[i] = time(factory, graph, seeds).pagesPerSecond();
        }
        Arrays.sort(rates);
        return rates;
    }

    /** The median of sorted values. */
    public static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
