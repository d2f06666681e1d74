package io.github.kcrawler.fetcher.warc;

import io.micrometer.core.instrument.Counter;
import org.netpreserve.jwarc.HttpRequest;
import org.netpreserve.jwarc.HttpResponse;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.WarcCompression;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcWriter;
import org.netpreserve.jwarc.Warcinfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * The fetcher's page store (ISO 28500 WARC 1.0 via jwarc): a request and a response record per complete exchange,
 * in rolling files {@code <dir>/<prefix>-<yyyyMMddHHmmssSSS>-<seq>.warc.gz}, each starting with a warcinfo record
 * and rolled once it reaches {@code maxBytes}. A file being written carries the suffix {@code .open}, removed
 * when it is rolled or the archive is closed, so readers can tell finished files apart.
 *
 * <p>Every record is its own gzip member, compressed on the calling thread by a per-thread encoder; only the
 * append of the finished bytes holds the archive's lock, so compression scales with the worker threads.
 *
 * <p>Bodies are stored decoded (the HTTP client inflates gzip/deflate), so, as StormCrawler and others do, the
 * stored response renames {@code Content-Encoding}, {@code Transfer-Encoding} and {@code Content-Length} to
 * {@code X-Crawler-*} and gives the decoded length: the record is a valid HTTP message that replays as received.
 * WARC-Payload-Digest is the SHA-1 of that payload.
 *
 * <p>CDXJ index (issue 23): with {@code cdx} on (the default), each response record's pywb CDXJ line ({@link Cdxj})
 * is collected while its file is written — its offset and length are those of its gzip member, known exactly at
 * the append — and when the file is finished (rolled or closed) the sorted index is written beside it as
 * {@code NAME.cdxj} <em>before</em> the WARC loses its {@code .open} suffix. Invariant: a finished WARC file has its
 * index beside it, unless writing the index failed (logged; {@code crawler cdx FILE} rebuilds it). After a crash
 * the file still open keeps its {@code .open} suffix and has no index (the lines were in memory, or in sorted run
 * files {@code .NAME.cdxj.run-N} that are left behind); {@code crawler cdx NAME.warc.gz.open} indexes every
 * complete record of it ({@link CdxIndexer}), which is all a reader can use.
 */
public final class WarcArchive implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WarcArchive.class);
    private static final String WARC_1_0 =
            "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.0/";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    /** Characters of CDXJ lines held in memory per open file before a sorted run is spilled. */
    public static final long DEFAULT_CDX_SPILL_CHARS = CdxjIndex.DEFAULT_SPILL_CHARS;

    private final Path dir;
    private final String prefix;
    private final long maxBytes;
    private final LongSupplier clock;
    private final Counter records;
    private final ThreadLocal<Encoder> encoders;
    private final Encoder infoEncoder;
    private final boolean cdx;
    private final long cdxSpillChars;
    private FileChannel channel;
    private Path openPath;
    private String fileName;
    private CdxjIndex index;
    private long fileBytes;
    private int seq;
    private boolean closed;
    private long failures;

    /**
     * @param clock     epoch millis, for file names and warcinfo dates
     * @param records   counts records written ({@code WARC_RECORDS})
     */
    public WarcArchive(Path dir, String prefix, long maxBytes, int gzipLevel, LongSupplier clock, Counter records) {
        this(dir, prefix, maxBytes, gzipLevel, clock, records, true, CdxjIndex.DEFAULT_SPILL_CHARS);
    }

    /**
     * @param cdx           write a sorted CDXJ index beside each finished file
     * @param cdxSpillChars characters of index lines held in memory before a sorted run is spilled to disk
     */
    public WarcArchive(Path dir, String prefix, long maxBytes, int gzipLevel, LongSupplier clock, Counter records,
                       boolean cdx, long cdxSpillChars) {
        if (maxBytes < 1024) {
            throw new IllegalArgumentException("WARC max bytes must be >= 1024, was " + maxBytes);
        }
        this.dir = dir;
        this.prefix = prefix;
        this.maxBytes = maxBytes;
        this.clock = clock;
        this.records = records;
        this.cdx = cdx;
        this.cdxSpillChars = Math.max(1, cdxSpillChars);
        this.encoders = ThreadLocal.withInitial(() -> new Encoder(gzipLevel, cdx));
        this.infoEncoder = new Encoder(gzipLevel, false);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create WARC directory " + dir, e);
        }
    }

    /**
     * Archives one exchange as a request and a response record. Returns false (and logs, rate-limited) when the
     * exchange could not be written; the fetch itself is not affected.
     */
    public boolean write(WarcExchange ex) {
        Encoder enc = encoders.get();
        try {
            enc.encode(ex);
        } catch (IOException | RuntimeException e) {
            failed("cannot encode WARC records for " + ex.target(), e);
            return false;
        }
        try {
            append(enc.gzip.buffer(), enc.gzip.size(), enc.requestBytes, enc.cdxHead);
        } catch (IOException e) {
            failed("cannot append to WARC file " + openPath, e);
            return false;
        }
        records.increment(2);
        return true;
    }

    /** Files finished so far plus the open one. */
    public synchronized int filesStarted() {
        return seq;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            finishFile();
        } catch (IOException e) {
            LOG.error("cannot close WARC file {}", openPath, e);
        }
    }

    /**
     * Appends one exchange's two gzip members; the response member starts {@code requestBytes} into {@code data},
     * so its offset in the file is known here, under the lock, and its CDXJ line is completed with it.
     */
    private synchronized void append(byte[] data, int length, int requestBytes, String cdxHead) throws IOException {
        if (closed) {
            throw new IOException("archive closed");
        }
        if (channel != null && fileBytes > 0 && fileBytes + length > maxBytes) {
            finishFile();
        }
        if (channel == null) {
            startFile();
        }
        long offset = fileBytes + requestBytes;
        ByteBuffer buf = ByteBuffer.wrap(data, 0, length);
        while (buf.hasRemaining()) {
            fileBytes += channel.write(buf);
        }
        if (index != null && cdxHead != null) {
            index.add(Cdxj.finish(cdxHead, offset, fileName));
        }
    }

    private void startFile() throws IOException {
        String name;
        while (true) {
            seq++;
            name = String.format(Locale.ROOT, "%s-%s-%05d.warc.gz", prefix,
                    STAMP.format(Instant.ofEpochMilli(clock.getAsLong())), seq);
            openPath = dir.resolve(name + ".open");
            if (Files.exists(openPath.resolveSibling(name))) {
                continue; // another writer (or an earlier run) used this name
            }
            try {
                channel = FileChannel.open(openPath, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                break;
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // taken by a concurrent writer with the same prefix: next sequence number
            }
        }
        fileBytes = 0;
        fileName = name;
        index = cdx ? new CdxjIndex(Cdxj.indexPathFor(openPath), cdxSpillChars) : null;
        infoEncoder.encodeInfo(name, clock.getAsLong());
        ByteBuffer buf = ByteBuffer.wrap(infoEncoder.gzip.buffer(), 0, infoEncoder.gzip.size());
        while (buf.hasRemaining()) {
            fileBytes += channel.write(buf);
        }
    }

    private void finishFile() throws IOException {
        if (channel == null) {
            return;
        }
        channel.force(false);
        channel.close();
        channel = null;
        if (index != null) {
            try {
                index.finish(); // before the rename: a finished WARC file has its index beside it
            } catch (IOException | RuntimeException e) {
                index.discard();
                LOG.error("cannot write the CDXJ index of {}; rebuild it with: crawler cdx {}", fileName,
                        openPath.resolveSibling(fileName), e);
            }
            index = null;
        }
        String open = openPath.getFileName().toString();
        Files.move(openPath, openPath.resolveSibling(open.substring(0, open.length() - ".open".length())),
                StandardCopyOption.ATOMIC_MOVE);
    }

    private synchronized void failed(String what, Exception e) {
        failures++;
        if (failures == 1 || failures % 1000 == 0) {
            LOG.error("{} ({} WARC failures so far)", what, failures, e);
        }
    }

    /** Per-thread record builder and gzip encoder. */
    private static final class Encoder {
        final GzipMemberEncoder gzip;
        final WarcWriter writer;
        final MessageDigest sha1;
        /** Bytes of the request record's member at the start of the buffer (after {@link #encode}). */
        int requestBytes;
        /** The response's CDXJ line up to its offset (after {@link #encode}). */
        String cdxHead;

        /** Builds each response's CDXJ line (off: no line, no allocation for it). */
        final boolean cdx;

        Encoder(int level, boolean cdx) {
            this.cdx = cdx;
            gzip = new GzipMemberEncoder(level);
            try {
                writer = new WarcWriter(Channels.newChannel(gzip), WarcCompression.NONE);
                sha1 = MessageDigest.getInstance("SHA-1");
            } catch (IOException | NoSuchAlgorithmException e) {
                throw new IllegalStateException("cannot set up WARC encoder", e);
            }
        }

        void encode(WarcExchange ex) throws IOException {
            URI target = targetUri(ex.target());
            Instant date = Instant.ofEpochMilli(ex.dateMillis());
            HttpRequest.Builder rq = new HttpRequest.Builder("GET", ex.requestTarget());
            for (Map.Entry<String, String> h : ex.requestHeaders()) {
                rq.addHeader(h.getKey(), h.getValue());
            }
            byte[] payload = ex.bodyLength() == ex.body().length ? ex.body()
                    : java.util.Arrays.copyOf(ex.body(), ex.bodyLength());
            HttpResponse.Builder rs = new HttpResponse.Builder(ex.status(), ex.reason() == null ? "" : ex.reason());
            for (Map.Entry<String, String> h : ex.responseHeaders()) {
                rs.addHeader(rewrite(h.getKey()), h.getValue());
            }
            rs.body(null, payload);
            sha1.reset();
            sha1.update(payload);
            byte[] sha1Bytes = sha1.digest();
            WarcDigest digest = new WarcDigest("sha1", sha1Bytes);
            UUID responseId = UUID.randomUUID();
            WarcResponse.Builder wr = new WarcResponse.Builder(target).recordId(responseId).date(date)
                    .payloadDigest(digest).body(rs.build());
            WarcRequest.Builder wq = new WarcRequest.Builder(target).date(date)
                    .concurrentTo(URI.create("urn:uuid:" + responseId)).body(rq.build());
            if (ex.ip() != null) {
                wr.ipAddress(ex.ip());
                wq.ipAddress(ex.ip());
            }
            gzip.reset();
            gzip.beginMember();
            writer.write(wq.build());
            gzip.endMember();
            requestBytes = gzip.size();
            gzip.beginMember();
            writer.write(wr.build());
            gzip.endMember();
            cdxHead = !cdx ? null : Cdxj.head(target.toString(), ex.dateMillis(), firstHeader(ex.responseHeaders(), "Content-Type"),
                    ex.status(), digest.base32(), gzip.size() - requestBytes);
        }

        private static String firstHeader(java.util.List<Map.Entry<String, String>> headers, String name) {
            for (Map.Entry<String, String> h : headers) {
                if (h.getKey().equalsIgnoreCase(name)) {
                    return h.getValue();
                }
            }
            return null;
        }

        void encodeInfo(String filename, long now) throws IOException {
            Warcinfo info = new Warcinfo.Builder().date(Instant.ofEpochMilli(now)).filename(filename)
                    .fields(Map.of("software", java.util.List.of("kcrawler fetcher (jwarc)"),
                            "format", java.util.List.of("WARC File Format 1.0"),
                            "conformsTo", java.util.List.of(WARC_1_0)))
                    .build();
            gzip.reset();
            gzip.beginMember();
            writer.write(info);
            gzip.endMember();
        }

        /**
         * The URL as a {@link URI}: crawled URLs may keep characters the URL standard allows but RFC 3986 does not
         * ({@code |}, {@code ^}, ...); those are percent-encoded for the WARC-Target-URI.
         */
        static URI targetUri(String url) {
            try {
                return URI.create(url);
            } catch (IllegalArgumentException e) {
                StringBuilder sb = new StringBuilder(url.length() + 16);
                for (int i = 0; i < url.length(); i++) {
                    char c = url.charAt(i);
                    if (c > 0x20 && c < 0x7f && "|^`{}\\\"<> ".indexOf(c) < 0) {
                        sb.append(c);
                    } else {
                        // normalised URLs are ASCII; anything else is escaped byte by byte as UTF-8
                        for (byte b : String.valueOf(c).getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
                            sb.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 15, 16)))
                                    .append(Character.toUpperCase(Character.forDigit(b & 15, 16)));
                        }
                    }
                }
                return URI.create(sb.toString());
            }
        }

        private static String rewrite(String name) {
            String lower = name.toLowerCase(Locale.ROOT);
            return switch (lower) {
                case "content-encoding", "transfer-encoding", "content-length" -> "X-Crawler-" + name;
                default -> name;
            };
        }
    }
}
