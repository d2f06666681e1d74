package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.url.UrlNormalizer;

import java.net.InetAddress;

/**
 * One fetch request on its way through the pipeline: the record it came from (key and offset slot), the parts of
 * its URL the HTTP client needs, and what was learnt on the way (address, DNS time). Fields are written by one
 * stage at a time; the hand-offs between stages (scheduler, futures, executors) publish them safely.
 */
final class FetchJob {
    final String key;
    final FetchRequest request;
    final OffsetTracker.Slot slot;
    boolean https;
    String host;
    int port;
    String requestTarget;
    String siteKey;
    InetAddress address;
    String ip;
    long dnsMillis;
    /**
     * Not sent before (epoch ms): the scheduler's {@code notBefore}, or later — T after this instance was given the
     * request's partition, when that is later ({@code ConsumerLoop}).
     */
    long notBefore;

    FetchJob(String key, FetchRequest request, OffsetTracker.Slot slot) {
        this.key = key;
        this.request = request;
        this.slot = slot;
        this.notBefore = request.notBefore();
    }

    /**
     * Normalises the URL (idempotent for URLs that already are) and splits it into what the HTTP client needs;
     * false if it is not a usable http(s) URL. {@link java.net.URI} is not used: it refuses characters such as
     * {@code |} and {@code ^} that the URL standard leaves unescaped in paths.
     */
    boolean parseUrl() {
        String url = UrlNormalizer.normalize(request.url()).orElse(null);
        if (url == null) {
            return false;
        }
        https = url.startsWith("https://");
        if (!https && !url.startsWith("http://")) {
            return false;
        }
        host = UrlNormalizer.host(url);
        port = UrlNormalizer.port(url);
        if (host == null || port < 1 || port > 65535) {
            return false;
        }
        int authority = https ? 8 : 7;
        int slash = url.indexOf('/', authority);
        int query = url.indexOf('?', authority);
        int pathStart = slash < 0 ? query : query < 0 ? slash : Math.min(slash, query);
        String target = pathStart < 0 ? "/" : url.substring(pathStart);
        requestTarget = target.startsWith("?") ? "/" + target : target;
        siteKey = (https ? "https://" : "http://") + host + ":" + port;
        return true;
    }
}
