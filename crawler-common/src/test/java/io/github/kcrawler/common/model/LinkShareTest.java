package io.github.kcrawler.common.model;

import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.serde.LenientJsonDeserializer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The link share's arithmetic, what counts as usable, and the fields that carry it through the topics. */
class LinkShareTest {
    @Test
    void aFetchAddsOneAndSplitsOverTheDistinctOutlinks() {
        assertThat(LinkShare.of(0.0, 4)).isEqualTo(0.25);
        assertThat(LinkShare.of(2.5, 7)).isEqualTo(3.5 / 7);
        assertThat(LinkShare.of(1e-300, 1)).isEqualTo(1.0);
        assertThatThrownBy(() -> LinkShare.of(1.0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void usable_meansNoneOrAFiniteAmountNotBelowZero() {
        assertThat(LinkShare.usable(null)).isTrue();
        assertThat(LinkShare.usable(0.0)).isTrue();
        assertThat(LinkShare.usable(3.0)).isTrue();
        assertThat(LinkShare.usable(-0.0)).isTrue();
        assertThat(LinkShare.usable(-1e-9)).isFalse();
        assertThat(LinkShare.usable(Double.NaN)).isFalse();
        assertThat(LinkShare.usable(Double.POSITIVE_INFINITY)).isFalse();
    }

    @Test
    void ofFetch_isKnownOnlyForAScoredFirstFetchWithLinks() {
        assertThat(LinkShare.ofFetch(FetchRequest.fresh("http://a.test/", 1, 0, 7, 0, 0.0), 4)).isEqualTo(0.25);
        assertThat(LinkShare.ofFetch(FetchRequest.fresh("http://a.test/", 1, 0, 7, 0, 3.0), 2)).isEqualTo(2.0);
        assertThat(LinkShare.ofFetch(FetchRequest.fresh("http://a.test/", 1, 0, 7, 0, 0.0), 0)).isNull();
        assertThat(LinkShare.ofFetch(FetchRequest.fresh("http://a.test/", 1, 0, 7, 0, -2.0), 4)).isNull();
        assertThat(LinkShare.ofFetch(FetchRequest.fresh("http://a.test/", 1, 0, 7, 0), 4)).isNull();
        assertThat(LinkShare.ofFetch(FetchRequest.revisit("http://a.test/", 1, 0, 7, 0, null, null, null), 4))
                .isNull();
    }

    /** The request's score and the result's share are written only when set; records without them still read. */
    @Test
    void requestScoreAndResultShare_areWrittenOnlyWhenSet_andRoundTrip() {
        JsonSerde<FetchRequest> requests = JsonSerde.of(FetchRequest.class);
        FetchRequest scored = FetchRequest.fresh("http://a.test/", 7L, 1, 3, 9, 0.5);
        String json = new String(requests.serialize("t", scored), StandardCharsets.UTF_8);
        assertThat(json).endsWith(",\"score\":0.5}");
        assertThat(new LenientJsonDeserializer<>(FetchRequest.class).deserialize("t",
                json.getBytes(StandardCharsets.UTF_8)).value()).isEqualTo(scored);
        FetchRequest plain = FetchRequest.fresh("http://a.test/", 7L, 1, 3, 9);
        assertThat(new String(requests.serialize("t", plain), StandardCharsets.UTF_8)).doesNotContain("score");
        assertThat(plain.score()).isNull();

        JsonSerde<FetchResult> results = JsonSerde.of(FetchResult.class);
        FetchResult page = new FetchResult(FetchResult.VERSION, "http://a.test/", 7L, 1, 3, FetchKind.NEW, 200,
                FetchOutcome.OK, 5L, 0L, 1L, null, 10L, "text/html", null, null, null, 1, null, null);
        FetchResult shared = page.withLinks(List.of(new LinkList.Link("http://b.test/", 8L, "10.0.0.2")), 4, 1.5);
        json = new String(results.serialize("t", shared), StandardCharsets.UTF_8);
        assertThat(json).contains("\"linkShare\":1.5");
        assertThat(new LenientJsonDeserializer<>(FetchResult.class).deserialize("t",
                json.getBytes(StandardCharsets.UTF_8)).value()).isEqualTo(shared);
        assertThat(new String(results.serialize("t", page.withLinks(shared.links(), 4)), StandardCharsets.UTF_8))
                .doesNotContain("linkShare");
    }
}
