package io.github.kcrawler.ranker.processor;

import io.github.kcrawler.common.serde.JsonSerde;

/**
 * The persisted score of one URL in the ranker's store (key: URL fingerprint). It keeps the URL and the IP of its
 * host so a coalesced score update can be published later as a {@code RankScore} of that IP. JSON with a
 * format version, like every topic payload, so the changelog stays readable with Kafka's console tools.
 *
 * @param ip    the IP the URL's deltas last named (if DNS moves a host, later deltas for it land on the new IP's
 *              partition and are counted there from zero; the old partition's entry goes stale)
 * @param epoch the task's publication epoch when the entry was last written ({@link UnpublishedScores}); in the
 *              epoch mark (no URL) the task's current epoch
 */
public record ScoreEntry(int v, String url, String ip, double score, long epoch) {
    public static final int VERSION = 1;
    public static final JsonSerde<ScoreEntry> SERDE = JsonSerde.of(ScoreEntry.class);

    /** How the score store carries publication epochs. */
    static final UnpublishedScores.Epochs<ScoreEntry> EPOCHS = new UnpublishedScores.Epochs<>() {
        @Override
        public long epochOf(ScoreEntry value) {
            return value.epoch();
        }

        @Override
        public ScoreEntry mark(long epoch) {
            return new ScoreEntry(VERSION, null, null, 0.0, epoch);
        }

        @Override
        public boolean publishable(ScoreEntry value) {
            return value.url() != null;
        }
    };

    public static ScoreEntry of(String url, String ip, double score, long epoch) {
        return new ScoreEntry(VERSION, url, ip, score, epoch);
    }
}
