package io.github.kcrawler.lab.ranker.pagerank;

/**
 * Baseline BLC of paper 002 (§4.2): an unfetched URL's priority is its back-link count, the number of fetched pages
 * that link to it. Ties go to the URL with fewer '/' characters, then to the shorter URL (the paper's rule, from
 * {@link NodeLabels}), then to discovery order. Each fetch raises the count of each distinct target once.
 */
public final class BackLinkCount extends FrontierOrdering {

    public static final String NAME = "BLC";

    private static final int MAX_SLASHES = 127;
    private static final int MAX_LENGTH = 65_535;

    private final int[] count;
    private final int[] stamp;
    private int epoch;

    public BackLinkCount(NodeLabels labels) {
        super(NAME, labels);
        count = new int[numNodes];
        stamp = new int[numNodes];
    }

    @Override
    protected long tieKey(int node) {
        long slashes = Math.min(MAX_SLASHES, Math.max(0, labels.slashes(node)));
        long length = Math.min(MAX_LENGTH, Math.max(0, labels.urlLength(node)));
        return (slashes << 16) | length;
    }

    @Override
    protected void onFetched(int page, int[] links, int from, int to) {
        if (++epoch == 0) {
            java.util.Arrays.fill(stamp, 0);
            epoch = 1;
        }
        for (int i = from; i < to; i++) {
            int q = links[i];
            if (stamp[q] != epoch) {
                stamp[q] = epoch;
                count[q]++;
                setPriority(q, count[q]);
            }
        }
    }

    /** Back-link count of {@code node} from fetched pages. */
    public int backLinks(int node) {
        return count[node];
    }
}
