package io.github.kcrawler.common.model;

/**
 * A URL starting ({@link Op#ADD}) or ceasing ({@link Op#REMOVE}) to hold a page body, sent to the partition that owns
 * the body's fingerprint so that identical bodies of URLs on different servers meet in one place. Topic
 * {@code crawl.content.refs}, key: the body's 128-bit fingerprint in hex — the one topic not keyed by host IP.
 *
 * @param contentHash 32 hex digits (the fetcher's {@code Fingerprints.hex128} of the normalised body)
 * @param ip          host IP of the URL, the key its duplicate report travels under
 */
public record ContentRef(int v, Op op, String contentHash, String url, long urlFingerprint, String ip) {
    public static final int VERSION = 1;

    /** What happened to the URL's reference to the body. */
    public enum Op {
        ADD, REMOVE
    }

    public static ContentRef of(Op op, String contentHash, String url, long urlFingerprint, String ip) {
        return new ContentRef(VERSION, op, contentHash, url, urlFingerprint, ip);
    }
}
