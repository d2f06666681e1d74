package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.fingerprint.Fingerprints;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Redirect chains the fetcher has produced recently, so that a chain longer than {@code max-redirects}
 * ({@code /r/1 → /r/2 → ...}, a generator of fresh URLs that the URL-seen test cannot stop) and a loop
 * ({@code /a → /b → /a}, also when the URL-seen test has forgotten {@code /a}) end with a reason code instead of
 * being handed on.
 *
 * <p>The fetcher does not follow redirects itself (a target goes back through dedup and the scheduler, so that it
 * is paced like any page): a chain is the sequence of URL fingerprints from the first URL that redirected to the
 * target, remembered under the target's fingerprint until the target is fetched. Bounded: at most
 * {@code capacity} chains, least recently used forgotten first; a forgotten chain starts again at length 1, so a
 * chain spread over more redirects than the table holds is cut later, not never — the URL-seen test and the
 * per-host budget bound it too. Chains are per fetcher instance: a chain that crosses to an IP owned by another
 * instance restarts there (documented in docs/HOSTILE.md). Thread-safe.
 */
final class RedirectChains {
    /** What to do with one redirect. */
    enum Verdict { FOLLOW, LIMIT, LOOP }

    private final int maxRedirects;
    private final Map<Long, long[]> chains;

    RedirectChains(int maxRedirects, int capacity) {
        this.maxRedirects = maxRedirects;
        this.chains = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, long[]> eldest) {
                return size() > capacity;
            }
        };
    }

    /** Judges the redirect {@code from → to} (both normalised) and remembers the chain when it is followed. */
    Verdict redirect(String from, String to) {
        long f = Fingerprints.url(from);
        long t = Fingerprints.url(to);
        synchronized (chains) {
            long[] chain = chains.remove(f); // from has now been fetched: its own entry is no longer needed
            if (chain == null) {
                chain = new long[] {f};
            }
            for (long fp : chain) {
                if (fp == t) {
                    return Verdict.LOOP;
                }
            }
            // chain holds k + 1 URLs after k redirects; this one would be redirect number k + 1
            if (chain.length > maxRedirects) {
                return Verdict.LIMIT;
            }
            long[] next = Arrays.copyOf(chain, chain.length + 1);
            next[chain.length] = t;
            chains.put(t, next);
            return Verdict.FOLLOW;
        }
    }

    /** A URL that was fetched without redirecting ends its chain. */
    void ended(String url) {
        synchronized (chains) {
            chains.remove(Fingerprints.url(url));
        }
    }

    int size() {
        synchronized (chains) {
            return chains.size();
        }
    }
}
