package io.github.kcrawler.ranker.pagerank.archfixture;

import org.rocksdb.Options;

/** Breaks LayeringTest's algorithm rule on purpose: an algorithm package that uses RocksDB. */
public final class PageRankUsesRocksDb {
    public static Class<?> options() {
        return Options.class;
    }
}
