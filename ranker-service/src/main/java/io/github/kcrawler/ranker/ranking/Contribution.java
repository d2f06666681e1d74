package io.github.kcrawler.ranker.ranking;

/**
 * A share of score one fetched page gives one of the pages it links to; it travels to the partition owning the
 * target (keyed by {@code ip}) as a {@code RankDelta}.
 *
 * @param url         the target's normalised URL
 * @param fingerprint the target's URL fingerprint
 * @param ip          the IP the target's host resolved to: the key of the delta
 * @param amount      the score given
 */
public record Contribution(String url, long fingerprint, String ip, double amount) {
}
