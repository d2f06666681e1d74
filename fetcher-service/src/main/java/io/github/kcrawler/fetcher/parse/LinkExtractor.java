package io.github.kcrawler.fetcher.parse;

import io.github.kcrawler.common.url.UrlNormalizer;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Outlinks of an HTML page, the only place that touches jsoup. The page is parsed with its URL as base URI and the
 * charset from the Content-Type header (else jsoup detects it from the BOM or a meta tag, else UTF-8); a
 * {@code <base href>} replaces the base for relative links. Links come from {@code a[href]}, {@code area[href]}
 * and {@code frame[src]} / {@code iframe[src]}; each is resolved and normalised with {@link UrlNormalizer}
 * (fragments dropped), kept only if it is http(s), deduplicated within the page and returned in document order,
 * at most {@code maxOutlinks} of them.
 *
 * <p>{@code rel="nofollow"} on a link, and {@code <meta name="robots" content="nofollow">} (or {@code none}) for
 * the whole page, are honoured unless {@code followNofollow} is set: the author asked crawlers not to follow them,
 * and a polite crawler does not need them for discovery. Links dropped for any reason are counted by
 * {@link Rejection} so the caller can report them.
 *
 * <p>Parsing untrusted HTML is total: malformed markup is whatever jsoup makes of it, and anything that still
 * goes wrong yields no links rather than an exception.
 */
public final class LinkExtractor {
    /** Why an outlink was dropped; the {@code reason} tag of {@code LINKS_REJECTED}. */
    public enum Rejection { MALFORMED, SCHEME, NOFOLLOW, LIMIT }

    /** The result for one page: links in document order and counts of dropped ones, indexed by ordinal. */
    public record Links(List<String> urls, int[] rejected, boolean parsed) {
        public int rejected(Rejection r) {
            return rejected[r.ordinal()];
        }
    }

    private final int maxOutlinks;
    private final boolean followNofollow;

    public LinkExtractor(int maxOutlinks, boolean followNofollow) {
        if (maxOutlinks < 0) {
            throw new IllegalArgumentException("maxOutlinks must be >= 0, was " + maxOutlinks);
        }
        this.maxOutlinks = maxOutlinks;
        this.followNofollow = followNofollow;
    }

    /**
     * @param charset declared charset or null
     * @param pageUrl the normalised URL the page was fetched from (base URI)
     */
    public Links extract(byte[] body, int length, String charset, String pageUrl) {
        int[] rejected = new int[Rejection.values().length];
        Document doc;
        try {
            doc = Jsoup.parse(new ByteArrayInputStream(body, 0, length), charset, pageUrl);
        } catch (IOException | RuntimeException e) {
            return new Links(List.of(), rejected, false);
        }
        // one pass over the tree collects the link elements, the first <base href> and <meta name=robots>
        Scan scan = new Scan(followNofollow);
        try {
            NodeTraversor.traverse(scan, doc);
        } catch (RuntimeException e) {
            return new Links(List.of(), rejected, false);
        }
        if (scan.links.isEmpty()) {
            return new Links(List.of(), rejected, true);
        }
        UrlNormalizer.Base base = baseOf(scan.baseHref, pageUrl);
        boolean pageNofollow = !followNofollow && scan.metaNofollow;
        LinkedHashSet<String> out = new LinkedHashSet<>(Math.min(scan.links.size(), maxOutlinks) * 2);
        for (Element e : scan.links) {
            String tag = e.normalName();
            String raw = tag.equals("a") || tag.equals("area") ? e.attr("href") : e.attr("src");
            if (pageNofollow || (!followNofollow && relNofollow(e))) {
                rejected[Rejection.NOFOLLOW.ordinal()]++;
                continue;
            }
            if (hasNonHttpScheme(raw)) {
                rejected[Rejection.SCHEME.ordinal()]++;
                continue;
            }
            Optional<String> normalised;
            try {
                normalised = base != null ? base.resolve(raw) : UrlNormalizer.normalize(raw);
            } catch (RuntimeException ex) {
                normalised = Optional.empty();
            }
            if (normalised.isEmpty()) {
                rejected[Rejection.MALFORMED.ordinal()]++;
                continue;
            }
            String url = normalised.get();
            if (!url.startsWith("http://") && !url.startsWith("https://")) {
                rejected[Rejection.SCHEME.ordinal()]++;
                continue;
            }
            if (out.size() >= maxOutlinks) {
                if (!out.contains(url)) {
                    rejected[Rejection.LIMIT.ordinal()]++;
                }
                continue;
            }
            out.add(url);
        }
        return new Links(new ArrayList<>(out), rejected, true);
    }

    /** Collects, in document order, the elements that carry links, plus the page-level hints. */
    private static final class Scan implements NodeVisitor {
        final List<Element> links = new ArrayList<>();
        final boolean ignoreMeta;
        String baseHref;
        boolean metaNofollow;

        Scan(boolean ignoreMeta) {
            this.ignoreMeta = ignoreMeta;
        }

        @Override
        public void head(Node node, int depth) {
            if (!(node instanceof Element e)) {
                return;
            }
            switch (e.normalName()) {
                case "a", "area" -> {
                    if (e.hasAttr("href")) {
                        links.add(e);
                    }
                }
                case "frame", "iframe" -> {
                    if (e.hasAttr("src")) {
                        links.add(e);
                    }
                }
                case "base" -> {
                    if (baseHref == null && e.hasAttr("href")) {
                        baseHref = e.attr("href");
                    }
                }
                case "meta" -> {
                    if (!ignoreMeta && e.attr("name").trim().equalsIgnoreCase("robots")) {
                        String content = e.attr("content").toLowerCase(Locale.ROOT);
                        metaNofollow |= content.contains("nofollow") || content.contains("none");
                    }
                }
                default -> {
                }
            }
        }
    }

    /** The page URL, or the {@code <base href>} resolved against it; null if neither is a usable base. */
    private static UrlNormalizer.Base baseOf(String baseHref, String pageUrl) {
        UrlNormalizer.Base page = UrlNormalizer.base(pageUrl).orElse(null);
        if (baseHref == null) {
            return page;
        }
        try {
            String resolved = page != null ? page.resolve(baseHref).orElse(null)
                    : UrlNormalizer.normalize(baseHref).orElse(null);
            UrlNormalizer.Base b = resolved == null ? null : UrlNormalizer.base(resolved).orElse(null);
            return b != null ? b : page;
        } catch (RuntimeException e) {
            return page;
        }
    }

    private static boolean relNofollow(Element e) {
        String rel = e.attr("rel");
        return !rel.isEmpty() && rel.toLowerCase(Locale.ROOT).contains("nofollow");
    }

    /** True for javascript:, mailto:, data: and the like (a scheme other than http/https before any '/', '?', '#'). */
    static boolean hasNonHttpScheme(String raw) {
        String s = raw.strip();
        int colon = s.indexOf(':');
        if (colon <= 0) {
            return false;
        }
        for (int i = 0; i < colon; i++) {
            char c = s.charAt(i);
            boolean schemeChar = Character.isLetterOrDigit(c) || c == '+' || c == '-' || c == '.';
            if (!schemeChar) {
                return false; // e.g. "/a:b" or "?x=y:z": a relative reference
            }
        }
        String scheme = s.substring(0, colon).toLowerCase(Locale.ROOT);
        return !scheme.equals("http") && !scheme.equals("https");
    }
}
