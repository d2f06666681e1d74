package io.github.kcrawler.fetcher.warc;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The CDXJ lines of one WARC file while it is written, and the sorted {@code .cdxj} file made of them when it is
 * finished. Lines arrive in capture order and must leave sorted (pywb searches the file by binary search), so they
 * are kept in memory up to {@code spillChars}; beyond, each batch is sorted and spilled as a run file beside the
 * WARC ({@code .NAME.cdxj.run-N}), and {@link #finish} merges the runs. Memory is thus bounded by
 * {@code spillChars} whatever the WARC's size (a 1 GiB WARC of 10 KiB pages has ~100,000 lines of ~250 bytes).
 *
 * <p>{@link #finish} writes {@code NAME.cdxj.tmp}, forces it to disk and renames it atomically to
 * {@code NAME.cdxj}: a reader never sees a partial index. Not thread-safe (the archive's lock guards it).
 */
final class CdxjIndex {
    /** Characters held in memory before a sorted run is spilled (≈ 2 bytes each on the heap). */
    static final long DEFAULT_SPILL_CHARS = 4L * 1024 * 1024;

    private final Path index;
    private final long spillChars;
    private final List<String> lines = new ArrayList<>();
    private final List<Path> runs = new ArrayList<>();
    private long chars;
    private long count;

    /** @param index the {@code .cdxj} file to produce */
    CdxjIndex(Path index, long spillChars) {
        this.index = index;
        this.spillChars = spillChars;
    }

    void add(String line) throws IOException {
        assert line.indexOf('\n') < 0 && line.indexOf('\r') < 0 : "a CDXJ line holds no line break";
        lines.add(line);
        chars += line.length();
        count++;
        if (chars >= spillChars) {
            spill();
        }
    }

    /** Lines added so far. */
    long count() {
        return count;
    }

    /** Writes the sorted index and removes the runs; returns its path. */
    Path finish() throws IOException {
        Path tmp = index.resolveSibling(index.getFileName() + ".tmp");
        try (BufferedWriter out = Files.newBufferedWriter(tmp, StandardCharsets.US_ASCII)) {
            if (runs.isEmpty()) {
                Collections.sort(lines);
                for (String l : lines) {
                    out.write(l);
                    out.write('\n');
                }
            } else {
                if (!lines.isEmpty()) {
                    spill();
                }
                merge(out);
            }
        }
        try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        Files.move(tmp, index, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        discard();
        return index;
    }

    /** Forgets the lines and deletes any run files (after {@link #finish}, or when the WARC is given up). */
    void discard() {
        lines.clear();
        chars = 0;
        for (Path r : runs) {
            try {
                Files.deleteIfExists(r);
            } catch (IOException e) {
                // a stray run file is harmless: it is named apart from every index
            }
        }
        runs.clear();
    }

    private void spill() throws IOException {
        Collections.sort(lines);
        Path run = index.resolveSibling("." + index.getFileName() + ".run-" + runs.size());
        Files.write(run, lines, StandardCharsets.US_ASCII);
        runs.add(run);
        lines.clear();
        chars = 0;
    }

    /** k-way merge of the sorted runs. */
    private void merge(BufferedWriter out) throws IOException {
        record Head(String line, BufferedReader in) { }
        PriorityQueue<Head> heap = new PriorityQueue<>((a, b) -> a.line.compareTo(b.line));
        List<BufferedReader> readers = new ArrayList<>(runs.size());
        try {
            for (Path r : runs) {
                BufferedReader in = Files.newBufferedReader(r, StandardCharsets.US_ASCII);
                readers.add(in);
                String first = in.readLine();
                if (first != null) {
                    heap.add(new Head(first, in));
                }
            }
            String previous = null;
            while (!heap.isEmpty()) {
                Head h = heap.poll();
                assert previous == null || previous.compareTo(h.line) <= 0 : "runs merge in order";
                previous = h.line;
                out.write(h.line);
                out.write('\n');
                String next = h.in.readLine();
                if (next != null) {
                    heap.add(new Head(next, h.in));
                }
            }
        } finally {
            for (BufferedReader r : readers) {
                r.close();
            }
        }
    }
}
