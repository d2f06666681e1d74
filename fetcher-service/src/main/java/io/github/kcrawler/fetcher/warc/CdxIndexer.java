package io.github.kcrawler.fetcher.warc;

import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Builds the CDXJ index of a {@code .warc.gz} file from the file alone: the same lines {@link WarcArchive} writes
 * when it finishes a file, for a file whose index is missing — the one that was open when the fetcher died
 * ({@code NAME.warc.gz.open}), or one whose index could not be written. Run as {@code crawler cdx FILE...}.
 *
 * <p>The file is walked gzip member by gzip member (a WARC record per member, as ISO 28500 Annex D recommends and as
 * the archive writes), inflating each with a raw {@link Inflater} to find exactly where it ends: the offset and
 * length in a line are those of the member, never an estimate. Only the start of each record (up to
 * {@value #HEAD_BYTES} bytes: WARC and HTTP headers) is kept and parsed with jwarc. A member the file ends inside —
 * the record being appended at a crash — is left out and reported, as is everything after it. Response records
 * are indexed; request and warcinfo records are not (pywb's own indexer does the same by default).
 */
public final class CdxIndexer {
    /** Bytes of a record's start parsed for its headers. */
    static final int HEAD_BYTES = 256 * 1024;

    /** What indexing one file found. */
    public record Result(Path index, long lines, long records, long completeBytes, long fileBytes) {
        /** True if the file ends inside a record (a crash while it was written): those bytes are not indexed. */
        public boolean truncated() {
            return completeBytes < fileBytes;
        }
    }

    private CdxIndexer() {
    }

    /** Indexes {@code warc} into {@link Cdxj#indexPathFor} beside it. */
    public static Result index(Path warc) throws IOException {
        return index(warc, Cdxj.indexPathFor(warc));
    }

    public static Result index(Path warc, Path out) throws IOException {
        String name = warc.getFileName().toString();
        String filename = name.endsWith(".open") ? name.substring(0, name.length() - ".open".length()) : name;
        long size = Files.size(warc);
        CdxjIndex index = new CdxjIndex(out, CdxjIndex.DEFAULT_SPILL_CHARS);
        long records = 0;
        long complete = 0;
        try (InputStream raw = Files.newInputStream(warc)) {
            MemberReader members = new MemberReader(new java.io.BufferedInputStream(raw, 64 * 1024));
            byte[] head;
            while ((head = members.next()) != null) {
                records++;
                String line = lineOf(head, members.memberStart(), members.memberLength(), filename);
                if (line != null) {
                    index.add(line);
                }
                complete = members.memberStart() + members.memberLength();
            }
        } catch (IOException | RuntimeException e) {
            index.discard();
            throw e;
        }
        return new Result(index.finish(), index.count(), records, complete, size);
    }

    private static String lineOf(byte[] head, long offset, long length, String filename) {
        try (WarcReader reader = new WarcReader(new ByteArrayInputStream(head))) {
            reader.setLenient(true);
            WarcRecord r = reader.next().orElse(null);
            if (!(r instanceof WarcResponse resp)) {
                return null;
            }
            org.netpreserve.jwarc.HttpResponse http = resp.http();
            String digest = resp.payloadDigest().map(d -> d.base32()).orElse(null);
            return Cdxj.line(resp.target(), resp.date().toEpochMilli(),
                    http.headers().first("Content-Type").orElse(null), http.status(), digest, length, offset,
                    filename);
        } catch (IOException | RuntimeException e) {
            return null; // a record whose start does not parse is not indexable (it is still in the file)
        }
    }

    /**
     * Reads consecutive gzip members (RFC 1952): for each, its start, its exact length and the first
     * {@value #HEAD_BYTES} bytes of its content. Returns null at the end of the file or at a member the file ends in.
     */
    static final class MemberReader {
        private final InputStream in;
        private final Inflater inflater = new Inflater(true);
        private final byte[] buf = new byte[64 * 1024];
        private final byte[] out = new byte[64 * 1024];
        private long position;
        private long start;
        private long length;

        MemberReader(InputStream in) {
            this.in = in;
        }

        long memberStart() {
            return start;
        }

        long memberLength() {
            return length;
        }

        byte[] next() throws IOException {
            in.mark(1);
            if (in.read() < 0) {
                return null;
            }
            in.reset();
            long begin = position;
            try {
                byte[] head = member();
                start = begin;
                length = position - begin;
                return head;
            } catch (java.io.EOFException | DataFormatException e) {
                return null; // the file ends inside this member, or it is not gzip: nothing further is indexed
            } finally {
                inflater.reset();
            }
        }

        private byte[] member() throws IOException, DataFormatException {
            int id1 = readByte();
            int id2 = readByte();
            int cm = readByte();
            int flags = readByte();
            if (id1 != 0x1f || id2 != 0x8b || cm != 8) {
                throw new DataFormatException("not a gzip member at " + (position - 4));
            }
            skip(6); // mtime, xfl, os
            if ((flags & 4) != 0) { // FEXTRA
                int xlen = readByte() | readByte() << 8;
                skip(xlen);
            }
            if ((flags & 8) != 0) { // FNAME
                while (readByte() != 0) { /* skip */ }
            }
            if ((flags & 16) != 0) { // FCOMMENT
                while (readByte() != 0) { /* skip */ }
            }
            if ((flags & 2) != 0) { // FHCRC
                skip(2);
            }
            java.io.ByteArrayOutputStream head = new java.io.ByteArrayOutputStream(8 * 1024);
            int chunk = 0; // bytes of the last chunk read, not yet counted in position
            while (true) {
                inflate(head);
                if (inflater.finished()) {
                    int used = chunk - inflater.getRemaining();
                    in.reset(); // give back what lies beyond the member's deflate stream
                    skipRaw(used);
                    position += used;
                    break;
                }
                if (inflater.needsDictionary() || !inflater.needsInput()) {
                    throw new DataFormatException("unusable deflate stream");
                }
                position += chunk;
                in.mark(buf.length);
                chunk = in.read(buf);
                if (chunk < 0) {
                    throw new java.io.EOFException("member cut short");
                }
                inflater.setInput(buf, 0, chunk);
            }
            skip(8); // CRC-32 and ISIZE
            return head.toByteArray();
        }

        private int inflate(java.io.ByteArrayOutputStream head) throws DataFormatException {
            int total = 0;
            int n;
            while ((n = inflater.inflate(out)) > 0) {
                total += n;
                int keep = Math.min(n, HEAD_BYTES - head.size());
                if (keep > 0) {
                    head.write(out, 0, keep);
                }
            }
            return total;
        }

        private int readByte() throws IOException {
            int b = in.read();
            if (b < 0) {
                throw new java.io.EOFException();
            }
            position++;
            return b;
        }

        private void skip(int n) throws IOException {
            skipRaw(n);
            position += n;
        }

        private void skipRaw(int n) throws IOException {
            long left = n;
            while (left > 0) {
                long s = in.skip(left);
                if (s <= 0) {
                    if (in.read() < 0) {
                        throw new java.io.EOFException();
                    }
                    s = 1;
                }
                left -= s;
            }
        }
    }
}
