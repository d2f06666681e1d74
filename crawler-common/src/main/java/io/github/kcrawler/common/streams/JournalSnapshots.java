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
 *               (one pass over the store, written in one commit) comes every {@code factor × entries} changes: larger
 *               means rarer snapshots and a longer restore
 */
public record JournalSnapshots(long minOps, double factor) {
    public static final Setting<Long> MIN_OPS = Setting.longValue("journal-snapshot-min-ops", 100_000L,
            Check.range(0, 1L << 40), "journaled stores: changes logged since the last snapshot before a store "
                    + "considers a new one, whatever its size");
    public static final Setting<Double> FACTOR = Setting.decimal("journal-snapshot-factor", 2.0,
            Check.of(f -> f >= 0.1 && f <= 1000, "must be in [0.1, 1000]"), "journaled stores: a snapshot is "
                    + "logged once the changes since the last exceed this many times the store's entries (the "
                    + "compacted changelog stays within about 1 + this times the live state)");
    /** The keys, in --help order. */
    public static final SettingSet SETTINGS = SettingSet.of(MIN_OPS, FACTOR);
    public static final JournalSnapshots DEFAULTS = new JournalSnapshots(MIN_OPS.defaultValue(),
            FACTOR.defaultValue());

    public JournalSnapshots {
        MIN_OPS.check(minOps);
        FACTOR.check(factor);
    }

    public static JournalSnapshots from(Settings s) {
        return new JournalSnapshots(s.get(MIN_OPS), s.get(FACTOR));
    }
}
