package io.github.kcrawler.fetcher.robots;

import crawlercommons.sitemaps.AbstractSiteMap;
import crawlercommons.sitemaps.SiteMap;
import crawlercommons.sitemaps.SiteMapIndex;
import crawlercommons.sitemaps.SiteMapParser;
import crawlercommons.sitemaps.SiteMapURL;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * One sitemap file, parsed: a total function from the bytes a server sent to the URLs (or, for an index, the
 * sitemap files) it lists, never an exception. crawler-commons' {@link SiteMapParser} does the parsing (XML
 * sitemaps and indexes, RSS, Atom, plain text), non-strict (robots.txt speaks for the whole host, so a sitemap may
 * list URLs outside its own directory) and accepting a partial parse (a file cut at the byte limit still gives the
 * URLs before the cut). Hostile input is bounded before the parser sees it:
 * <ul>
 *   <li>gzip (a {@code .xml.gz} served as is) is undone here, by a stream read at most {@code maxBytes} far: a gzip
 *   bomb costs {@code maxBytes} of output and ends as {@link Problem#INFLATED_TOO_LARGE} with its prefix parsed;</li>
 *   <li>XML with a DOCTYPE is refused by the parser (crawler-commons' default, set again here): no external entity
 *   is ever fetched (XXE) and no entity expands (billion laughs);</li>
 *   <li>at most {@code maxUrls} URLs are kept (and at most that many sitemap files of an index); the rest are
 *   counted.</li>
 * </ul>
 */
public final class SitemapParsing {
    /** Why a file gave fewer URLs than it holds (the file's reason code), or null. */
    public enum Problem { TOO_LARGE, INFLATED_TOO_LARGE, MALFORMED }

    /**
     * @param index    true for a sitemap index: {@code urls} are then sitemap files
     * @param urls     the URLs listed, in file order, at most {@code maxUrls}
     * @param dropped  URLs beyond {@code maxUrls}
     */
    public record Parsed(boolean index, List<String> urls, int dropped, Problem problem) {
        static Parsed failed(Problem p) {
            return new Parsed(false, List.of(), 0, p);
        }
    }

    private SitemapParsing() {
    }

    /**
     * @param truncated the body was cut at the byte limit by the HTTP client (already a {@link Problem#TOO_LARGE})
     */
    public static Parsed parse(String url, byte[] body, int length, String contentType, boolean truncated,
                               int maxBytes, int maxUrls) {
        try {
            Problem problem = truncated ? Problem.TOO_LARGE : null;
            byte[] content = length == body.length ? body : java.util.Arrays.copyOf(body, length);
            if (content.length >= 2 && (content[0] & 0xff) == 0x1f && (content[1] & 0xff) == 0x8b) {
                Inflated in = gunzip(content, maxBytes);
                content = in.bytes;
                if (in.overflow) {
                    problem = Problem.INFLATED_TOO_LARGE;
                } else if (in.corrupt && problem == null) {
                    problem = content.length == 0 ? Problem.MALFORMED : Problem.TOO_LARGE; // a cut gzip stream
                }
                contentType = null; // decoded: sniffed below
            }
            if (content.length == 0) {
                return Parsed.failed(problem != null ? problem : Problem.MALFORMED);
            }
            String type = typeOf(content, contentType);
            if (type.equals("text/plain")) {
                return text(content, maxUrls, problem);
            }
            SiteMapParser parser = new SiteMapParser(false, true);
            parser.setAllowDocTypeDefinitions(false);
            AbstractSiteMap map = parser.parseSiteMap(type, content, new URL(url));
            return collect(map, maxUrls, problem);
        } catch (Exception | StackOverflowError e) {
            return Parsed.failed(Problem.MALFORMED);
        }
    }

    private static Parsed collect(AbstractSiteMap map, int maxUrls, Problem problem) {
        List<String> urls = new ArrayList<>();
        int dropped = 0;
        if (map instanceof SiteMapIndex idx) {
            for (AbstractSiteMap child : idx.getSitemaps()) {
                if (urls.size() < maxUrls) {
                    urls.add(child.getUrl().toString());
                } else {
                    dropped++;
                }
            }
            return new Parsed(true, urls, dropped, problem);
        }
        if (map instanceof SiteMap sm) {
            for (SiteMapURL u : sm.getSiteMapUrls()) {
                if (urls.size() < maxUrls) {
                    urls.add(u.getUrl().toString());
                } else {
                    dropped++;
                }
            }
            if (urls.isEmpty() && dropped == 0 && problem == null && !sm.isProcessed()) {
                problem = Problem.MALFORMED;
            }
            return new Parsed(false, urls, dropped, problem);
        }
        return Parsed.failed(Problem.MALFORMED);
    }

    /**
     * A text sitemap: one URL per line (UTF-8). Read here rather than by crawler-commons, which logs a warning with
     * the line for every line that is not a URL — a hostile file of {@code sitemap-max-bytes} would flood the log.
     * Lines that are not http(s) URLs are skipped; the URLs are normalised (and counted) by the caller.
     */
    private static Parsed text(byte[] content, int maxUrls, Problem problem) {
        List<String> urls = new ArrayList<>();
        int dropped = 0;
        int start = 0;
        for (int i = 0; i <= content.length; i++) {
            if (i < content.length && content[i] != '\n') {
                continue;
            }
            String line = new String(content, start, i - start, java.nio.charset.StandardCharsets.UTF_8).trim();
            start = i + 1;
            if (line.regionMatches(true, 0, "http://", 0, 7) || line.regionMatches(true, 0, "https://", 0, 8)) {
                if (urls.size() < maxUrls) {
                    urls.add(line);
                } else {
                    dropped++;
                }
            }
        }
        return new Parsed(false, urls, dropped, problem);
    }

    /** XML when the first non-blank byte is '<' (whatever the server called it), else the server's type or text. */
    private static String typeOf(byte[] content, String contentType) {
        for (byte b : content) {
            if (b == ' ' || b == '\t' || b == '\r' || b == '\n' || b == (byte) 0xef || b == (byte) 0xbb
                    || b == (byte) 0xbf) {
                continue; // blanks and a UTF-8 byte-order mark
            }
            if (b == '<') {
                return "text/xml";
            }
            break;
        }
        return contentType != null && contentType.toLowerCase(java.util.Locale.ROOT).contains("xml")
                ? "text/xml" : "text/plain";
    }

    private record Inflated(byte[] bytes, boolean overflow, boolean corrupt) { }

    /** At most {@code maxBytes} of the decompressed stream; never more is inflated. */
    private static Inflated gunzip(byte[] gz, int maxBytes) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(Math.min(maxBytes, 4 * gz.length + 64));
        byte[] buf = new byte[16 * 1024];
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz), 8192)) {
            int n;
            while ((n = in.read(buf, 0, Math.min(buf.length, maxBytes - out.size() + 1))) > 0) {
                int keep = Math.min(n, maxBytes - out.size());
                out.write(buf, 0, keep);
                if (keep < n) {
                    return new Inflated(out.toByteArray(), true, false);
                }
            }
            return new Inflated(out.toByteArray(), false, false);
        } catch (IOException | RuntimeException e) {
            return new Inflated(out.toByteArray(), false, true);
        }
    }
}
