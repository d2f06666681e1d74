package io.github.kcrawler.websim;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's own account of every access, kept apart from anything the crawler says, so that tests can prove
 * politeness and count duplicate fetches from the outside.
 *
 * <p>All counters are live and cheap enough for every request of a fast crawl: per-IP state is a slot in an
 * {@link AtomicLongArray} indexed by simulated address, counters are {@link LongAdder}s, and the set of fetched
 * pages is a lock-free bitset. Politeness is judged by arrival time: each access moves its IP's "last access" to
 * {@code max(last, now)} with a CAS, and it is a violation when it arrived less than {@code T - tolerance} after
 * the previous access (a negative gap — two event loops racing — is a violation too). Every request is also
 * offered to listeners and, when configured, appended to a TSV access log ({@link Access#tsvHeader()}).
 */
public final class AccessRecorder implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AccessRecorder.class);
    private static final long NEVER = Long.MIN_VALUE;
    private static final long FLUSH_EVERY_NANOS = 1_000_000_000L;

    private final SiteLayout layout;
    /** Addresses after the layout's own, by index - layout.numIps(): the hostile hosts' addresses. */
    private final List<String> extraIps;
    private final HostileMode[] hostileModes;
    private final AtomicLongArray hostileAccesses;
    private final long politenessMs;
    private final long toleranceMs;
    private final long thresholdNanos;
    private final long startNanos = System.nanoTime();
    private final AtomicLongArray lastAccessNanos;
    private final AtomicLongArray accessesPerIp;
    private final AtomicLongArray fetchedBits;
    private final AtomicLong minGapNanos = new AtomicLong(Long.MAX_VALUE);
    private final LongAdder requests = new LongAdder();
    private final LongAdder connections = new LongAdder();
    private final LongAdder pagesFetched = new LongAdder();
    private final LongAdder distinctFetched = new LongAdder();
    private final LongAdder robotsFetches = new LongAdder();
    private final LongAdder disallowedFetched = new LongAdder();
    private final LongAdder violations = new LongAdder();
    private final LongAdder notModified = new LongAdder();
    private final LongAdder notFound = new LongAdder();
    private final LongAdder conditionalNotModified = new LongAdder();
    private final LongAdder conditionalOk = new LongAdder();
    private final LongAdder conditionalChanged = new LongAdder();
    private final List<Consumer<Access>> listeners = new CopyOnWriteArrayList<>();
    private final Object logLock = new Object();
    private volatile Writer log;
    private long lastFlushNanos = startNanos;

    /**
     * @param politenessMs T; 0 disables violation counting
     * @param toleranceMs slack subtracted from T
     * @param accessLog TSV file to write (truncated), or null
     */
    public AccessRecorder(SiteLayout layout, long politenessMs, long toleranceMs, Path accessLog) throws IOException {
        this(layout, List.of(), politenessMs, toleranceMs, accessLog);
    }

    /**
     * A recorder that also accounts for the hostile modes' hosts, whose addresses get the indices after the
     * layout's own ({@code layout.numIps() + i} for {@code hostile.get(i)}), so politeness is judged on them too.
     */
    public AccessRecorder(SiteLayout layout, List<HostileMode> hostile, long politenessMs, long toleranceMs,
            Path accessLog) throws IOException {
        this.layout = layout;
        this.hostileModes = hostile.toArray(new HostileMode[0]);
        this.extraIps = hostile.stream().map(HostileMode::ipAddress).toList();
        this.hostileAccesses = new AtomicLongArray(HostileMode.values().length);
        this.politenessMs = politenessMs;
        this.toleranceMs = toleranceMs;
        this.thresholdNanos = politenessMs == 0 ? Long.MIN_VALUE : (politenessMs - toleranceMs) * 1_000_000L;
        int ips = layout.numIps() + extraIps.size();
        this.lastAccessNanos = new AtomicLongArray(ips);
        for (int i = 0; i < ips; i++) {
            lastAccessNanos.set(i, NEVER);
        }
        this.accessesPerIp = new AtomicLongArray(ips);
        this.fetchedBits = new AtomicLongArray((layout.numPages() + 63) >>> 6);
        if (accessLog != null) {
            Path dir = accessLog.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            log = new BufferedWriter(Files.newBufferedWriter(accessLog, StandardCharsets.UTF_8), 1 << 16);
            log.write(Access.tsvHeader());
            log.write('\n');
        }
    }

    /** Called once per accepted connection. */
    void connectionOpened() {
        connections.increment();
    }

    /**
     * Records one request.
     *
     * @param nanos {@link System#nanoTime()} at arrival
     * @param ipIndex the simulated address the connection arrived on
     * @param page the page id for {@link Access.Kind#PAGE}, else -1
     */
    void record(long nanos, int ipIndex, String host, String method, String path, int status, Access.Kind kind,
            int page) {
        requests.increment();
        accessesPerIp.incrementAndGet(ipIndex);
        long prev;
        do {
            prev = lastAccessNanos.get(ipIndex);
        } while (!lastAccessNanos.compareAndSet(ipIndex, prev, Math.max(prev, nanos)));
        if (prev != NEVER) {
            long gap = nanos - prev;
            if (gap < thresholdNanos) {
                violations.increment();
            }
            long clamped = Math.max(0, gap);
            if (clamped < minGapNanos.get()) {
                minGapNanos.accumulateAndGet(clamped, Math::min);
            }
        }
        if (status == 304) {
            notModified.increment();
        } else if (status == 404) {
            notFound.increment();
        }
        boolean get = "GET".equals(method);
        if (kind == Access.Kind.ROBOTS && get) {
            robotsFetches.increment();
        } else if (kind == Access.Kind.PAGE && get && (status == 200 || status == 304)) {
            pagesFetched.increment();
            if (markFetched(page)) {
                distinctFetched.increment();
            }
            if (layout.isDisallowed(page)) {
                disallowedFetched.increment();
            }
        }
        if (log != null || !listeners.isEmpty()) {
            Access access = new Access((nanos - startNanos) / 1e6, ipAddress(ipIndex), host, method, path,
                    status, kind, page);
            for (Consumer<Access> listener : listeners) {
                listener.accept(access);
            }
            if (log != null) {
                append(access, nanos);
            }
        }
    }

    /** The simulated address with index {@code ipIndex}: the layout's, then the hostile hosts'. */
    String ipAddress(int ipIndex) {
        int n = layout.numIps();
        return ipIndex < n ? layout.ipAddress(ipIndex) : extraIps.get(ipIndex - n);
    }

    /** All simulated addresses: the layout's, then one per hostile mode. */
    int numAddresses() {
        return layout.numIps() + extraIps.size();
    }

    /** The hostile mode served on address {@code ipIndex}, or null for an ordinary address. */
    HostileMode hostileMode(int ipIndex) {
        int i = ipIndex - layout.numIps();
        return i >= 0 && i < hostileModes.length ? hostileModes[i] : null;
    }

    /** Counts one request to the host of {@code mode} (called with {@link #record}, after it). */
    void hostile(HostileMode mode) {
        hostileAccesses.incrementAndGet(mode.ordinal());
    }

    /**
     * Records the outcome of a conditional page request (If-None-Match or If-Modified-Since): 304, or a full
     * response, {@code changed} when the client's validator named an earlier version of the page.
     */
    void conditional(boolean notModified, boolean changed) {
        if (notModified) {
            conditionalNotModified.increment();
        } else {
            conditionalOk.increment();
            if (changed) {
                conditionalChanged.increment();
            }
        }
    }

    private boolean markFetched(int page) {
        int word = page >>> 6;
        long mask = 1L << page;
        long old;
        do {
            old = fetchedBits.get(word);
            if ((old & mask) != 0) {
                return false;
            }
        } while (!fetchedBits.compareAndSet(word, old, old | mask));
        return true;
    }

    private void append(Access access, long nanos) {
        synchronized (logLock) {
            if (log == null) {
                return;
            }
            try {
                log.write(access.toTsv());
                log.write('\n');
                if (nanos - lastFlushNanos > FLUSH_EVERY_NANOS) {
                    log.flush();
                    lastFlushNanos = nanos;
                }
            } catch (IOException e) {
                LOG.error("access log write failed; access logging stops", e);
                closeLogQuietly();
            }
        }
    }

    /** Calls {@code listener} for every later request, on the event-loop thread that served it (keep it quick). */
    public void addListener(Consumer<Access> listener) {
        listeners.add(listener);
    }

    public void removeListener(Consumer<Access> listener) {
        listeners.remove(listener);
    }

    /** A copy of the set of page ids fetched (200 or 304) at least once. */
    public BitSet fetchedPages() {
        long[] words = new long[fetchedBits.length()];
        for (int i = 0; i < words.length; i++) {
            words[i] = fetchedBits.get(i);
        }
        return BitSet.valueOf(words);
    }

    /** The counters now. Counters are read one by one, so a snapshot taken under load may be off by in-flight requests. */
    public WebSimStats snapshot() {
        Map<String, Long> perIp = new LinkedHashMap<>();
        for (int i = 0; i < accessesPerIp.length(); i++) {
            perIp.put(ipAddress(i), accessesPerIp.get(i));
        }
        Map<String, Long> hostile = new LinkedHashMap<>();
        for (HostileMode m : hostileModes) {
            hostile.put(m.label(), hostileAccesses.get(m.ordinal()));
        }
        long distinct = distinctFetched.sum();
        long pages = Math.max(pagesFetched.sum(), distinct);
        long minGap = minGapNanos.get();
        return new WebSimStats((System.nanoTime() - startNanos) / 1_000_000L, politenessMs, toleranceMs,
                requests.sum(), connections.sum(), pages, distinct, pages - distinct, robotsFetches.sum(),
                disallowedFetched.sum(), violations.sum(), minGap == Long.MAX_VALUE ? -1.0 : minGap / 1e6,
                notModified.sum(), notFound.sum(), conditionalNotModified.sum(), conditionalOk.sum(),
                conditionalChanged.sum(), perIp, hostile);
    }

    /** Forces buffered access-log lines to disk. */
    public void flush() {
        synchronized (logLock) {
            if (log != null) {
                try {
                    log.flush();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }

    /** Flushes and closes the access log; counters stay readable. */
    @Override
    public void close() {
        synchronized (logLock) {
            closeLogQuietly();
        }
    }

    private void closeLogQuietly() {
        if (log != null) {
            try {
                log.close();
            } catch (IOException e) {
                LOG.warn("closing the access log failed", e);
            }
            log = null;
        }
    }
}
