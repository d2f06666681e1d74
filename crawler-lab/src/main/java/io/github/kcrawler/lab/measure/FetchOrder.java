package io.github.kcrawler.lab.measure;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;

/**
 * The order in which a crawl fetched a simulated web's pages, read from websim's access log (columns {@code at_ms,
 * ip, host, method, path, status, kind, page}): each page id once, at its first {@code PAGE} request, ordered by the
 * server's timestamp (rows of one millisecond keep their log order). Robots.txt and hostile requests, and repeated
 * fetches of a page, are not part of the order.
 */
public final class FetchOrder {
    private FetchOrder() {
    }

    /** Page ids in first-fetch order. */
    public static int[] read(Path accessLog) throws IOException {
        return readTimed(accessLog).order();
    }

    /**
     * Page ids in first-fetch order, with the server's time of each first fetch.
     *
     * @param order page ids, each once
     * @param atMs  websim's {@code at_ms} of each one's first fetch (non-decreasing)
     */
    public record Timed(int[] order, double[] atMs) {
    }

    /** Page ids in first-fetch order and the time of each first fetch. */
    public static Timed readTimed(Path accessLog) throws IOException {
        long[] rows = new long[1 << 16]; // (at_ms in µs << 24 | row index) packs the sort key; page ids kept aside
        int[] pages = new int[1 << 16];
        int n = 0;
        try (BufferedReader in = Files.newBufferedReader(accessLog, StandardCharsets.UTF_8)) {
            String line = in.readLine(); // header
            if (line == null || !line.startsWith("at_ms\t")) {
                throw new IOException(accessLog + " is not a websim access log (header " + line + ")");
            }
            while ((line = in.readLine()) != null) {
                String[] f = line.split("\t", -1);
                if (f.length < 8 || !f[6].equals("PAGE")) {
                    continue;
                }
                int page = Integer.parseInt(f[7]);
                if (page < 0) {
                    continue;
                }
                if (n == rows.length) {
                    rows = Arrays.copyOf(rows, n * 2);
                    pages = Arrays.copyOf(pages, n * 2);
                }
                rows[n] = Math.round(Double.parseDouble(f[0]) * 1000);
                pages[n] = page;
                n++;
            }
        }
        Integer[] idx = new Integer[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        long[] at = rows;
        Arrays.sort(idx, (a, b) -> at[a] != at[b] ? Long.compare(at[a], at[b]) : Integer.compare(a, b));
        BitSet seen = new BitSet();
        int[] order = new int[n];
        double[] times = new double[n];
        int k = 0;
        for (int i = 0; i < n; i++) {
            int p = pages[idx[i]];
            if (!seen.get(p)) {
                seen.set(p);
                times[k] = at[idx[i]] / 1000.0;
                order[k++] = p;
            }
        }
        return new Timed(Arrays.copyOf(order, k), Arrays.copyOf(times, k));
    }
}
