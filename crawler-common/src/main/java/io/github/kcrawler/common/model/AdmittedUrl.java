package io.github.kcrawler.common.model;

/**
 * A URL that passed the URL-seen test: never admitted before (or forgotten since). Topic {@code crawl.urls.admitted}.
 *
 * @param fingerprint the 64-bit URL fingerprint ({@code Fingerprints.url})
 */
public record AdmittedUrl(int v, String url, int depth, long fingerprint) {
    public static final int VERSION = 1;

    public static AdmittedUrl of(String url, int depth, long fingerprint) {
        return new AdmittedUrl(VERSION, url, depth, fingerprint);
    }
}
