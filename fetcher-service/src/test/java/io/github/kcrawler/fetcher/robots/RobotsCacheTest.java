package io.github.kcrawler.fetcher.robots;

import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.time.ManualClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** robots.txt verdicts per RFC 9309 as the fetcher applies them: parse, allow-all, defer, one fetch per site. */
class RobotsCacheTest {
    private static final String SITE = "http://example.com:80";
    private static final long DAY = 24L * 3600 * 1000;

    private ManualClock clock;
    private SimpleMeterRegistry registry;
    private List<String> fetched;
    private List<CompletableFuture<RobotsResponse>> answers;
    private RobotsCache cache;

    @BeforeEach
    void setUp() {
        clock = new ManualClock(0);
        registry = new SimpleMeterRegistry();
        fetched = new ArrayList<>();
        answers = new ArrayList<>();
        cache = new RobotsCache(List.of("kcrawler"), 100, DAY, 60_000, 30_000, clock, (url, ip, wanted) -> {
            fetched.add(url + " via " + ip);
            CompletableFuture<RobotsResponse> f = new CompletableFuture<>();
            answers.add(f);
            return f;
        }, registry);
    }

    private RobotsRules rulesFor(RobotsResponse response) {
        List<RobotsRules> got = new ArrayList<>();
        cache.rules(SITE, "1.2.3.4", got::add);
        answers.get(answers.size() - 1).complete(response);
        assertThat(got).hasSize(1);
        return got.get(0);
    }

    private static RobotsResponse ok(String body) {
        return RobotsResponse.http(200, body.getBytes(StandardCharsets.UTF_8), "text/plain");
    }

    @Test
    void parsesRulesForOurAgent() {
        RobotsRules r = rulesFor(ok("""
                User-agent: *
                Disallow: /private/

                User-agent: kcrawler
                Disallow: /nokcrawler/
                Crawl-delay: 2
                """));
        assertThat(r.isAllowed("http://example.com/private/x")).isTrue(); // our group replaces the * group
        assertThat(r.isAllowed("http://example.com/nokcrawler/page")).isFalse();
        assertThat(r.isAllowed("http://example.com/")).isTrue();
        assertThat(r.crawlDelayMillis()).isEqualTo(2_000);
        assertThat(r.deferred()).isFalse();
        assertThat(fetched).containsExactly("http://example.com:80/robots.txt via 1.2.3.4");
    }

    @Test
    void aFetchNotSentLeavesNoVerdict_everyWaiterIsTold_andTheNextRequestFetchesAgain() {
        List<RobotsRules> got = new ArrayList<>();
        List<java.util.function.BooleanSupplier> wanted = new ArrayList<>();
        RobotsCache c = new RobotsCache(List.of("kcrawler"), 100, DAY, 60_000, 30_000, clock, (url, ip, w) -> {
            wanted.add(w);
            CompletableFuture<RobotsResponse> f = new CompletableFuture<>();
            answers.add(f);
            return f;
        }, registry);
        c.rules(SITE, "1.2.3.4", () -> false, got::add);
        c.rules(SITE, "1.2.3.4", () -> true, got::add); // waits for the same fetch
        assertThat(wanted).hasSize(1);
        assertThat(wanted.get(0).getAsBoolean()).as("the source sees the first caller's ownership").isFalse();
        answers.get(0).complete(RobotsResponse.notFetched());
        assertThat(got).containsExactly(RobotsRules.NOT_FETCHED, RobotsRules.NOT_FETCHED);
        assertThat(got.get(0).notFetched()).isTrue();
        assertThat(got.get(0).isAllowed("http://example.com/")).isFalse();
        assertThat(c.cached(SITE)).isNull();
        assertThat(c.size()).isZero();
        assertThat(registry.get("crawler.robots.fetches").tag("result", "not_fetched").counter().count())
                .isEqualTo(1);
        c.rules(SITE, "1.2.3.4", () -> true, got::add);
        assertThat(wanted).hasSize(2);
        answers.get(1).complete(ok("User-agent: *\nDisallow: /x\n"));
        assertThat(got).hasSize(3);
        assertThat(got.get(2).notFetched()).isFalse();
        assertThat(c.cached(SITE)).isSameAs(got.get(2));
    }

    @Test
    void wildcardGroupAppliesWhenNoGroupNamesUs() {
        RobotsRules r = rulesFor(ok("User-agent: *\nDisallow: /cgi-bin/\n"));
        assertThat(r.isAllowed("http://example.com/cgi-bin/a")).isFalse();
        assertThat(r.isAllowed("http://example.com/a")).isTrue();
        assertThat(r.crawlDelayMillis()).isZero();
    }

    @Test
    void absurdCrawlDelayIsClampedNotTreatedAsDisallowAll() {
        RobotsRules r = rulesFor(ok("User-agent: *\nCrawl-delay: 86400\n"));
        assertThat(r.isAllowed("http://example.com/a")).isTrue();
        assertThat(r.crawlDelayMillis()).isEqualTo(30_000);
    }

    @Test
    void missingRobotsAllowsEverything() {
        RobotsRules r = rulesFor(RobotsResponse.http(404, new byte[0], null));
        assertThat(r.isAllowed("http://example.com/anything")).isTrue();
        assertThat(r.deferred()).isFalse();
        assertThat(r.expiresAt()).isEqualTo(DAY);
    }

    @Test
    void serverErrorDefersTheWholeSiteForTheErrorTtl() {
        RobotsRules r = rulesFor(RobotsResponse.http(503, new byte[0], null));
        assertThat(r.deferred()).isTrue();
        assertThat(r.isAllowed("http://example.com/")).isFalse();
        assertThat(r.networkFailure()).isNull();
        assertThat(r.reason()).contains("503");
        assertThat(r.expiresAt()).isEqualTo(60_000);
        assertThat(registry.get("crawler.robots.fetches").tag("result", "deferred_http").counter().count())
                .isEqualTo(1);
    }

    @Test
    void tooManyRequestsDefersLikeA5xx() {
        assertThat(rulesFor(RobotsResponse.http(429, new byte[0], null)).deferred()).isTrue();
    }

    @Test
    void networkFailureDefersAndKeepsTheReason() {
        RobotsRules r = rulesFor(RobotsResponse.failed(FetchOutcome.CONNECT_FAILURE, "connection refused"));
        assertThat(r.deferred()).isTrue();
        assertThat(r.networkFailure()).isEqualTo(FetchOutcome.CONNECT_FAILURE);
        assertThat(r.reason()).contains("connection refused");
    }

    @Test
    void aSourceThatThrowsIsTreatedAsNoResponse() {
        RobotsCache failing = new RobotsCache(List.of("kcrawler"), 10, DAY, 1_000, 30_000, clock, (url, ip, wanted) -> {
            throw new IllegalStateException("boom");
        }, registry);
        List<RobotsRules> got = new ArrayList<>();
        failing.rules(SITE, "1.2.3.4", got::add);
        assertThat(got).singleElement().satisfies(r -> assertThat(r.deferred()).isTrue());
    }

    @Test
    void concurrentRequestsShareOneFetch() {
        List<RobotsRules> got = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            cache.rules(SITE, "1.2.3.4", got::add);
        }
        assertThat(fetched).hasSize(1);
        assertThat(got).isEmpty();
        answers.get(0).complete(ok("User-agent: *\nDisallow: /x\n"));
        assertThat(got).hasSize(5).allSatisfy(r -> assertThat(r.isAllowed("http://example.com/x")).isFalse());
        assertThat(cache.cached(SITE)).isSameAs(got.get(0));
    }

    @Test
    void entriesExpireAndAreFetchedAgain() {
        rulesFor(ok("User-agent: *\nDisallow:\n"));
        clock.advance(DAY - 1);
        assertThat(cache.cached(SITE)).isNotNull();
        clock.advance(1);
        assertThat(cache.cached(SITE)).isNull();
        cache.rules(SITE, "1.2.3.4", r -> { });
        assertThat(fetched).hasSize(2);
    }

    @Test
    void cacheIsBoundedLeastRecentlyUsedFirst() {
        RobotsCache small = new RobotsCache(List.of("kcrawler"), 2, DAY, 1_000, 30_000, clock,
                (url, ip, wanted) -> CompletableFuture.completedFuture(RobotsResponse.http(404, new byte[0], null)), registry);
        small.rules("http://a:80", "1.1.1.1", r -> { });
        small.rules("http://b:80", "1.1.1.1", r -> { });
        assertThat(small.cached("http://a:80")).isNotNull(); // a is now most recently used
        small.rules("http://c:80", "1.1.1.1", r -> { });
        assertThat(small.size()).isEqualTo(2);
        assertThat(small.cached("http://b:80")).isNull();
        assertThat(small.cached("http://a:80")).isNotNull();
    }

    @Test
    void garbageRobotsIsParsedLeniently() {
        RobotsRules r = rulesFor(RobotsResponse.http(200, "<html><body>Not a robots file</body></html>"
                .getBytes(StandardCharsets.UTF_8), "text/html"));
        assertThat(r.isAllowed("http://example.com/page")).isTrue();
        assertThat(r.isAllowed("http://example.com/body")).isTrue();
    }

    @Test
    void sitesWithEqualRulesShareOneParsedRuleSet() {
        RobotsCache all = new RobotsCache(List.of("kcrawler"), 100, DAY, 1_000, 30_000, clock, (url, ip, wanted) -> {
            String host = url.substring("http://".length(), url.indexOf(':', "http://".length()));
            String body = "# robots.txt of " + host + "\nUser-agent: *\n"
                    + (host.startsWith("own") ? "Disallow: /own-" + host + "/\n" : "Disallow: /private/\n");
            return CompletableFuture.completedFuture(ok(body));
        }, registry);
        List<RobotsRules> got = new ArrayList<>();
        for (String host : List.of("a", "b", "c", "own1", "own2")) {
            all.rules("http://" + host + ":80", "1.1.1.1", got::add);
        }
        assertThat(got).hasSize(5);
        // a, b and c differ only in a comment: one parse serves all three; own1 and own2 each keep their own
        assertThat(got.get(1).rules()).isSameAs(got.get(0).rules());
        assertThat(got.get(2).rules()).isSameAs(got.get(0).rules());
        assertThat(got.get(3).rules()).isNotSameAs(got.get(0).rules()).isNotSameAs(got.get(4).rules());
        assertThat(all.sharedRuleSets()).isEqualTo(3);
        // and each site still gets its own verdicts
        assertThat(got.get(0).isAllowed("http://a/private/x")).isFalse();
        assertThat(got.get(3).isAllowed("http://own1/private/x")).isTrue();
        assertThat(got.get(3).isAllowed("http://own1/own-own1/x")).isFalse();
        assertThat(got.get(4).isAllowed("http://own2/own-own1/x")).isTrue();
        assertThat(got.get(4).isAllowed("http://own2/own-own2/x")).isFalse();
    }

    @Test
    void equalRulesWithDifferentCrawlDelaysAreNotShared() {
        RobotsRules slow = rulesFor(ok("User-agent: *\nDisallow: /x\nCrawl-delay: 5\n"));
        cache.rules("http://other:80", "1.2.3.4", r -> { });
        answers.get(answers.size() - 1).complete(ok("User-agent: *\nDisallow: /x\n"));
        RobotsRules fast = cache.cached("http://other:80");
        assertThat(fast.rules()).isNotSameAs(slow.rules());
        assertThat(slow.crawlDelayMillis()).isEqualTo(5_000);
        assertThat(fast.crawlDelayMillis()).isZero();
    }

    @Test
    void theSharedRuleSetsAreBounded() {
        for (int i = 0; i < RobotsCache.SHARED_RULE_SETS + 10; i++) {
            cache.rules("http://s" + i + ":80", "1.2.3.4", r -> { });
            answers.get(answers.size() - 1).complete(ok("User-agent: *\nDisallow: /p" + i + "/\n"));
        }
        assertThat(cache.sharedRuleSets()).isEqualTo(RobotsCache.SHARED_RULE_SETS);
        int last = RobotsCache.SHARED_RULE_SETS + 9;
        assertThat(cache.cached("http://s" + last + ":80").isAllowed("http://s" + last + "/p" + last + "/a"))
                .isFalse();
    }
}
