package io.github.kcrawler.lab.ranker.pagerank;

import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a crawl-ordering strategy may know about a URL besides its links: its host (for the paper's tie rule
 * "off-site links before same-site links of one page", 002 §4.2) and the shape of its URL string (for the
 * back-link-count baseline's ties: fewer '/' first, then the shorter URL). Node ids are {@code 0 .. numNodes()-1}.
 */
public interface NodeLabels {

    int numNodes();

    /** A host index; two nodes are on the same site exactly when their host indices are equal. */
    int hostOf(int node);

    /** Number of '/' characters in the node's URL. */
    int slashes(int node);

    /** Length of the node's URL in characters. */
    int urlLength(int node);

    /** Labels read off real URL strings: node i is {@code urls.get(i)}; the host is the URI host, lower-cased. */
    static NodeLabels ofUrls(List<String> urls) {
        int n = urls.size();
        int[] host = new int[n];
        int[] slashes = new int[n];
        int[] length = new int[n];
        Map<String, Integer> hosts = new HashMap<>();
        for (int i = 0; i < n; i++) {
            String url = urls.get(i);
            if (url == null) {
                throw new IllegalArgumentException("url of node " + i + " is null");
            }
            String h;
            try {
                h = URI.create(url).getHost();
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("url of node " + i + " is not a URI: '" + url + "'", e);
            }
            host[i] = hosts.computeIfAbsent(h == null ? "" : h.toLowerCase(java.util.Locale.ROOT), k -> hosts.size());
            int s = 0;
            for (int c = 0; c < url.length(); c++) {
                if (url.charAt(c) == '/') {
                    s++;
                }
            }
            slashes[i] = s;
            length[i] = url.length();
        }
        return of(host, slashes, length);
    }

    /** Labels from arrays indexed by node (copied). */
    static NodeLabels of(int[] host, int[] slashes, int[] urlLength) {
        if (host.length != slashes.length || host.length != urlLength.length) {
            throw new IllegalArgumentException("label arrays differ in length: " + host.length + ", "
                    + slashes.length + ", " + urlLength.length);
        }
        int[] h = host.clone();
        int[] s = slashes.clone();
        int[] l = urlLength.clone();
        return new NodeLabels() {
            @Override
            public int numNodes() {
                return h.length;
            }

            @Override
            public int hostOf(int node) {
                return h[node];
            }

            @Override
            public int slashes(int node) {
                return s[node];
            }

            @Override
            public int urlLength(int node) {
                return l[node];
            }
        };
    }

    /** {@code numNodes} nodes on one host with identical URL shapes: every tie falls to discovery order. */
    static NodeLabels singleHost(int numNodes) {
        return of(new int[numNodes], new int[numNodes], new int[numNodes]);
    }
}
