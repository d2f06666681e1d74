package io.github.kcrawler.common.streams;

import io.github.kcrawler.common.config.Check;
import io.github.kcrawler.common.config.Setting;
import io.github.kcrawler.common.config.SettingSet;
import io.github.kcrawler.common.config.Settings;

/**
 * When a {@link JournalStore} logs a snapshot instead of its batch: once the changes logged since the last snapshot
 * exceed both {@code minOps} and {@code factor} times the store's entries. Each Streams service with journaled stores
 * (dedup, scheduler, ranker) reads these keys ({@link #SETTINGS}) and applies them to all of its journaled stores.
 *
 * @param minOps changes since the last snapshot before one is considered, whatever the store's size: small stores
 *               are not snapshotted over and over
 * @param factor a compacted changelog holds at most about {@code 1 + factor} times the live entries, and a snapshot
 *               (one pass over the store) comes every {@code factor × entries} changes: larger means rarer snapshots
 *               and a longer restore
 * @param commitBytes how many bytes of snapshot one commit writes at most (beyond one entry); a snapshot of a larger
 *               store is spread over several commits, so no transaction carries a whole store
 */
public record JournalSnapshots(long minOps, double factor, int commitBytes) {
    public static final Setting<Long> MIN_OPS = Setting.longValue("journal-snapshot-min-ops", 100_000L,
            Check.range(0, 1L << 40), "journaled stores: changes logged since the last snapshot before a store "
                    + "considers a new one, whatever its size");
    public static final Setting<Double> FACTOR = Setting.decimal("journal-snapshot-factor", 2.0,
            Check.of(f -> f >= 0.1 && f <= 1000, "must be in [0.1, 1000]"), "journaled stores: a snapshot is "
                    + "logged once the changes since the last exceed this many times the store's entries (the "
                    + "compacted changelog stays within about 1 + this times the live state)");
    public static final Setting<Integer> COMMIT_BYTES = Setting.integer("journal-snapshot-commit-bytes",
            8 * 1024 * 1024, Check.range(1, 1 << 30), "journaled stores: bytes of snapshot one commit writes at most "
                    + "(beyond one entry); a larger store's snapshot is spread over several commits");
    /** The keys, in --help order. */
    public static final SettingSet SETTINGS = SettingSet.of(MIN_OPS, FACTOR, COMMIT_BYTES);
    public static final JournalSnapshots DEFAULTS = new JournalSnapshots(MIN_OPS.defaultValue(),
            FACTOR.defaultValue(), COMMIT_BYTES.defaultValue());

    public JournalSnapshots {
        MIN_OPS.check(minOps);
        FACTOR.check(factor);
        COMMIT_BYTES.check(commitBytes);
    }

    public static JournalSnapshots from(Settings s) {
        return new JournalSnapshots(s.get(MIN_OPS), s.get(FACTOR), s.get(COMMIT_BYTES));
    }
}
