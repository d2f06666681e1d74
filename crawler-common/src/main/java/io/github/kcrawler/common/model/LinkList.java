package io.github.kcrawler.common.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The outlinks of one fetched page, in document order, each with the IP its host resolved to.
 * Topic {@code crawl.links}, key: IP of the source page. Since issue 19's merge the fetcher no longer writes this
 * topic: the graph travels inside the page's {@link FetchResult#links()} on {@code crawl.fetch.results}, and
 * {@link FetchResult#linkList()} gives it in this form. The ranker still reads {@code crawl.links}, so records an
 * older fetcher wrote are ranked.
 */
public record LinkList(int v, String source, long sourceFingerprint, List<Link> outlinks) {
    public static final int VERSION = 1;

    /** One outlink: normalised URL, its fingerprint and the IP of its host (the key it travels under). */
    public record Link(String url, long fingerprint, String ip) {
    }

    public LinkList {
        outlinks = copyOf(Objects.requireNonNull(outlinks, "outlinks"));
    }

    /**
     * An unmodifiable copy that keeps null entries: a record from outside may hold them, and its reader counts each
     * as an invalid outlink and uses the rest ({@link List#copyOf} would refuse the whole record).
     */
    static List<Link> copyOf(List<Link> links) {
        return Collections.unmodifiableList(new ArrayList<>(links));
    }
}
