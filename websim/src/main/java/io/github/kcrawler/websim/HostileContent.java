package io.github.kcrawler.websim;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The large bodies of the hostile modes, each built once per process on first use and shared read-only by every
 * server and connection: the gzip bomb, the 100,000-link page and the 64 KiB blocks that the 100 MiB body and the
 * huge robots.txt repeat. Building never runs on an event loop (the bomb takes a few hundred milliseconds, which
 * would stall the other connections of that loop and bunch their recorded arrival times); callers get a
 * {@link CompletableFuture} and write when it completes.
 */
final class HostileContent {

    private static final Logger LOG = LoggerFactory.getLogger(HostileContent.class);

    /** Bytes the gzip bomb inflates to: 1 GiB of zeros. */
    static final long BOMB_INFLATED_BYTES = 1L << 30;
    /** Links on the {@code /many} page. */
    static final int MANY_LINKS = 100_000;
    /** Of those, links to small pages of the same host ({@code /many/<i>}); the rest go to 10.0.0.0/8. */
    static final int MANY_LINKS_LOCAL = 10;
    /** The 100 MiB body of {@link HostileMode#BIG_BODY}. */
    static final long BIG_BODY_BYTES = 100L << 20;
    /** The size of the huge robots.txt. */
    static final long HUGE_ROBOTS_BYTES = 8L << 20;
    /** The rule at the start of the huge robots.txt, the only one a crawler reading a prefix can apply. */
    static final String HUGE_ROBOTS_HEAD = "User-agent: *\nDisallow: /private/\n";

    private static final int BLOCK = 64 * 1024;
    private static volatile CompletableFuture<byte[]> bomb;
    private static volatile CompletableFuture<byte[]> manyLinks;
    private static volatile long bombBuildNanos = -1;
    private static final byte[] BODY_BLOCK = bodyBlock();
    private static final byte[] ROBOTS_BLOCK = robotsBlock();

    private HostileContent() {
    }

    /** The gzip bomb: built on a background thread at the first call, then cached for the life of the process. */
    static CompletableFuture<byte[]> gzipBomb() {
        CompletableFuture<byte[]> f = bomb;
        if (f == null) {
            synchronized (HostileContent.class) {
                if (bomb == null) {
                    bomb = CompletableFuture.supplyAsync(HostileContent::buildBomb, HostileContent::background);
                }
                f = bomb;
            }
        }
        return f;
    }

    /** How long building the bomb took, ms, or -1 if it has not been built in this process. */
    static double bombBuildMillis() {
        long n = bombBuildNanos;
        return n < 0 ? -1 : n / 1e6;
    }

    /** The {@code /many} page (HTML, UTF-8, ~3 MiB): built once on a background thread, then cached. */
    static CompletableFuture<byte[]> manyLinksPage() {
        CompletableFuture<byte[]> f = manyLinks;
        if (f == null) {
            synchronized (HostileContent.class) {
                if (manyLinks == null) {
                    manyLinks = CompletableFuture.supplyAsync(HostileContent::buildManyLinks,
                            HostileContent::background);
                }
                f = manyLinks;
            }
        }
        return f;
    }

    /** A 64 KiB block of HTML-ish text; the big body is this block repeated (the last copy cut). */
    static byte[] bodyBlock64k() {
        return BODY_BLOCK;
    }

    /** A 64 KiB block of robots.txt comment and Disallow lines for paths that do not exist. */
    static byte[] robotsBlock64k() {
        return ROBOTS_BLOCK;
    }

    private static void background(Runnable task) {
        Thread t = new Thread(task, "websim-hostile-content");
        t.setDaemon(true);
        t.start();
    }

    /**
     * One gzip member (RFC 1952) whose deflate stream is one segment — 1 MiB of zeros compressed at level 9 and
     * ended with a full flush, so it is byte-aligned and needs no earlier history — written 1024 times, then an
     * empty final block and the trailer (CRC-32 and length of 1 GiB of zeros). Deflating the whole GiB would take
     * ~13 s on these machines; repeating the flushed segment gives the same ratio (~1030:1) in a fraction of a
     * second, most of it the CRC. A single member, because decoders such as Netty's stop after the first one by
     * default.
     */
    static byte[] buildBomb() {
        long t0 = System.nanoTime();
        byte[] zeros = new byte[1 << 20];
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
        byte[] segment = new byte[64 * 1024];
        int segmentLength;
        try {
            deflater.setInput(zeros);
            segmentLength = deflater.deflate(segment, 0, segment.length, Deflater.FULL_FLUSH);
            if (!deflater.needsInput() || segmentLength == segment.length) {
                throw new IllegalStateException("1 MiB of zeros did not deflate into one flushed segment");
            }
        } finally {
            deflater.end();
        }
        int copies = (int) (BOMB_INFLATED_BYTES / zeros.length);
        CRC32 crc = new CRC32();
        for (int i = 0; i < copies; i++) {
            crc.update(zeros);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(10 + copies * segmentLength + 2 + 8);
        out.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 2, (byte) 255}); // gzip, deflate, OS unknown
        for (int i = 0; i < copies; i++) {
            out.write(segment, 0, segmentLength);
        }
        out.write(0x03); // final block, fixed Huffman codes, empty: end-of-block code (7 zero bits) + padding
        out.write(0x00);
        writeLe32(out, crc.getValue());
        writeLe32(out, BOMB_INFLATED_BYTES);
        byte[] bytes = out.toByteArray();
        bombBuildNanos = System.nanoTime() - t0;
        LOG.info("websim gzip bomb: {} bytes inflating to {} bytes, built in {} ms", bytes.length,
                BOMB_INFLATED_BYTES, bombBuildNanos / 1_000_000);
        return bytes;
    }

    private static void writeLe32(ByteArrayOutputStream out, long v) {
        for (int i = 0; i < 4; i++) {
            out.write((int) (v >>> (8 * i)) & 0xff);
        }
    }

    /** The 100,000-link page: {@value #MANY_LINKS_LOCAL} links to {@code /many/<i>}, the rest to 10.x.y.z. */
    static byte[] buildManyLinks() {
        StringBuilder sb = new StringBuilder(MANY_LINKS * 32 + 256);
        sb.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>100,000 links</title></head><body>\n");
        for (int i = 0; i < MANY_LINKS; i++) {
            if (i < MANY_LINKS_LOCAL) {
                sb.append("<a href=\"/many/").append(i).append("\">local ").append(i).append("</a>\n");
            } else {
                int a = i >>> 16;
                int b = (i >>> 8) & 0xff;
                int c = i & 0xff;
                sb.append("<a href=\"http://10.").append(a).append('.').append(b).append('.').append(c)
                        .append("/\">").append(i).append("</a>\n");
            }
        }
        sb.append("</body></html>\n");
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bodyBlock() {
        byte[] line = "<p>filler text of a body far larger than any page should be, sent in 64 KiB blocks</p>\n"
                .getBytes(StandardCharsets.US_ASCII);
        byte[] block = new byte[BLOCK];
        for (int i = 0; i < BLOCK; i++) {
            block[i] = line[i % line.length];
        }
        return block;
    }

    /** Whole lines only, padded with a comment line to exactly 64 KiB, so copies join cleanly. */
    private static byte[] robotsBlock() {
        StringBuilder sb = new StringBuilder(BLOCK);
        for (int i = 0; ; i++) {
            String line = i % 4 == 0 ? "# a very long robots.txt: rules for paths that do not exist\n"
                    : "Disallow: /no/such/path/" + i + "/\n";
            if (sb.length() + line.length() > BLOCK - 2) {
                break;
            }
            sb.append(line);
        }
        int pad = BLOCK - sb.length() - 2;
        sb.append('#').append(" ".repeat(pad)).append('\n');
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
