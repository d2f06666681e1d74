package io.github.kcrawler.app.archfixture;

import io.github.kcrawler.websim.WebSimConfig;

/** Breaks LayeringTest's first rule on purpose: a product class that uses websim. */
public final class ProductUsesWebsim {
    public static WebSimConfig.Builder web() {
        return WebSimConfig.builder();
    }
}
