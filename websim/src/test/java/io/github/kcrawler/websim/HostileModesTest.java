package io.github.kcrawler.websim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every hostile mode against the real server on loopback, spoken to over raw sockets so that resets, cut heads,
 * trickles and undeclared encodings are seen exactly as sent (an HTTP client library would hide or refuse them).
 * One websim with all modes for the class; ~8 s, most of it inflating the 1 GiB bomb and waiting for the slow host.
 */
class HostileModesTest {

    private static final Pattern HREF = Pattern.compile("href=\"([^\"]*)\"");
    private static WebSim sim;

    @BeforeAll
    static void start() throws IOException {
        sim = WebSim.start(WebSimConfig.builder().generate(300).ips(8).politenessMs(0)
                .hostile(HostileMode.parseList("all")).build());
    }

    @AfterAll
    static void stop() {
        if (sim != null) {
            sim.close();
        }
    }

    /** What came back on one connection: the first {@code kept} bytes, how many in all, and how it ended. */
    record Raw(byte[] bytes, long total, boolean reset, boolean timedOut, long millis) {
        String text() {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }

        String head() {
            String t = text();
            int end = t.indexOf("\r\n\r\n");
            return end < 0 ? t : t.substring(0, end);
        }

        byte[] body() {
            int end = text().indexOf("\r\n\r\n");
            return end < 0 ? new byte[0] : java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length);
        }

        int status() {
            String t = text();
            return t.startsWith("HTTP/1.1 ") && t.length() >= 12 ? Integer.parseInt(t.substring(9, 12)) : -1;
        }

        String header(String name) {
            for (String line : head().split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }

    static Raw get(HostileMode mode, String target) throws IOException {
        return get(mode, target, mode.hostName(), 1 << 22, 10_000, Long.MAX_VALUE);
    }

    /** GET {@code target} on {@code mode}'s address; keeps the first {@code keep} bytes, stops after {@code stopAfter}. */
    static Raw get(HostileMode mode, String target, String host, int keep, int timeoutMs, long stopAfter)
            throws IOException {
        long t0 = System.nanoTime();
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(mode.ipAddress(), sim.port()), 2000);
            s.setSoTimeout(timeoutMs);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + target + " HTTP/1.1\r\nHost: " + host + ":" + sim.port()
                    + "\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream kept = new ByteArrayOutputStream();
            byte[] buf = new byte[1 << 16];
            long total = 0;
            boolean reset = false;
            boolean timedOut = false;
            try {
                int n;
                while (total < stopAfter && (n = in.read(buf)) > 0) {
                    int k = (int) Math.max(0, Math.min(n, keep - total));
                    kept.write(buf, 0, k);
                    total += n;
                }
            } catch (SocketTimeoutException e) {
                timedOut = true;
            } catch (SocketException e) {
                reset = e.getMessage() != null && e.getMessage().toLowerCase(Locale.ROOT).contains("reset");
                if (!reset) {
                    throw e;
                }
            }
            return new Raw(kept.toByteArray(), total, reset, timedOut, (System.nanoTime() - t0) / 1_000_000);
        }
    }

    static List<String> hrefs(Raw r) {
        List<String> out = new ArrayList<>();
        Matcher m = HREF.matcher(new String(r.body(), StandardCharsets.UTF_8));
        while (m.find()) {
            out.add(m.group(1).replace("&amp;", "&"));
        }
        return out;
    }

    @Test
    void everyModeHasItsOwnHostAddressAndIsLinkedFromTheSeedPage() throws IOException {
        String hosts = Files.readString(sim.hostsFile());
        Set<String> ips = new java.util.HashSet<>();
        for (HostileMode m : HostileMode.values()) {
            assertThat(hosts).contains(m.ipAddress() + " " + m.hostName() + "\n");
            assertThat(ips.add(m.ipAddress())).as("own address for %s", m).isTrue();
            Raw index = get(m, "/");
            assertThat(index.status()).as("%s index", m).isEqualTo(200);
            assertThat(hrefs(index)).as("%s index links", m).containsExactlyElementsOf(
                    HostilePages.entryPaths(m));
        }
        String seed = TestHttp.text(TestHttp.getPage(sim, sim.seedPages()[0]));
        for (HostileMode m : HostileMode.values()) {
            assertThat(seed).contains("<a href=\"" + sim.hostileUrl(m) + "\">");
        }
        int other = sim.seedPages()[0] + 1;
        assertThat(TestHttp.text(TestHttp.getPage(sim, other))).doesNotContain(HostileMode.DOMAIN_SUFFIX);
    }

    @Test
    void aHostileAddressAnswersOnlyForItsOwnHost() throws IOException {
        Raw r = get(HostileMode.SLOW, "/slow", HostileMode.GZIP_BOMB.hostName(), 4096, 5000, Long.MAX_VALUE);
        assertThat(r.status()).isEqualTo(404);
    }

    @Test
    void bigBodyIsOneHundredMebibytesStreamed() throws IOException {
        Raw declared = get(HostileMode.BIG_BODY, "/big", HostileMode.BIG_BODY.hostName(), 4096, 20_000,
                Long.MAX_VALUE);
        assertThat(declared.header("Content-Length")).isEqualTo(Long.toString(100L << 20));
        assertThat(declared.total() - declared.head().length() - 4).isEqualTo(100L << 20);
        Raw chunked = get(HostileMode.BIG_BODY, "/big-chunked", HostileMode.BIG_BODY.hostName(), 4096, 20_000,
                Long.MAX_VALUE);
        assertThat(chunked.header("Transfer-Encoding")).isEqualTo("chunked");
        assertThat(chunked.total()).isGreaterThan(100L << 20);
        // a reader that stops after 1 MiB and hangs up: the server stops too (the next request is answered)
        Raw partial = get(HostileMode.BIG_BODY, "/big", HostileMode.BIG_BODY.hostName(), 4096, 20_000, 1 << 20);
        assertThat(partial.total()).isLessThan(100L << 20);
        assertThat(get(HostileMode.BIG_BODY, "/").status()).isEqualTo(200);
    }

    @Test
    void gzipBombIsOneMemberOfAboutOneMebibyteInflatingToOneGibibyte() throws IOException {
        Raw r = get(HostileMode.GZIP_BOMB, "/bomb", HostileMode.GZIP_BOMB.hostName(), 4 << 20, 20_000,
                Long.MAX_VALUE);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Content-Encoding")).as("sent although the request asked for identity").isEqualTo("gzip");
        byte[] wire = r.body();
        assertThat(wire.length).isEqualTo(Integer.parseInt(r.header("Content-Length")))
                .isBetween(900_000, 1_200_000);
        long inflated = 0;
        try (GZIPInputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(wire), 1 << 16)) {
            byte[] buf = new byte[1 << 20];
            int n;
            while ((n = in.read(buf)) > 0) {
                inflated += n; // the trailer's CRC-32 and length are checked by GZIPInputStream at the end
            }
        }
        assertThat(inflated).isEqualTo(1L << 30);
        assertThat(HostileContent.bombBuildMillis()).isPositive();
        System.out.printf("gzip bomb: %,d bytes on the wire, %,d inflated, built in %.0f ms%n", wire.length,
                inflated, HostileContent.bombBuildMillis());
    }

    @Test
    void redirectsLoopAndChainBeyondAnyLimit() throws IOException {
        assertThat(get(HostileMode.REDIRECT_LOOP, "/loop/a").header("Location")).isEqualTo("/loop/b");
        assertThat(get(HostileMode.REDIRECT_LOOP, "/loop/b").header("Location")).isEqualTo("/loop/a");
        Raw self = get(HostileMode.REDIRECT_LOOP, "/self");
        assertThat(self.status()).isEqualTo(302);
        assertThat(self.header("Location")).isEqualTo("/self");
        String at = "/chain/0";
        int hops = 0;
        Raw r;
        while ((r = get(HostileMode.REDIRECT_CHAIN, at)).status() == 302) {
            at = r.header("Location");
            hops++;
            assertThat(hops).isLessThanOrEqualTo(HostilePages.CHAIN_LENGTH);
        }
        assertThat(hops).isEqualTo(HostilePages.CHAIN_LENGTH);
        assertThat(r.status()).isEqualTo(200);
    }

    @Test
    void slowHostSendsOneByteASecond() throws IOException {
        Raw r = get(HostileMode.SLOW, "/slow", HostileMode.SLOW.hostName(), 64, 10_000, 3);
        assertThat(r.text()).isEqualTo("HTT");
        assertThat(r.millis()).as("3 bytes: at 0 s, 1 s and 2 s").isBetween(1_800L, 6_000L);
    }

    @Test
    void resetsAndHalfWrittenResponses() throws IOException {
        Raw reset = get(HostileMode.RESET, "/reset");
        assertThat(reset.reset()).as("RST").isTrue();
        assertThat(reset.total()).isZero();
        Raw mid = get(HostileMode.RESET, "/reset-mid");
        assertThat(mid.reset()).as("RST after part of the body").isTrue();
        Raw halfHead = get(HostileMode.HALF_HEAD, "/half-head");
        assertThat(halfHead.reset()).isFalse();
        assertThat(halfHead.text()).startsWith("HTTP/1.1 200 OK\r\n").doesNotContain("\r\n\r\n")
                .endsWith("Content-Len");
        Raw halfBody = get(HostileMode.HALF_BODY, "/half-body");
        assertThat(halfBody.header("Content-Length")).isEqualTo(Integer.toString(HostileResponder.HALF_BODY_DECLARED));
        assertThat(halfBody.body()).hasSize(HostileResponder.HALF_BODY_SENT);
    }

    @Test
    void calendarTrapIsEndlessAndNestsEvents() throws IOException {
        assertThat(hrefs(get(HostileMode.CALENDAR_TRAP, "/cal/2026/11/")))
                .containsExactly("/cal/2026/10/", "/cal/2026/12/", "events/");
        assertThat(hrefs(get(HostileMode.CALENDAR_TRAP, "/cal/2026/12/"))).contains("/cal/2027/1/");
        assertThat(hrefs(get(HostileMode.CALENDAR_TRAP, "/cal/3001/1/"))).contains("/cal/3000/12/");
        assertThat(get(HostileMode.CALENDAR_TRAP, "/cal/2026/11/events/events/events/events/").status())
                .isEqualTo(200);
        assertThat(get(HostileMode.CALENDAR_TRAP, "/cal/2026/13/").status()).isEqualTo(404);
        assertThat(get(HostileMode.CALENDAR_TRAP, "/cal/2026/11/other/").status()).isEqualTo(404);
    }

    @Test
    void sessionTrapMintsFreshIdsAndExplodesQueryParameters() throws IOException {
        String at = HostilePages.entryPaths(HostileMode.SESSION_TRAP).get(0);
        Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < 4; i++) {
            List<String> links = hrefs(get(HostileMode.SESSION_TRAP, at));
            assertThat(links).hasSize(2);
            String next = links.get(0);
            String more = links.get(1);
            assertThat(next).startsWith("/s/" + (i + 1) + "?sid=");
            assertThat(seen.add(next.substring(next.indexOf('=')))).as("fresh session id").isTrue();
            assertThat(more.split("&")).hasSize(at.split("&").length + HostilePages.SESSION_PARAMS_PER_HOP);
            at = next;
        }
        String deep = "/s/0?sid=1" + "&x=1".repeat(40);
        assertThat(hrefs(get(HostileMode.SESSION_TRAP, deep)).get(1).split("&"))
                .hasSize(41 + HostilePages.SESSION_PARAMS_PER_HOP);
    }

    @Test
    void manyLinksPageHasOneHundredThousandLinks() throws IOException {
        Raw r = get(HostileMode.MANY_LINKS, "/many");
        assertThat(r.status()).isEqualTo(200);
        List<String> links = hrefs(r);
        assertThat(links).hasSize(HostileContent.MANY_LINKS).doesNotHaveDuplicates();
        assertThat(links.stream().filter(l -> l.startsWith("/many/"))).hasSize(HostileContent.MANY_LINKS_LOCAL);
        assertThat(links.stream().filter(l -> l.startsWith("http://10."))).hasSize(
                HostileContent.MANY_LINKS - HostileContent.MANY_LINKS_LOCAL);
        assertThat(get(HostileMode.MANY_LINKS, "/many/3").status()).isEqualTo(200);
    }

    @Test
    void invalidUtf8AndWrongCharsets() throws IOException {
        Raw bad = get(HostileMode.BAD_UTF8, "/bad-utf8");
        assertThat(bad.header("Content-Type")).isEqualTo("text/html; charset=utf-8");
        assertThat(validUtf8(bad.body())).isFalse();
        Raw latin1 = get(HostileMode.WRONG_CHARSET, "/latin1");
        assertThat(latin1.header("Content-Type")).contains("utf-8");
        assertThat(validUtf8(latin1.body())).as("Latin-1 bytes declared UTF-8").isFalse();
        assertThat(get(HostileMode.WRONG_CHARSET, "/utf16").header("Content-Type")).endsWith("charset=utf-16");
        assertThat(get(HostileMode.WRONG_CHARSET, "/bogus").header("Content-Type")).contains("x-no-such-charset");
        Raw meta = get(HostileMode.WRONG_CHARSET, "/meta");
        assertThat(meta.header("Content-Type")).endsWith("iso-8859-1");
        assertThat(new String(meta.body(), StandardCharsets.UTF_8)).contains("<meta charset=\"shift_jis\">");
    }

    private static boolean validUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    @Test
    void robotsTxtMisbehavesInEveryWay() throws IOException {
        Raw html = get(HostileMode.ROBOTS_HTML, "/robots.txt");
        assertThat(html.status()).isEqualTo(200);
        assertThat(html.header("Content-Type")).startsWith("text/html");
        assertThat(get(HostileMode.ROBOTS_5XX, "/robots.txt").status()).isEqualTo(500);
        assertThat(get(HostileMode.ROBOTS_4XX, "/robots.txt").status()).isEqualTo(403);
        Raw huge = get(HostileMode.ROBOTS_HUGE, "/robots.txt", HostileMode.ROBOTS_HUGE.hostName(), 4096, 20_000,
                Long.MAX_VALUE);
        assertThat(huge.header("Content-Length")).isEqualTo(Long.toString(HostileContent.HUGE_ROBOTS_BYTES));
        assertThat(huge.total() - huge.head().length() - 4).isEqualTo(HostileContent.HUGE_ROBOTS_BYTES);
        assertThat(new String(huge.body(), StandardCharsets.US_ASCII)).startsWith(HostileContent.HUGE_ROBOTS_HEAD);
        byte[] block = HostileContent.robotsBlock64k();
        assertThat(block).hasSize(64 * 1024);
        assertThat(block[block.length - 1]).as("whole lines, so the copies join cleanly").isEqualTo((byte) '\n');
        Raw r1 = get(HostileMode.ROBOTS_REDIRECT, "/robots.txt");
        assertThat(r1.status()).isEqualTo(301);
        Raw r2 = get(HostileMode.ROBOTS_REDIRECT, r1.header("Location"));
        assertThat(r2.status()).isEqualTo(301);
        Raw r3 = get(HostileMode.ROBOTS_REDIRECT, r2.header("Location"));
        assertThat(new String(r3.body(), StandardCharsets.US_ASCII)).contains("Disallow: /private/");
        Raw silent = get(HostileMode.ROBOTS_TIMEOUT, "/robots.txt", HostileMode.ROBOTS_TIMEOUT.hostName(), 4096,
                1500, Long.MAX_VALUE);
        assertThat(silent.timedOut()).isTrue();
        assertThat(silent.total()).isZero();
        for (HostileMode m : EnumSet.range(HostileMode.ROBOTS_HTML, HostileMode.ROBOTS_TIMEOUT)) {
            assertThat(get(m, "/a").status()).as("%s ordinary page", m).isEqualTo(200);
        }
    }

    @Test
    void throttlingWithAndWithoutRetryAfter() throws IOException {
        Raw a = get(HostileMode.THROTTLE_429_RETRY_AFTER, "/t/0");
        assertThat(a.status()).isEqualTo(429);
        assertThat(a.header("Retry-After")).isEqualTo("1");
        Raw b = get(HostileMode.THROTTLE_429, "/t/1");
        assertThat(b.status()).isEqualTo(429);
        assertThat(b.header("Retry-After")).isNull();
        Raw c = get(HostileMode.THROTTLE_503_RETRY_AFTER, "/t/0");
        assertThat(c.status()).isEqualTo(503);
        assertThat(c.header("Retry-After")).isEqualTo("1");
        Raw d = get(HostileMode.THROTTLE_503, "/t/2");
        assertThat(d.status()).isEqualTo(503);
        assertThat(d.header("Retry-After")).isNull();
    }

    @Test
    void oversizedValuesOfEveryKeptHeader() throws IOException {
        int n = HostilePages.OVERSIZED_VALUE_BYTES;
        Raw etag = get(HostileMode.OVERSIZED_HEADERS, "/etag");
        assertThat(etag.status()).isEqualTo(200);
        assertThat(etag.header("ETag")).hasSize(n).startsWith("\"e").endsWith("e\"");
        assertThat(hrefs(etag)).containsExactly("/ok/etag");
        Raw lm = get(HostileMode.OVERSIZED_HEADERS, "/last-modified");
        assertThat(lm.status()).isEqualTo(200);
        assertThat(lm.header("Last-Modified")).hasSize(n).startsWith("Tue, 15 Nov 1994 12:45:26 GMT");
        Raw ct = get(HostileMode.OVERSIZED_HEADERS, "/content-type");
        assertThat(ct.status()).isEqualTo(200);
        assertThat(ct.header("Content-Type")).hasSize(n).startsWith("text/html; charset=utf-8; x=yyy");
        Raw ra = get(HostileMode.OVERSIZED_HEADERS, "/retry-after");
        assertThat(ra.status()).isEqualTo(503);
        assertThat(ra.header("Retry-After")).hasSize(n).matches("9+");
        assertThat(get(HostileMode.OVERSIZED_HEADERS, "/ok/etag").status()).isEqualTo(200);
        assertThat(get(HostileMode.OVERSIZED_HEADERS, "/etag").bytes()).as("deterministic")
                .isEqualTo(etag.bytes());
    }

    @Test
    void oversizedRedirectTargets() throws IOException {
        Raw plain = get(HostileMode.OVERSIZED_REDIRECT, "/redirect");
        assertThat(plain.status()).isEqualTo(301);
        assertThat(plain.header("Location")).hasSize(HostilePages.OVERSIZED_VALUE_BYTES).startsWith("/target/xxx");
        Raw utf8 = get(HostileMode.OVERSIZED_REDIRECT, "/redirect-utf8");
        assertThat(utf8.status()).isEqualTo(301);
        // the Location as raw bytes on the wire: UTF-8 "é" (C3 A9) a thousand times, 2,008 bytes in all
        byte[] location = utf8.header("Location").getBytes(StandardCharsets.ISO_8859_1);
        assertThat(location).isEqualTo(HostilePages.utf8RedirectLocation()).hasSize(8 + 2 * 1000);
        assertThat(new String(location, StandardCharsets.UTF_8)).isEqualTo("/target/" + "\u00e9".repeat(1000));
    }

    @Test
    void headerBytesThatAreNotAscii() throws IOException {
        Raw latin = get(HostileMode.NON_ASCII_HEADERS, "/latin1-bytes");
        assertThat(latin.status()).isEqualTo(200);
        byte[] etag = latin.header("ETag").getBytes(StandardCharsets.ISO_8859_1);
        assertThat(etag).hasSize(2 + 0x80);
        for (int i = 0; i < 0x80; i++) {
            assertThat(etag[i + 1] & 0xFF).isEqualTo(0x80 + i);
        }
        assertThat(latin.header("X-Raw").getBytes(StandardCharsets.ISO_8859_1)).hasSize(0x80);
        assertThat(latin.header("Last-Modified")).startsWith("Tue, 15 Nov 1994 ");
        assertThat(latin.bytes()).isEqualTo(HostileResponder.nonAsciiResponse("/latin1-bytes"));
        assertThat(hrefs(latin)).containsExactly("/ok/latin1-bytes");

        Raw utf8 = get(HostileMode.NON_ASCII_HEADERS, "/utf8-value");
        assertThat(utf8.status()).isEqualTo(200);
        String type = new String(utf8.header("Content-Type").getBytes(StandardCharsets.ISO_8859_1),
                StandardCharsets.UTF_8);
        assertThat(type).isEqualTo("text/html; charset=utf-8; title=\"Grüße 日本 😀\"");
        assertThat(new String(utf8.header("ETag").getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8))
                .isEqualTo("\"é-😀\"");
        assertThat(get(HostileMode.NON_ASCII_HEADERS, "/ok/utf8-value").status()).isEqualTo(200);
    }

    @Test
    void everyAccessIsRecordedAndCountedPerMode() throws IOException {
        long before = sim.stats().hostileAccesses().get("half-body");
        long ipBefore = sim.stats().accessesPerIp().get(HostileMode.HALF_BODY.ipAddress());
        get(HostileMode.HALF_BODY, "/half-body");
        get(HostileMode.HALF_BODY, "/nothing-here");
        WebSimStats stats = sim.stats();
        assertThat(stats.hostileAccesses()).containsOnlyKeys(
                EnumSet.allOf(HostileMode.class).stream().map(HostileMode::label).toList());
        assertThat(stats.hostileAccesses().get("half-body")).isEqualTo(before + 2);
        assertThat(stats.accessesPerIp().get(HostileMode.HALF_BODY.ipAddress())).isEqualTo(ipBefore + 2);
        assertThat(stats.toJson()).contains("\"hostileAccesses\":{\"big-body\":");
    }

    @Test
    void modesAreOffByDefaultAndSwitchedOnOneByOne() throws IOException {
        assertThat(WebSimConfig.defaults().hostile()).isEmpty();
        try (WebSim one = WebSim.start(WebSimConfig.builder().generate(50).ips(2).politenessMs(0)
                .hostile(HostileMode.parseList("slow")).build())) {
            String hosts = Files.readString(one.hostsFile());
            assertThat(hosts).contains(HostileMode.SLOW.hostName()).doesNotContain(HostileMode.GZIP_BOMB.hostName());
            assertThatThrownBy(() -> {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(HostileMode.GZIP_BOMB.ipAddress(), one.port()), 1000);
                }
            }).isInstanceOf(ConnectException.class);
            assertThat(one.stats().hostileAccesses()).containsOnlyKeys("slow");
        }
        try (WebSim none = WebSim.start(WebSimConfig.builder().generate(50).ips(2).politenessMs(0).build())) {
            assertThat(Files.readString(none.hostsFile())).doesNotContain(HostileMode.DOMAIN_SUFFIX);
            assertThat(TestHttp.text(TestHttp.getPage(none, 0))).doesNotContain(HostileMode.DOMAIN_SUFFIX);
        }
    }

    @Test
    void modeListsParseAndUnknownModesAreRefusedByName() {
        assertThat(HostileMode.parseList("all")).hasSize(HostileMode.values().length);
        assertThat(HostileMode.parseList("gzip-bomb, slow")).containsExactly(HostileMode.GZIP_BOMB, HostileMode.SLOW);
        assertThat(HostileMode.parseList("none")).isEmpty();
        assertThatThrownBy(() -> HostileMode.parseList("slow,teapot")).hasMessageContaining("'teapot'")
                .hasMessageContaining("gzip-bomb");
        WebSimMain main = new WebSimMain();
        new CommandLine(main).parseArgs("--generate", "10", "--hostile");
        assertThat(main.config().hostile()).hasSize(HostileMode.values().length);
        WebSimMain some = new WebSimMain();
        new CommandLine(some).parseArgs("--hostile=reset,robots-5xx");
        assertThat(some.config().hostile()).containsExactly(HostileMode.RESET, HostileMode.ROBOTS_5XX);
        assertThat(new WebSimMain().config().hostile()).isEmpty();
        assertThat(HostileMode.ofHost("Slow.Hostile.WebSim.test:8080")).isEqualTo(HostileMode.SLOW);
        assertThat(HostileMode.ofHost("h1.websim.test")).isNull();
    }
}
