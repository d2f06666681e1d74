package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import it.unimi.dsi.fastutil.longs.Long2IntLinkedOpenHashMap;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The fetcher's two page budgets (issue 9: a spider trap must not eat the crawl): {@code max-pages} responses for
 * this instance, reserved before a request goes out and given back if no response came; and
 * {@code max-pages-per-host} responses per host, counted when one arrives. 0 means no limit. Hosts are kept by their 64-bit
 * fingerprint, least recently fetched forgotten first beyond {@code hostCapacity} (they start counting again): the
 * per-host budget is exact for the hosts a crawl is busy with, which is what a trap is. Thread-safe.
 */
final class PageBudget {
    private final long maxPages;
    private final long maxPagesPerHost;
    private final int hostCapacity;
    private final AtomicLong pages = new AtomicLong();
    /** Pages fetched per host (by the host's fingerprint), least recently used first. */
    private final Long2IntLinkedOpenHashMap hostPages = new Long2IntLinkedOpenHashMap(1024);

    PageBudget(long maxPages, long maxPagesPerHost, int hostCapacity) {
        if (maxPages < 0 || maxPagesPerHost < 0 || hostCapacity < 1) {
            throw new IllegalArgumentException("page budgets must be >= 0 and the host capacity >= 1, were "
                    + maxPages + ", " + maxPagesPerHost + ", " + hostCapacity);
        }
        this.maxPages = maxPages;
        this.maxPagesPerHost = maxPagesPerHost;
        this.hostCapacity = hostCapacity;
    }

    /** Responses reserved or received so far. */
    long pages() {
        return pages.get();
    }

    /** Whether this instance's budget is used up (checked before a request waits for its turn). */
    boolean spent() {
        return maxPages > 0 && pages.get() >= maxPages;
    }

    /** Takes one page from this instance's budget; false if none is left. */
    boolean reserve() {
        if (maxPages == 0) {
            pages.incrementAndGet();
            return true;
        }
        while (true) {
            long cur = pages.get();
            if (cur >= maxPages) {
                return false;
            }
            if (pages.compareAndSet(cur, cur + 1)) {
                return true;
            }
        }
    }

    /** Gives back a reserved page whose request got no response. */
    void unreserve() {
        pages.decrementAndGet();
    }

    /** Whether {@code host} has had its {@code max-pages-per-host} responses. */
    boolean hostSpent(String host) {
        if (maxPagesPerHost == 0) {
            return false;
        }
        synchronized (hostPages) {
            return hostPages.getAndMoveToLast(Fingerprints.url(host)) >= maxPagesPerHost;
        }
    }

    /** Counts a response from {@code host}. */
    void countHostPage(String host) {
        if (maxPagesPerHost == 0) {
            return;
        }
        long fp = Fingerprints.url(host);
        synchronized (hostPages) {
            int n = hostPages.getAndMoveToLast(fp);
            hostPages.putAndMoveToLast(fp, n == Integer.MAX_VALUE ? n : n + 1);
            if (hostPages.size() > hostCapacity) {
                hostPages.removeFirstInt();
            }
        }
    }
}
