package io.github.kcrawler.ranker.processor;

import io.github.kcrawler.common.serde.JsonSerde;

/**
 * The persisted score of one URL in the ranker's store (key: URL fingerprint). It keeps the URL and the IP of its
 * host so a coalesced score update can be published later as a {@code RankScore} keyed by that IP. JSON with a
 * format version, like every topic payload, so the changelog stays readable with Kafka's console tools.
 *
 * @param ip the key the URL's deltas last arrived under (if DNS moves a host, later deltas for it land on the
 *           new IP's partition and are counted there from zero; the old partition's entry goes stale)
 */
public record ScoreEntry(int v, String url, String ip, double score) {
    public static final int VERSION = 1;
    public static final JsonSerde<ScoreEntry> SERDE = JsonSerde.of(ScoreEntry.class);

    public static ScoreEntry of(String url, String ip, double score) {
        return new ScoreEntry(VERSION, url, ip, score);
    }
}
