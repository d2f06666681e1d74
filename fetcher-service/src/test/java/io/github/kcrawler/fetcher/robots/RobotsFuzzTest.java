package io.github.kcrawler.fetcher.robots;

import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.fetcher.FuzzTries;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AddLifecycleHook;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzing (issue 9) of robots.txt handling: random bytes, directive-shaped garbage and huge lines under any
 * status and content type always give a verdict, and asking it about any path never throws. A 2xx always parses
 * (no deferral), 5xx always defers: the RFC 9309 mapping holds whatever the body.
 * {@code -Dkcrawler.fuzz.tries=N} scales the tries (docs/HOSTILE.md).
 */
@AddLifecycleHook(FuzzTries.class)
class RobotsFuzzTest {
    private static final String[] PIECES = {"User-agent:", "user-AGENT :", "kcrawler", "*", "Disallow:", "Allow:",
            "Crawl-delay:", "Sitemap:", "/", "/*", "$", "?", "%", "%2F", "99999999999999999999", "-1", "1e9", "\n",
            "\r", "\r\n", "#", " ", "\t", "\u0000", "\uFEFF", "<html>", "<!-- Disallow: / -->", "ü", "\uD800", ":"};
    private static final String[] TYPES = {"text/plain", "text/html", null, "application/octet-stream", "x/y"};
    private final RobotsCache cache = new RobotsCache(List.of("kcrawler"), 10, 60_000, 60_000, 30_000,
            CrawlClock.SYSTEM, (url, ip) -> new CompletableFuture<>(), new SimpleMeterRegistry());

    @Property(tries = 400)
    void randomBytesGiveAVerdict(@ForAll @Size(max = 3000) byte[] body, @ForAll @IntRange(min = 100, max = 599)
            int status, @ForAll @IntRange(max = 4) int type, @ForAll("path") String path) {
        check(status, body, TYPES[type], path);
    }

    @Property(tries = 400)
    void directiveShapedGarbageGivesAVerdict(@ForAll("robots") String text, @ForAll @IntRange(max = 4) int type,
                                             @ForAll("path") String path) {
        check(200, text.getBytes(StandardCharsets.UTF_8), TYPES[type], path);
    }

    @Provide
    Arbitrary<String> robots() {
        return Arbitraries.of(PIECES).list().ofMaxSize(200).map(l -> String.join("", l));
    }

    @Provide
    Arbitrary<String> path() {
        return Arbitraries.strings().ofMaxLength(60).map(s -> "/" + s);
    }

    void check(int status, byte[] body, String type, String path) {
        RobotsRules rules = cache.toRules("http://site.test/robots.txt", RobotsResponse.http(status, body, type));
        assertThat(rules).isNotNull();
        rules.isAllowed("http://site.test" + path);
        assertThat(rules.crawlDelayMillis()).isBetween(0L, 30_000L);
        if (status >= 200 && status < 300) {
            assertThat(rules.deferred()).isFalse();
        }
        if (status >= 500) {
            assertThat(rules.deferred()).isTrue();
            assertThat(rules.isAllowed("http://site.test" + path)).isFalse();
        }
    }
}
