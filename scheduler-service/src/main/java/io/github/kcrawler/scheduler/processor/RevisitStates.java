package io.github.kcrawler.scheduler.processor;

import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.RevisitMemo;
import io.github.kcrawler.scheduler.revisit.RevisitState;

import java.util.function.Consumer;

/**
 * Where one task keeps its pages' revisit state (setting {@code revisit-state}): {@link SatlRevisits} (issue 22, the
 * default: the SAT/L queue is the state, and a page's state travels with its REVISIT request) or
 * {@link RevisitTracker} (the baseline: a per-page store read and written on every result).
 */
interface RevisitStates extends AutoCloseable {

    /** Prepares the task's queue; returns the number of pages scheduled. */
    long open();

    /** Applies a fetch result (first fetch or revisit) to the page's state. */
    void onResult(String ip, FetchResult r);

    /** Hands every page due now to {@code due}, which must then call {@link #taken} or {@link #retryLater}. */
    long pollDue(Consumer<RevisitState> due);

    /**
     * Whether a due page may enter the frontier now: false when this implementation holds waiting revisits in memory
     * and its bound on them is reached (the page is then {@link #retryLater retried} one unit on).
     */
    default boolean roomToHold() {
        return true;
    }

    /**
     * A due page entered the frontier under {@code seq}. True when this implementation holds it in memory until its
     * release ({@link #released}), its durable record staying where it was (SAT/L: no write at all now); false when
     * the processor must write a pending entry for it, carrying {@link #taken}'s memo.
     */
    default boolean hold(RevisitState s, long seq) {
        return false;
    }

    /**
     * The frontier released the URL {@code fingerprint} admitted under {@code seq}: if it is a revisit this
     * implementation {@link #hold holds}, returns its state and removes its durable record, in the transaction that
     * sends the request; else null.
     */
    default RevisitState released(long fingerprint, long seq) {
        return null;
    }

    /**
     * The frontier evicted the URL {@code fingerprint} admitted under {@code seq}: true if it was a revisit this
     * implementation holds (now retried one unit on), false if the processor must look in its pending store.
     */
    default boolean evicted(long fingerprint, long seq) {
        return false;
    }

    /**
     * A due page entered the frontier and the processor writes its pending entry; returns the memo the entry and its
     * request carry (null when the state stays in a store).
     */
    RevisitMemo taken(RevisitState s);

    /** A due page the frontier could not take now: try again in one unit. */
    void retryLater(RevisitState s);

    /** A pending revisit the frontier evicted: try again in one unit. */
    void retryLater(PendingEntry evicted);

    /** Random reads of a store by key (a get), since the task started. */
    long storeReads();

    /** Store writes (put or delete, each one changelog record), since the task started. */
    long storeWrites();

    long unitMs();

    @Override
    void close();
}
