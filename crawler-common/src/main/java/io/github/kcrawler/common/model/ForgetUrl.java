package io.github.kcrawler.common.model;

/**
 * Asks the URL-seen test to forget a URL so that it is admitted again when rediscovered (the scheduler dropped it).
 * Topic {@code crawl.urls.forget}.
 */
public record ForgetUrl(int v, long fingerprint, String url, String reason) {
    public static final int VERSION = 1;

    public static ForgetUrl of(long fingerprint, String url, String reason) {
        return new ForgetUrl(VERSION, fingerprint, url, reason);
    }
}
