package io.github.kcrawler.common.model;

/**
 * A fetched URL whose body is identical (same 128-bit fingerprint of the normalised body) to that of other URLs
 * currently holding it. Topic {@code crawl.content.duplicates}, key: host IP of the URL.
 *
 * @param refCount URLs holding this body now, this one included (≥ 2)
 */
public record ContentDuplicate(int v, String url, long urlFingerprint, String contentHash, int refCount) {
    public static final int VERSION = 1;

    public static ContentDuplicate of(String url, long urlFingerprint, String contentHash, int refCount) {
        return new ContentDuplicate(VERSION, url, urlFingerprint, contentHash, refCount);
    }
}
