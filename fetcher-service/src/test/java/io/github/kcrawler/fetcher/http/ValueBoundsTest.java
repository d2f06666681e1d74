package io.github.kcrawler.fetcher.http;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link ValueBounds} in isolation: each field's action, the UTF-8 byte count, and cuts that never split a char. */
class ValueBoundsTest {
    private final List<String> events = new ArrayList<>();
    private final ValueBounds bounds = new ValueBounds(new ValueBounds.Limits(8, 8, 16, 4, 64, 4096, 32),
            (f, a, r) -> events.add(f.tag() + "/" + a.tag() + "/" + r.tag()));

    @Test
    void eachFieldHasItsAction() {
        String shortEtag = "\"abc\"";
        assertThat(bounds.etag(shortEtag)).isSameAs(shortEtag);
        assertThat(bounds.etag("\"abcdefgh\"")).isNull();
        assertThat(bounds.etag("\"\u00e9\"")).isNull();
        assertThat(bounds.lastModified("a\u0001b")).isNull();
        assertThat(bounds.lastModified("a\tb c")).isEqualTo("a\tb c");
        assertThat(bounds.retryAfter("12345")).isNull();
        assertThat(bounds.contentType("text/html; charset=utf-8")).isEqualTo("text/html; chars");
        assertThat(bounds.redirectTarget("http://a.example/" + "x".repeat(20))).isNull();
        assertThat(bounds.redirectTarget("http://a.example/")).isEqualTo("http://a.example/");
        assertThat(events).containsExactly("etag/dropped/too_long", "etag/dropped/invalid",
                "last_modified/dropped/invalid", "retry_after/dropped/too_long", "content_type/truncated/too_long",
                "redirect_target/dropped/too_long");
    }

    @Test
    void linkListBudgetCountsBytes() {
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            urls.add("http://a.example/" + i);
        }
        long used = 0;
        int fit = 0;
        while (fit < urls.size() && bounds.linkFits(used, ValueBounds.linkBytes(urls.get(fit)))) {
            used += ValueBounds.linkBytes(urls.get(fit++));
        }
        assertThat(fit).isLessThan(100).isGreaterThan(0);
        assertThat(used).isLessThanOrEqualTo(4096);
        assertThat(used + urls.get(fit).length() + ValueBounds.LINK_OVERHEAD_BYTES).isGreaterThan(4096);
        assertThat(ValueBounds.linkBytes("http://\u00e9/")).isEqualTo(10 + ValueBounds.LINK_OVERHEAD_BYTES);
        assertThat(events).isEmpty();
        bounds.linkListTruncated();
        assertThat(events).containsExactly("link_list/truncated/too_long");
    }

    @Test
    void limitsOutsideTheirRangeAreNamed() {
        assertThatThrownBy(() -> new ValueBounds.Limits(5000, 64, 256, 64, 1024, 1 << 19, 2048))
                .hasMessageContaining("max-etag-bytes");
        assertThatThrownBy(() -> new ValueBounds.Limits(256, 64, 8, 64, 1024, 1 << 19, 2048))
                .hasMessageContaining("max-content-type-bytes");
    }

    /** Property: a cut is the longest prefix within the budget, whole code points only. Seeded; the seed prints. */
    @Test
    void cutsAreTheLongestWholeCharacterPrefixWithinTheBudget() {
        long seed = Long.getLong("kcrawler.seed", System.nanoTime());
        System.out.println("ValueBoundsTest seed " + seed + " (rerun with -Dkcrawler.seed=" + seed + ")");
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] pool = {'a', 0x7f, 0xe9, 0x800, 0xffff, 0x1f600, 0xd800}; // 0xd800: a lone surrogate
        for (int t = 0; t < 10_000; t++) {
            StringBuilder sb = new StringBuilder();
            int n = rnd.nextInt(0, 30);
            for (int i = 0; i < n; i++) {
                sb.appendCodePoint(pool[rnd.nextInt(pool.length)]);
            }
            String s = sb.toString();
            int max = rnd.nextInt(0, 100);
            String cut = ValueBounds.cutToUtf8(s, max);
            String where = "seed " + seed + " try " + t;
            assertThat(s).as(where).startsWith(cut);
            assertThat(ValueBounds.utf8Length(cut)).as(where).isLessThanOrEqualTo(max);
            if (s.indexOf('\ud800') < 0) {
                // the JDK encodes a lone surrogate as '?' (1 byte); we count the 3-byte replacement character
                assertThat(ValueBounds.utf8Length(s)).as(where)
                        .isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
            }
            if (cut.length() < s.length()) {
                int next = s.codePointAt(cut.length());
                assertThat(Character.isLowSurrogate(s.charAt(cut.length()))).as(where).isFalse();
                String longer = s.substring(0, cut.length() + Character.charCount(next));
                assertThat(ValueBounds.utf8Length(longer)).as(where).isGreaterThan(max);
            }
        }
    }
}
