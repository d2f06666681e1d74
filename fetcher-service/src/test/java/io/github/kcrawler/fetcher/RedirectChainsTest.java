package io.github.kcrawler.fetcher;

import org.junit.jupiter.api.Test;

import static io.github.kcrawler.fetcher.RedirectChains.Verdict.FOLLOW;
import static io.github.kcrawler.fetcher.RedirectChains.Verdict.LIMIT;
import static io.github.kcrawler.fetcher.RedirectChains.Verdict.LOOP;
import static org.assertj.core.api.Assertions.assertThat;

class RedirectChainsTest {
    @Test
    void followsUpToTheLimitThenRefuses() {
        RedirectChains c = new RedirectChains(2, 100);
        assertThat(c.redirect("http://a/1", "http://a/2")).isEqualTo(FOLLOW);
        assertThat(c.redirect("http://a/2", "http://a/3")).isEqualTo(FOLLOW);
        assertThat(c.redirect("http://a/3", "http://a/4")).isEqualTo(LIMIT);
    }

    @Test
    void zeroMeansNoRedirectIsFollowed() {
        assertThat(new RedirectChains(0, 10).redirect("http://a/1", "http://a/2")).isEqualTo(LIMIT);
    }

    @Test
    void loopsAreDetectedIncludingSelfRedirects() {
        RedirectChains c = new RedirectChains(10, 100);
        assertThat(c.redirect("http://a/x", "http://a/x")).isEqualTo(LOOP);
        assertThat(c.redirect("http://a/1", "http://b/2")).isEqualTo(FOLLOW);
        assertThat(c.redirect("http://b/2", "http://c/3")).isEqualTo(FOLLOW);
        assertThat(c.redirect("http://c/3", "http://a/1")).isEqualTo(LOOP);
    }

    @Test
    void aFetchWithoutRedirectEndsTheChainAndMemoryIsBounded() {
        RedirectChains c = new RedirectChains(1, 4);
        assertThat(c.redirect("http://a/1", "http://a/2")).isEqualTo(FOLLOW);
        c.ended("http://a/2");
        assertThat(c.size()).isZero();
        for (int i = 0; i < 50; i++) {
            c.redirect("http://h/" + i, "http://t/" + i);
        }
        assertThat(c.size()).isEqualTo(4);
    }
}
