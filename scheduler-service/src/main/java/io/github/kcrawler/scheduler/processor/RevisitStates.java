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
     * A due page entered the frontier; returns the memo its pending entry and request carry (null when the state stays
     * in a store).
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
