package io.github.kcrawler.fetcher.robots;

import io.github.kcrawler.testing.Gen;
import io.github.kcrawler.common.time.CrawlClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.github.kcrawler.testing.PropertyCheck.fuzz;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzing (issue 9) of robots.txt handling: random bytes, directive-shaped garbage and huge lines under any
 * status and content type always give a verdict, and asking it about any path never throws. A 2xx always parses
 * (no deferral), 5xx always defers: the RFC 9309 mapping holds whatever the body.
 * {@code -Dkcrawler.fuzz.tries=N} scales the tries (docs/HOSTILE.md).
 */
class RobotsFuzzTest {
    private static final String[] PIECES = {"User-agent:", "user-AGENT :", "kcrawler", "*", "Disallow:", "Allow:",
            "Crawl-delay:", "Sitemap:", "/", "/*", "$", "?", "%", "%2F", "99999999999999999999", "-1", "1e9", "\n",
            "\r", "\r\n", "#", " ", "\t", "\u0000", "\uFEFF", "<html>", "<!-- Disallow: / -->", "ü", "\uD800", ":"};
    private static final String[] TYPES = {"text/plain", "text/html", null, "application/octet-stream", "x/y"};
    private final RobotsCache cache = new RobotsCache(List.of("kcrawler"), 10, 60_000, 60_000, 30_000,
            CrawlClock.SYSTEM, (url, ip, wanted) -> new CompletableFuture<>(), new SimpleMeterRegistry());

    @Test
    void randomBytesGiveAVerdict() {
        fuzz(400, g -> randomBytesGiveAVerdict(g.bytes(3000), g.intIn(100, 599), g.intIn(0, 4), path(g)));
    }

    void randomBytesGiveAVerdict(byte[] body, int status, int type, String path) {
        check(status, body, TYPES[type], path);
    }

    @Test
    void directiveShapedGarbageGivesAVerdict() {
        fuzz(400, g -> directiveShapedGarbageGivesAVerdict(robots(g), g.intIn(0, 4), path(g)));
    }

    void directiveShapedGarbageGivesAVerdict(String text, int type, String path) {
        check(200, text.getBytes(StandardCharsets.UTF_8), TYPES[type], path);
    }

    static String robots(Gen g) {
        return g.joined(PIECES, 200);
    }

    static String path(Gen g) {
        return "/" + g.string(60);
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
