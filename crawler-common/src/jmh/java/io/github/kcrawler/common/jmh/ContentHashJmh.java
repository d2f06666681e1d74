package io.github.kcrawler.common.jmh;

import io.github.kcrawler.common.fingerprint.ContentHashModel;
import io.github.kcrawler.common.fingerprint.Fingerprints;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The fetcher's content fingerprint of a text page ({@link Fingerprints#contentHash}, whitespace folded, then
 * MurmurHash3 x64_128) as the project computes it ({@code project}: branch-free folding, eight-byte loads) against
 * the form before it ({@code before}: {@link ContentHashModel}), on an HTML-like page of {@code bytes} bytes (words,
 * single spaces, a newline and indentation every ~80 bytes, some UTF-8). Run:
 * {@code crawler-common/src/jmh/run.sh ContentHashJmh}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ContentHashJmh {
    @Param({"project", "before"})
    public String variant;

    @Param({"16384"})
    public int bytes;

    private byte[] page;

    @Setup
    public void setUp() {
        String[] words = {"crawler", "graph", "<a href=\"/p/17\">", "the", "of", "café", "Größe", "</a>", "index",
                "<p>", "</p>", "frontier", "日本", "and", "partition"};
        SplittableRandom r = new SplittableRandom(42);
        StringBuilder b = new StringBuilder(bytes + 64);
        int line = 0;
        while (b.length() < bytes) {
            String w = words[r.nextInt(words.length)];
            b.append(w);
            line += w.length() + 1;
            if (line > 80) {
                b.append("\n        ");
                line = 0;
            } else {
                b.append(' ');
            }
        }
        page = b.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Benchmark
    public String contentHash() {
        return variant.equals("project") ? Fingerprints.contentHash(page, page.length, true)
                : ContentHashModel.contentHash(page, page.length);
    }
}
