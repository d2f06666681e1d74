package io.github.kcrawler.websim;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Renders the HTML of a page: a title, text of heavy-tailed length (a few hundred bytes to tens of KB, with some
 * non-ASCII words so charset handling matters) and one {@code <a href>} per outlink, in graph order.
 *
 * <p>Links are written in many equivalent forms so that a crawler's URL resolution and normalisation are
 * exercised, yet every one of them resolves (RFC 3986, honouring {@code <base href>}, then removing dot segments
 * and the fragment) to the target's canonical URL {@code http://host:port/p/<id>}:
 * <ul>
 *   <li>about one page in twelve has {@code <base href="http://own-host:port/a/b/">}, one in twelve
 *   {@code <base href="/x/">} (itself relative), and one in twelve a base on the host of its first cross-host
 *   outlink;</li>
 *   <li>a link to a page on the base's host is one of: absolute, {@code /p/7}, {@code 7} (relative to the base
 *   directory, e.g. {@code ../../p/7} under {@code /a/b/}), {@code ./7}, relative with a fragment,
 *   {@code /p/../p/./7}, protocol-relative {@code //host:port/p/7}, {@code ../p/7}-style, absolute with a
 *   fragment;</li>
 *   <li>a link to another host is absolute, protocol-relative, or absolute with a fragment.</li>
 * </ul>
 * The choice for each link is {@code hash(seed, page, link index)}, so a page's bytes are a pure function of
 * (layout, graph, seed, page, port). That makes the ETag and Last-Modified stable across runs. Thread-safe.
 */
public final class PageRenderer {

    private static final long TEXT = 11;
    private static final long WORDS = 12;
    private static final long BASE = 13;
    private static final long LINK = 14;
    private static final long ETAG = 15;
    private static final long MODIFIED = 16;
    /** 2024-01-01T00:00:00Z: pages were last modified during the year before. */
    private static final long EPOCH_SECONDS = 1_704_067_200L;
    private static final String[] FRAGMENTS = {"#s0", "#s1", "#s2", "#s3", "#s4"};
    private static final byte[][] VOCABULARY = Stream.of(
        "crawler", "graph", "page", "link", "host", "server", "archive", "index", "search", "queue", "politeness",
        "robots", "fetch", "revisit", "priority", "rank", "frontier", "bloom", "filter", "stream", "partition",
        "kafka", "topic", "record", "offset", "latency", "bandwidth", "cache", "document", "anchor", "text",
        "the", "a", "of", "and", "to", "in", "is", "for", "on", "with", "web", "data", "site", "domain",
        "café", "naïve", "Größe", "déjà", "résumé", "日本", "ウェブ", "网页", "Ελλάδα")
            .map(w -> w.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);

    private final SiteLayout layout;
    private final WebGraphSource graph;
    private final long seed;
    private final java.util.BitSet extraLinkPages;
    private final java.util.List<String> extraLinkHosts;

    public PageRenderer(SiteLayout layout, WebGraphSource graph) {
        this(layout, graph, new int[0], java.util.List.of());
    }

    /**
     * A renderer whose pages {@code linkPages} (the seeds) also link to the home page {@code http://host:port/} of
     * each of {@code extraHosts} (the hostile hosts), in a list after the page's own links.
     */
    public PageRenderer(SiteLayout layout, WebGraphSource graph, int[] linkPages, java.util.List<String> extraHosts) {
        if (layout.numPages() != graph.numPages()) {
            throw new IllegalArgumentException("layout has " + layout.numPages() + " pages but the graph has "
                    + graph.numPages());
        }
        this.layout = layout;
        this.graph = graph;
        this.seed = layout.seed();
        this.extraLinkPages = new java.util.BitSet();
        for (int p : linkPages) {
            extraLinkPages.set(p);
        }
        this.extraLinkHosts = java.util.List.copyOf(extraHosts);
    }

    /** The page's HTML as UTF-8 bytes, with links for {@code port}: the static page of {@link ChangeModel#NONE}. */
    public byte[] render(int page, int port) {
        return render(page, port, false, 0);
    }

    /**
     * Version {@code version} of a changing page ({@link ChangeSchedule}): the static page plus a line naming the
     * revision, so each version's bytes (and content hash) differ from the others'.
     */
    public byte[] render(int page, int port, long version) {
        return render(page, port, true, version);
    }

    private byte[] render(int page, int port, boolean versioned, long version) {
        int host = layout.hostOf(page);
        int words = Mix.pareto(Mix.unit(Mix.hash(seed, page, TEXT)), 40, 1.3, 4000);
        int degree = graph.outdegree(page);
        Utf8Sink out = new Utf8Sink(512 + words * 8 + degree * 64);
        SplittableRandom rnd = new SplittableRandom(Mix.hash(seed, page, WORDS));
        int headingStart = out.length();
        appendWords(out, rnd, 3 + rnd.nextInt(5));
        byte[] heading = out.cut(headingStart);
        out.ascii("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>").bytes(heading)
                .ascii(" - ").ascii(layout.hostName(host)).ascii(" page ").num(page).ascii("</title>\n");
        int baseHost = host;
        String baseDir = "/p/";
        switch (Mix.below(Mix.hash(seed, page, BASE), 12)) {
            case 0 -> {
                baseDir = "/a/b/";
                out.ascii("<base href=\"http://").ascii(layout.authority(host, port)).ascii(baseDir).ascii("\">\n");
            }
            case 1 -> {
                baseDir = "/x/";
                out.ascii("<base href=\"/x/\">\n");
            }
            case 2 -> {
                int other = firstOtherHost(page, host);
                if (other >= 0) {
                    baseHost = other;
                    out.ascii("<base href=\"http://").ascii(layout.authority(other, port)).ascii("/p/\">\n");
                }
            }
            default -> {
            }
        }
        out.ascii("</head>\n<body>\n<h1>").bytes(heading).ascii("</h1>\n");
        int paragraphs = 1 + words / 80;
        int wordsLeft = words;
        int linkIndex = 0;
        for (int par = 0; par < paragraphs; par++) {
            int w = par == paragraphs - 1 ? wordsLeft : Math.min(wordsLeft, 40 + rnd.nextInt(80));
            wordsLeft -= w;
            out.ascii("<p>");
            appendWords(out, rnd, Math.max(1, w));
            out.ascii(".</p>\n");
            int linksHere = par == paragraphs - 1 ? degree - linkIndex : (degree - linkIndex) / (paragraphs - par);
            if (linksHere > 0) {
                out.ascii("<ul>\n");
                for (int k = 0; k < linksHere; k++, linkIndex++) {
                    int target = graph.outlink(page, linkIndex);
                    out.ascii("<li><a href=\"");
                    appendHref(out, page, linkIndex, target, baseHost, baseDir, port);
                    out.ascii("\">");
                    if (rnd.nextInt(3) == 0) {
                        out.ascii("page ").num(target);
                    } else {
                        appendWords(out, rnd, 1 + rnd.nextInt(4));
                    }
                    out.ascii("</a></li>\n");
                }
                out.ascii("</ul>\n");
            }
        }
        if (!extraLinkHosts.isEmpty() && extraLinkPages.get(page)) {
            out.ascii("<ul class=\"elsewhere\">\n");
            for (String h : extraLinkHosts) {
                String authority = port == 80 ? h : h + ":" + port;
                out.ascii("<li><a href=\"http://").ascii(authority).ascii("/\">").ascii(h).ascii("</a></li>\n");
            }
            out.ascii("</ul>\n");
        }
        if (versioned) {
            out.ascii("<p class=\"revision\">revision ").ascii(Long.toString(version)).ascii("</p>\n");
        }
        out.ascii("<footer>").ascii(layout.hostName(host)).ascii("</footer>\n</body>\n</html>\n");
        return out.toByteArray();
    }

    private int firstOtherHost(int page, int host) {
        int d = graph.outdegree(page);
        for (int i = 0; i < d; i++) {
            int h = layout.hostOf(graph.outlink(page, i));
            if (h != host) {
                return h;
            }
        }
        return -1;
    }

    private void appendHref(Utf8Sink out, int page, int index, int target, int baseHost, String baseDir, int port) {
        int targetHost = layout.hostOf(target);
        long h = Mix.hash(seed, page, LINK, index);
        String fragment = FRAGMENTS[Mix.below(h >>> 7, FRAGMENTS.length)];
        String authority = layout.authority(targetHost, port);
        if (targetHost != baseHost) {
            switch (Mix.below(h, 3)) {
                case 0 -> out.ascii("http://").ascii(authority).ascii("/p/").num(target);
                case 1 -> out.ascii("//").ascii(authority).ascii("/p/").num(target);
                default -> out.ascii("http://").ascii(authority).ascii("/p/").num(target).ascii(fragment);
            }
            return;
        }
        // path from the base directory back to /p/: "" for /p/, "../p/" for /x/, "../../p/" for /a/b/
        String rel = switch (baseDir) {
            case "/p/" -> "";
            case "/x/" -> "../p/";
            default -> "../../p/";
        };
        switch (Mix.below(h, 9)) {
            case 0 -> out.ascii("http://").ascii(authority).ascii("/p/").num(target);
            case 1 -> out.ascii("/p/").num(target);
            case 2 -> out.ascii(rel).num(target);
            case 3 -> out.ascii("./").ascii(rel).num(target);
            case 4 -> out.ascii(rel).num(target).ascii(fragment);
            case 5 -> out.ascii("/p/../p/./").num(target);
            case 6 -> out.ascii("//").ascii(authority).ascii("/p/").num(target);
            case 7 -> out.ascii(rel).ascii("../p/").num(target);
            default -> out.ascii("http://").ascii(authority).ascii("/p/").num(target).ascii("#top");
        }
    }

    private static void appendWords(Utf8Sink out, SplittableRandom rnd, int count) {
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                out.ascii(i % 13 == 0 ? ", " : " ");
            }
            out.bytes(VOCABULARY[rnd.nextInt(VOCABULARY.length)]);
        }
    }

    /** The page's strong entity tag (quoted), a hash of everything its bytes depend on. */
    public String etag(int page, int port) {
        return "\"" + Long.toHexString(Mix.hash(seed, page, port, ETAG)) + "\"";
    }

    /**
     * The strong entity tag of version {@code version} of a changing page: {@code "<hash>.<version>"}, the hash
     * covering the version too, so a tag names one version and {@link #etagVersion} can tell an earlier version's tag
     * from a foreign one.
     */
    public String etag(int page, int port, long version) {
        return "\"" + Long.toHexString(Mix.hash(Mix.hash(seed, page, port, ETAG), version)) + "." + version + "\"";
    }

    /**
     * The version named by {@code tag} if it is exactly this page's tag for that version (quotes included), else
     * {@code Long.MIN_VALUE}. Total: any string gives an answer.
     */
    public long etagVersion(int page, int port, String tag) {
        int dot = tag.lastIndexOf('.');
        if (dot < 0 || tag.length() < 4 || tag.charAt(tag.length() - 1) != '"') {
            return Long.MIN_VALUE;
        }
        long version;
        try {
            version = Long.parseLong(tag.substring(dot + 1, tag.length() - 1));
        } catch (NumberFormatException e) {
            return Long.MIN_VALUE;
        }
        return tag.equals(etag(page, port, version)) ? version : Long.MIN_VALUE;
    }

    /** The page's Last-Modified time in epoch milliseconds (whole seconds, as HTTP dates have). */
    public long lastModifiedMillis(int page) {
        return (EPOCH_SECONDS - Mix.below(Mix.hash(seed, page, MODIFIED), 365 * 86_400)) * 1000L;
    }
}
