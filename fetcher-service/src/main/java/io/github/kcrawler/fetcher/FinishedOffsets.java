package io.github.kcrawler.fetcher;

import java.util.Arrays;

/**
 * The records finished above a committed offset, carried in the commit's metadata so that whoever owns the partition
 * next does not fetch them again. Records finish out of order (one request waits for its IP while later ones are
 * done), and the committed offset can only be that of the oldest unfinished record; without this list a rebalance
 * redoes everything finished after it. The same technique as Confluent's parallel consumer.
 *
 * <p>Format, version 1: {@code kc1:} followed by run lengths in base 36 separated by {@code .}, alternately
 * unfinished and finished, starting at the committed offset (which is unfinished by definition). Offsets missing
 * from the partition (transaction markers) count as unfinished; they are never delivered. The string stays within
 * {@link #MAX_CHARS} (the broker's {@code offset.metadata.max.bytes} is 4096 by default): when the runs do not fit,
 * the list ends early, so fewer records are skipped — never more. Decoding is total: anything that is not this
 * format (another tool's metadata, a future version) is ignored.
 */
final class FinishedOffsets {
    static final String PREFIX = "kc1:";
    static final int MAX_CHARS = 3_000;

    /** Sorted, disjoint half-open ranges [starts[i], ends[i]) of finished offsets. */
    private final long[] starts;
    private final long[] ends;

    private FinishedOffsets(long[] starts, long[] ends) {
        this.starts = starts;
        this.ends = ends;
    }

    /**
     * The metadata for committing {@code position}: the finished records among {@code slots} (in offset order, all at
     * or above the position); empty when none is finished.
     */
    static String encode(long position, Iterable<OffsetTracker.Slot> slots) {
        StringBuilder out = new StringBuilder(PREFIX);
        int complete = -1; // length of out after the last finished run written
        long cursor = position; // every offset below it is accounted for
        long unfinishedStart = position;
        long finishedStart = -1; // start of the open finished run, -1 if none
        for (OffsetTracker.Slot slot : slots) {
            long o = slot.offset;
            if (o < cursor) {
                continue;
            }
            boolean finished = slot.finished(); // read once: another thread may finish it meanwhile
            if (finished && finishedStart >= 0 && o == cursor) {
                cursor = o + 1; // extends the open finished run
                continue;
            }
            if (finishedStart >= 0) { // a gap or an unfinished record closes the finished run
                int length = appendRun(out, cursor - finishedStart);
                if (length > MAX_CHARS) {
                    return upTo(out, complete);
                }
                complete = length;
                unfinishedStart = cursor;
                finishedStart = -1;
            }
            if (finished) {
                if (o == unfinishedStart || appendRun(out, o - unfinishedStart) > MAX_CHARS) {
                    return upTo(out, complete); // (the first: the position was not the oldest unfinished record)
                }
                finishedStart = o;
            }
            cursor = o + 1;
        }
        if (finishedStart >= 0) {
            int length = appendRun(out, cursor - finishedStart);
            if (length <= MAX_CHARS) {
                complete = length;
            }
        }
        return upTo(out, complete);
    }

    private static String upTo(StringBuilder out, int complete) {
        return complete < 0 ? "" : out.substring(0, complete);
    }

    /** Appends a run length; returns the new length of {@code out}. */
    private static int appendRun(StringBuilder out, long length) {
        if (out.length() > PREFIX.length()) {
            out.append('.');
        }
        out.append(Long.toString(length, 36));
        return out.length();
    }

    /** The finished ranges of metadata committed with {@code committedOffset}, or null if it is not ours. */
    static FinishedOffsets decode(long committedOffset, String metadata) {
        if (metadata == null || !metadata.startsWith(PREFIX) || metadata.length() > MAX_CHARS
                || metadata.length() == PREFIX.length() || committedOffset < 0) {
            return null;
        }
        String[] parts = metadata.substring(PREFIX.length()).split("\\.", -1);
        long[] starts = new long[parts.length / 2];
        long[] ends = new long[parts.length / 2];
        long cursor = committedOffset;
        try {
            for (int i = 0; i < parts.length; i++) {
                long n = Long.parseLong(parts[i], 36);
                if (n <= 0 || n > Integer.MAX_VALUE) {
                    return null;
                }
                if (i % 2 == 1) {
                    starts[i / 2] = cursor;
                    ends[i / 2] = cursor + n;
                }
                cursor += n;
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return starts.length == 0 ? null : new FinishedOffsets(starts, ends);
    }

    boolean contains(long offset) {
        int i = Arrays.binarySearch(starts, offset);
        if (i >= 0) {
            return true;
        }
        int before = -i - 2;
        return before >= 0 && offset < ends[before];
    }

    /** One past the last finished offset listed. */
    long end() {
        return ends[ends.length - 1];
    }

    /** Finished records listed. */
    long count() {
        long n = 0;
        for (int i = 0; i < starts.length; i++) {
            n += ends[i] - starts[i];
        }
        return n;
    }
}
