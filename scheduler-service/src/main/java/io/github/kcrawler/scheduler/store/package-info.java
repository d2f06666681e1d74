/**
 * Stores on RocksDB, kept out of the algorithm packages (LayeringTest): {@link
 * io.github.kcrawler.scheduler.store.RocksDbTimeKeyedStore}, paper 003's time-keyed B-tree baseline of the SAT/L
 * revisit queue ({@code ../shared/seeds/}, §4.2), held to the same {@code RevisitQueue} contract as SAT/L and measured
 * against it by {@code crawler bench satl}.
 */
package io.github.kcrawler.scheduler.store;
