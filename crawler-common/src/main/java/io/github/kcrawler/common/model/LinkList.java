package io.github.kcrawler.common.model;

import java.util.List;

/**
 * The outlinks of one fetched page, in document order, each with the IP its host resolved to.
 * Topic {@code crawl.links}, key: IP of the source page.
 */
public record LinkList(int v, String source, long sourceFingerprint, List<Link> outlinks) {
    public static final int VERSION = 1;

    /** One outlink: normalised URL, its fingerprint and the IP of its host (the key it travels under). */
    public record Link(String url, long fingerprint, String ip) {
    }

    public LinkList {
        outlinks = List.copyOf(outlinks);
    }
}
