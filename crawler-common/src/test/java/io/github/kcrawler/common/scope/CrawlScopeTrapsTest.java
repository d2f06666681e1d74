package io.github.kcrawler.common.scope;

import io.github.kcrawler.common.config.Settings;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 9: URL shapes of crawler traps are refused by the scope, before a link is ever discovered. */
class CrawlScopeTrapsTest {
    private final CrawlScope scope = CrawlScope.defaults();

    @Test
    void repeatedPathSegmentsAreATrap() {
        assertThat(scope.check("http://a.test/cal/a/b/a/b/a/b/x", 1, null)).isEqualTo(ScopeDecision.IN_SCOPE);
        assertThat(scope.check("http://a.test/cal/a/b/a/b/a/b/a/x", 1, null))
                .isEqualTo(ScopeDecision.TRAP_REPEATED_SEGMENTS);
        assertThat(scope.check("http://a.test/x/x/x/x", 1, null)).isEqualTo(ScopeDecision.TRAP_REPEATED_SEGMENTS);
        // the query is not part of the path: repeated values there are not segments
        assertThat(scope.check("http://a.test/p?a=x/x/x/x/x", 1, null)).isEqualTo(ScopeDecision.IN_SCOPE);
        assertThat(scope.check("http://a.test/", 1, null)).isEqualTo(ScopeDecision.IN_SCOPE);
        assertThat(scope.check("http://a.test//////", 1, null)).isEqualTo(ScopeDecision.IN_SCOPE); // empty segments
    }

    @Test
    void queryParameterExplosionIsATrap() {
        StringBuilder q = new StringBuilder("http://a.test/s?p0=0");
        for (int i = 1; i < 32; i++) {
            q.append('&').append('p').append(i).append("=1");
        }
        assertThat(scope.check(q.toString(), 1, null)).isEqualTo(ScopeDecision.IN_SCOPE);
        assertThat(scope.check(q + "&one=more", 1, null)).isEqualTo(ScopeDecision.TRAP_QUERY_PARAMS);
        assertThat(scope.check(q + ";semi=colon", 1, null)).isEqualTo(ScopeDecision.TRAP_QUERY_PARAMS);
    }

    @Test
    void limitsAreConfigurableAndValidated() {
        CrawlScope s = CrawlScope.from(Settings.parse(CrawlScope.KEYS, Map.of(),
                new String[] {"--max-repeated-segments", "1", "--max-query-params", "2"}));
        assertThat(s.check("http://a.test/a/a", 1, null)).isEqualTo(ScopeDecision.TRAP_REPEATED_SEGMENTS);
        assertThat(s.check("http://a.test/a?x=1&y=2&z=3", 1, null)).isEqualTo(ScopeDecision.TRAP_QUERY_PARAMS);
        assertThatThrownBy(() -> new CrawlScope(5, 100, CrawlScope.Mode.ANY, List.of(), List.of(), 0, 5))
                .hasMessageContaining("max-repeated-segments must be >= 1, was 0");
        assertThatThrownBy(() -> new CrawlScope(5, 100, CrawlScope.Mode.ANY, List.of(), List.of(), 3, -1))
                .hasMessageContaining("max-query-params must be >= 0, was -1");
    }

    @Test
    void seedsAreCheckedToo() {
        assertThat(scope.checkSeed("http://a.test/x/x/x/x")).isEqualTo(ScopeDecision.TRAP_REPEATED_SEGMENTS);
    }
}
