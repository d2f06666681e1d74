package io.github.kcrawler.fetcher.archfixture;

import org.jsoup.Jsoup;

/** Breaks LayeringTest's jsoup rule on purpose: jsoup outside fetcher.parse. */
public final class FetcherUsesJsoup {
    public static String title(String html) {
        return Jsoup.parse(html).title();
    }
}
