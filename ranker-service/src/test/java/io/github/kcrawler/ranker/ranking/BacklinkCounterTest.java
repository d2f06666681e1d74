package io.github.kcrawler.ranker.ranking;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.LinkList;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The back-link count rules: one count per distinct target per fetched page, none for links to itself. */
class BacklinkCounterTest {
    private final BacklinkCounter counter = new BacklinkCounter();

    private static LinkList.Link link(String url, String ip) {
        return new LinkList.Link(url, Fingerprints.url(url), ip);
    }

    @Test
    void eachDistinctTarget_getsOneLinkWeight_inDocumentOrder() {
        List<Contribution> out = counter.contributions(Fingerprints.url("http://s/"),
                List.of(link("http://b/", "10.0.0.2"), link("http://a/", "10.0.0.1")));
        assertThat(out).containsExactly(
                new Contribution("http://b/", Fingerprints.url("http://b/"), "10.0.0.2", 1.0),
                new Contribution("http://a/", Fingerprints.url("http://a/"), "10.0.0.1", 1.0));
    }

    @Test
    void repeatedLinksToOneTarget_countOnce() {
        List<Contribution> out = counter.contributions(Fingerprints.url("http://s/"),
                List.of(link("http://a/", "10.0.0.1"), link("http://b/", "10.0.0.2"), link("http://a/", "10.0.0.1")));
        assertThat(out).extracting(Contribution::url).containsExactly("http://a/", "http://b/");
    }

    @Test
    void linksToItself_doNotCount() {
        List<Contribution> out = counter.contributions(Fingerprints.url("http://s/"),
                List.of(link("http://s/", "10.0.0.9"), link("http://a/", "10.0.0.1")));
        assertThat(out).extracting(Contribution::url).containsExactly("http://a/");
    }

    @Test
    void noOutlinks_noContributions() {
        assertThat(counter.contributions(1L, List.of())).isEmpty();
    }

    @Test
    void accumulate_addsTheAmount() {
        assertThat(counter.accumulate(0.0, 1.0)).isEqualTo(1.0);
        assertThat(counter.accumulate(41.0, 1.0)).isEqualTo(42.0);
    }
}
