package io.github.kcrawler.fetcher.sitemap;

/**
 * What fetching one sitemap file produced.
 *
 * @param status    HTTP status, 0 when there was no response
 * @param body      the payload (Content-Encoding already undone by the HTTP client); {@code length} bytes count
 * @param truncated the body was cut at {@code sitemap-max-bytes}
 * @param inflated  it was cut while undoing its Content-Encoding (a gzip bomb)
 * @param location  the Location header of a 3xx, or null
 * @param notOwned  the fetch was not sent: this instance no longer owns the site's IP (its partition moved)
 */
public record SitemapResponse(int status, byte[] body, int length, String contentType, boolean truncated,
                              boolean inflated, String location, boolean notOwned, String error) {
    private static final byte[] EMPTY = new byte[0];

    public static SitemapResponse failed(String error) {
        return new SitemapResponse(0, EMPTY, 0, null, false, false, null, false, error);
    }

    public static SitemapResponse notOwnedAnyMore() {
        return new SitemapResponse(0, EMPTY, 0, null, false, false, null, true, "partition moved");
    }
}
