package io.github.kcrawler.lab.ranker.simulate;

import io.github.kcrawler.lab.ranker.pagerank.NodeLabels;
import io.github.kcrawler.websim.SiteLayout;
import io.github.kcrawler.websim.WebSimConfig;

/**
 * URL labels for a graph that has none (cnr-2000 stores no URL strings): page p gets the URL websim serves it under,
 * {@code http://h<host>.websim.test/p/<p>}, with hosts from websim's {@link SiteLayout} — runs of consecutive ids,
 * heavy-tailed run lengths, deterministic in the layout seed — so the simulator's same-site test agrees with what a
 * crawler of the simulated web sees. These URLs all have four '/' and differ in length only by the digits of the
 * host and page numbers, so the back-link-count tie rule (fewer '/', then shorter URL) falls to smaller host and page
 * numbers — in cnr-2000, whose ids follow the lexicographic order of the original URLs, roughly URL order.
 */
public final class SyntheticUrls {

    private SyntheticUrls() {
    }

    /** Labels for {@code numNodes} pages under websim's layout with the given seed and mean host size. */
    public static NodeLabels of(int numNodes, long layoutSeed, double meanPagesPerHost, int[] seeds) {
        WebSimConfig config = WebSimConfig.builder().seed(layoutSeed).meanPagesPerHost(meanPagesPerHost).build();
        SiteLayout layout = SiteLayout.build(numNodes, config, seeds);
        return of(layout);
    }

    /** Labels for every page of {@code layout}, with URLs on port 80. */
    public static NodeLabels of(SiteLayout layout) {
        int n = layout.numPages();
        int[] host = new int[n];
        int[] slashes = new int[n];
        int[] length = new int[n];
        for (int h = 0; h < layout.numHosts(); h++) {
            for (int p = layout.hostStart(h); p < layout.hostEnd(h); p++) {
                host[p] = h;
                String url = layout.pageUrl(p, 80);
                int s = 0;
                for (int i = 0; i < url.length(); i++) {
                    if (url.charAt(i) == '/') {
                        s++;
                    }
                }
                slashes[p] = s;
                length[p] = url.length();
            }
        }
        return NodeLabels.of(host, slashes, length);
    }

    /** Number of hosts in the layout the labels above are built from. */
    public static int hosts(NodeLabels labels) {
        int max = -1;
        for (int v = 0; v < labels.numNodes(); v++) {
            max = Math.max(max, labels.hostOf(v));
        }
        return max + 1;
    }
}
