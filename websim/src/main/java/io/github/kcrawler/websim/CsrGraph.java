package io.github.kcrawler.websim;

import java.util.Arrays;

/**
 * A {@link WebGraphSource} held as compressed sparse rows: {@code offsets[p] .. offsets[p+1]} index the outlinks of
 * page p in {@code targets}. Two int arrays, built once and never written again, make every lookup a plain array
 * read: no locks, no per-page objects, and safe publication through final fields — which is what a server
 * rendering pages on several event loops needs. 4 bytes per link: cnr-2000 (3.2 M links) takes ~14 MB.
 */
public abstract sealed class CsrGraph implements WebGraphSource permits BvGraphSource, GeneratedGraphSource {

    private final int[] offsets;
    private final int[] targets;

    /** Takes ownership of both arrays; checks they form a valid CSR over {@code offsets.length - 1} pages. */
    protected CsrGraph(int[] offsets, int[] targets) {
        if (offsets.length < 1 || offsets[0] != 0 || offsets[offsets.length - 1] != targets.length) {
            throw new IllegalArgumentException("offsets must start at 0 and end at targets.length (" + targets.length + ")");
        }
        int n = offsets.length - 1;
        for (int p = 0; p < n; p++) {
            if (offsets[p + 1] < offsets[p]) {
                throw new IllegalArgumentException("offsets decrease at page " + p);
            }
        }
        for (int t : targets) {
            if (t < 0 || t >= n) {
                throw new IllegalArgumentException("link target " + t + " is outside [0, " + n + ")");
            }
        }
        this.offsets = offsets;
        this.targets = targets;
    }

    @Override
    public final int numPages() {
        return offsets.length - 1;
    }

    @Override
    public final long numArcs() {
        return targets.length;
    }

    @Override
    public final int outdegree(int page) {
        return offsets[page + 1] - offsets[page];
    }

    @Override
    public final int outlink(int page, int index) {
        int from = offsets[page];
        if (index < 0 || index >= offsets[page + 1] - from) {
            throw new IndexOutOfBoundsException("page " + page + " has no outlink #" + index);
        }
        return targets[from + index];
    }

    @Override
    public final int[] outlinks(int page) {
        return Arrays.copyOfRange(targets, offsets[page], offsets[page + 1]);
    }

    /** The page with the largest out-degree (the smallest such id on ties); -1 for an empty graph. */
    public final int maxOutdegreePage() {
        int best = -1;
        int bestDegree = -1;
        for (int p = 0; p < numPages(); p++) {
            int d = outdegree(p);
            if (d > bestDegree) {
                best = p;
                bestDegree = d;
            }
        }
        return best;
    }

    @Override
    public String toString() {
        return description() + " (" + numPages() + " pages, " + numArcs() + " links)";
    }
}
