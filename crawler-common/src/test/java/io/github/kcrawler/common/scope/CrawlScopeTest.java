package io.github.kcrawler.common.scope;

import io.github.kcrawler.common.config.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CrawlScopeTest {
    private static final String SOURCE = "https://www.example.co.uk/news/";

    @Test
    void shouldAcceptInScopeUrlWithDefaults() {
        CrawlScope scope = CrawlScope.defaults();
        assertThat(scope.check("https://elsewhere.org/x", 3, SOURCE)).isEqualTo(ScopeDecision.IN_SCOPE);
        assertThat(scope.checkSeed("http://seed.example/")).isEqualTo(ScopeDecision.IN_SCOPE);
        assertThat(scope.maxDepth()).isEqualTo(20);
        assertThat(scope.maxUrlLength()).isEqualTo(2048);
        assertThat(scope.mode()).isEqualTo(CrawlScope.Mode.ANY);
    }

    @Test
    void shouldRefuseNonHttpSchemes() {
        CrawlScope scope = CrawlScope.defaults();
        assertThat(scope.check("ftp://example.com/", 1, SOURCE)).isEqualTo(ScopeDecision.BAD_SCHEME);
        assertThat(scope.check("mailto:a@example.com", 1, SOURCE)).isEqualTo(ScopeDecision.BAD_SCHEME);
        assertThat(scope.check(null, 1, SOURCE)).isEqualTo(ScopeDecision.BAD_SCHEME);
    }

    @Test
    void shouldRefuseTooLongAndTooDeep() {
        CrawlScope scope = CrawlScope.of(2, 40, CrawlScope.Mode.ANY, List.of(), List.of());
        assertThat(scope.check("http://example.com/" + "a".repeat(21), 1, null)).isEqualTo(ScopeDecision.IN_SCOPE);
        assertThat(scope.check("http://example.com/" + "a".repeat(22), 1, null)).isEqualTo(ScopeDecision.TOO_LONG);
        assertThat(scope.check("http://example.com/", 2, null)).isEqualTo(ScopeDecision.IN_SCOPE);
        assertThat(scope.check("http://example.com/", 3, null)).isEqualTo(ScopeDecision.TOO_DEEP);
    }

    @ParameterizedTest(name = "{0}: {1} -> {2}")
    @CsvSource({
            "SAME_HOST,https://www.example.co.uk/other,IN_SCOPE",
            "SAME_HOST,http://WWW.example.co.uk:8080/x,IN_SCOPE",
            "SAME_HOST,https://example.co.uk/,OFF_HOST",
            "SAME_HOST,https://www.example.co.uk.evil.com/,OFF_HOST",
            "SAME_DOMAIN,https://shop.example.co.uk/,IN_SCOPE",
            "SAME_DOMAIN,https://example.co.uk./,IN_SCOPE",
            "SAME_DOMAIN,https://other.co.uk/,OFF_DOMAIN",
            "SAME_DOMAIN,https://www.example.co.uk.evil.com/,OFF_DOMAIN",
            "SAME_DOMAIN,http://10.0.0.1/,OFF_DOMAIN",
            "ANY,https://other.co.uk/,IN_SCOPE",
    })
    void shouldCompareWithSourcePage(CrawlScope.Mode mode, String url, ScopeDecision expected) {
        CrawlScope scope = CrawlScope.of(20, 2048, mode, List.of(), List.of());
        assertThat(scope.check(url, 1, SOURCE)).isEqualTo(expected);
        assertThat(scope.checkSeed(url)).as("seeds have no source page").isEqualTo(ScopeDecision.IN_SCOPE);
    }

    @Test
    void shouldTreatPrivateSuffixesAsSeparateSites() {
        CrawlScope scope = CrawlScope.of(20, 2048, CrawlScope.Mode.SAME_DOMAIN, List.of(), List.of());
        assertThat(scope.check("https://bob.github.io/", 1, "https://alice.github.io/")).isEqualTo(ScopeDecision.OFF_DOMAIN);
        assertThat(scope.check("https://a.host1.websim/", 1, "http://b.host1.websim/")).isEqualTo(ScopeDecision.IN_SCOPE);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "www.bbc.co.uk,bbc.co.uk",
            "a.b.example.com,example.com",
            "example.com.,example.com",
            "alice.github.io,alice.github.io",
            "host7.site3.websim,site3.websim",
            "localhost,localhost",
            "127.0.0.1,127.0.0.1",
            "[::1],[::1]",
    })
    void shouldFindRegisteredDomain(String host, String expected) {
        assertThat(CrawlScope.registeredDomain(host)).isEqualTo(expected);
    }

    @Test
    void shouldLetDenyWinOverAllow() {
        CrawlScope scope = CrawlScope.of(20, 2048, CrawlScope.Mode.ANY, List.of("^https?://[^/]*example\\.com/"),
                List.of("\\.(jpg|png)$", "[?&]sessionid="));
        assertThat(scope.check("http://example.com/page", 1, null)).isEqualTo(ScopeDecision.IN_SCOPE);
        assertThat(scope.check("http://example.com/a.jpg", 1, null)).isEqualTo(ScopeDecision.DENIED_PATTERN);
        assertThat(scope.check("http://example.com/?x=1&sessionid=9", 1, null)).isEqualTo(ScopeDecision.DENIED_PATTERN);
        assertThat(scope.check("http://other.org/page", 1, null)).isEqualTo(ScopeDecision.NOT_ALLOWED_PATTERN);
        assertThat(scope.check("http://other.org/a.png", 1, null)).isEqualTo(ScopeDecision.DENIED_PATTERN);
    }

    @Test
    void shouldReadSettings() {
        Settings s = Settings.parse(CrawlScope.KEYS, Map.of("CRAWLER_MAX_DEPTH", "3"), "--scope", "same-domain",
                "--max-url-length=512", "--allow", "example\\.com, example\\.org", "--deny", "\\.pdf$");
        CrawlScope scope = CrawlScope.from(s);
        assertThat(scope.maxDepth()).isEqualTo(3);
        assertThat(scope.maxUrlLength()).isEqualTo(512);
        assertThat(scope.mode()).isEqualTo(CrawlScope.Mode.SAME_DOMAIN);
        assertThat(scope.allow()).extracting(Object::toString).containsExactly("example\\.com", "example\\.org");
        assertThat(scope.deny()).extracting(Object::toString).containsExactly("\\.pdf$");
        assertThat(CrawlScope.from(Settings.parse(CrawlScope.KEYS, Map.of()))).satisfies(d -> {
            assertThat(d.maxDepth()).isEqualTo(CrawlScope.DEFAULT_MAX_DEPTH);
            assertThat(d.mode()).isEqualTo(CrawlScope.Mode.ANY);
            assertThat(d.allow()).isEmpty();
        });
    }

    @Test
    void shouldRejectBadConfigurationNamingTheValue() {
        assertThatThrownBy(() -> CrawlScope.of(-1, 2048, CrawlScope.Mode.ANY, List.of(), List.of()))
                .hasMessageContaining("max-depth").hasMessageContaining("-1");
        assertThatThrownBy(() -> CrawlScope.of(5, 3, CrawlScope.Mode.ANY, List.of(), List.of()))
                .hasMessageContaining("max-url-length").hasMessageContaining("3");
        assertThatThrownBy(() -> CrawlScope.of(5, 2048, CrawlScope.Mode.ANY, List.of("(unclosed"), List.of()))
                .hasMessageContaining("allow").hasMessageContaining("(unclosed");
        assertThatThrownBy(() -> CrawlScope.Mode.parse("same-planet")).hasMessageContaining("same-planet");
        assertThat(CrawlScope.Mode.parse(" Same_Host ")).isEqualTo(CrawlScope.Mode.SAME_HOST);
    }

    @Test
    void shouldExposeMetricTags() {
        assertThat(ScopeDecision.OFF_DOMAIN.tag()).isEqualTo("off-domain");
        assertThat(ScopeDecision.IN_SCOPE.inScope()).isTrue();
        assertThat(ScopeDecision.TOO_DEEP.inScope()).isFalse();
    }
}
