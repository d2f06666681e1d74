package io.github.kcrawler.scheduler.revisit;

import io.github.kcrawler.scheduler.memory.ChunkedIntArray;
import io.github.kcrawler.scheduler.memory.ChunkedLongArray;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * The sequence index and bucket index of paper 003 (Fig. 3) that give {@link BucketFileStore} key-based update and
 * delete while its entries stay in append-only bucket files: each live key has a dense sequence number (key → seq;
 * freed seqs reused), and per seq a generation {@code gen[seq]} and the bucket holding its live entry.
 *
 * <p>Invariants: a key is live iff it has a seq; {@link #assign} and {@link #release} bump the seq's generation, so
 * an entry written under an earlier generation is stale ({@link #isLive} is false) and is skipped when its bucket is
 * read. Update and delete therefore touch memory only. Memory: ~12 bytes per seq (in 16–32 KiB chunks, never a
 * large array that doubles) plus the map.
 */
final class SequenceIndex {
    /** The bucket of a seq without a live entry. */
    static final long NONE = Long.MIN_VALUE;

    private final Long2IntOpenHashMap seqOf = new Long2IntOpenHashMap();
    private final IntArrayList freeSeqs = new IntArrayList();
    private final ChunkedIntArray gen = new ChunkedIntArray(0);
    private final ChunkedLongArray bucketOf = new ChunkedLongArray(NONE);
    private int nextSeq;

    SequenceIndex() {
        seqOf.defaultReturnValue(-1);
    }

    /** The seq of {@code key} (a new one if it has none), with its generation bumped: earlier entries go stale. */
    int assign(long key) {
        int seq = seqOf.get(key);
        if (seq < 0) {
            seq = newSeq();
            seqOf.put(key, seq);
        }
        bump(seq);
        return seq;
    }

    /** Forgets {@code key} (delete or delivery): its seq is freed and every entry of it goes stale. */
    boolean release(long key) {
        int seq = seqOf.remove(key);
        if (seq < 0) {
            return false;
        }
        bump(seq);
        bucketOf.set(seq, NONE);
        freeSeqs.add(seq);
        return true;
    }

    /** The current generation of {@code seq}. */
    int gen(int seq) {
        return gen.get(seq);
    }

    /** Whether an entry written as ({@code seq}, {@code g}) is the key's live one. */
    boolean isLive(int seq, int g) {
        return seq >= 0 && seq < nextSeq && gen.get(seq) == g;
    }

    /** Records that the live entry of {@code seq} is now in {@code bucket}. */
    void locate(int seq, long bucket) {
        bucketOf.set(seq, bucket);
    }

    boolean contains(long key) {
        return seqOf.containsKey(key);
    }

    /** The bucket holding the key's live entry, or {@link #NONE}. */
    long bucketOf(long key) {
        int seq = seqOf.get(key);
        return seq < 0 ? NONE : bucketOf.get(seq);
    }

    /** Live keys. */
    int size() {
        return seqOf.size();
    }

    /** Writes the whole index; {@link #read} gives an equal one. */
    void write(DataOutput out) throws IOException {
        out.writeInt(nextSeq);
        for (int seq = 0; seq < nextSeq; seq++) {
            out.writeInt(gen.get(seq));
            out.writeLong(bucketOf.get(seq));
        }
        out.writeInt(seqOf.size());
        for (Long2IntOpenHashMap.Entry e : seqOf.long2IntEntrySet()) {
            out.writeLong(e.getLongKey());
            out.writeInt(e.getIntValue());
        }
    }

    /** Reads what {@link #write} wrote; the seqs no key holds become free again. */
    static SequenceIndex read(DataInput in) throws IOException {
        SequenceIndex index = new SequenceIndex();
        int seqs = in.readInt();
        if (seqs < 0) {
            throw new IOException("negative sequence count " + seqs);
        }
        index.nextSeq = seqs;
        index.gen.ensureCapacity(seqs);
        index.bucketOf.ensureCapacity(seqs);
        for (int seq = 0; seq < seqs; seq++) {
            index.gen.set(seq, in.readInt());
            index.bucketOf.set(seq, in.readLong());
        }
        int keys = in.readInt();
        boolean[] used = new boolean[seqs];
        for (int i = 0; i < keys; i++) {
            long key = in.readLong();
            int seq = in.readInt();
            if (seq < 0 || seq >= seqs || used[seq]) {
                throw new IOException("key " + key + " has sequence " + seq + ", out of range or taken");
            }
            index.seqOf.put(key, seq);
            used[seq] = true;
        }
        for (int seq = seqs - 1; seq >= 0; seq--) {
            if (!used[seq]) {
                index.freeSeqs.add(seq);
            }
        }
        return index;
    }

    private int newSeq() {
        if (!freeSeqs.isEmpty()) {
            return freeSeqs.popInt();
        }
        int seq = nextSeq++;
        gen.ensureCapacity(seq + 1);
        bucketOf.ensureCapacity(seq + 1);
        return seq;
    }

    private void bump(int seq) {
        gen.set(seq, gen.get(seq) + 1);
    }
}
