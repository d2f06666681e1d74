package io.github.kcrawler.common.url;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * TEMPORARY skeleton: being replaced by a full WHATWG-style normaliser. API is stable.
 */
public final class UrlNormalizer {
    private UrlNormalizer() {
    }

    /** Resolves {@code href} against {@code base} (may be null for absolute input) and normalises; empty if unusable. */
    public static Optional<String> normalize(String base, String href) {
        try {
            URI u = base == null ? new URI(href.trim()) : new URI(base).resolve(href.trim());
            return normalize(u.toString());
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    /** Normalises an absolute http(s) URL; empty if unusable. */
    public static Optional<String> normalize(String absolute) {
        try {
            URI u = new URI(absolute.trim()).normalize();
            if (u.getScheme() == null || u.getHost() == null) {
                return Optional.empty();
            }
            String scheme = u.getScheme().toLowerCase(Locale.ROOT);
            return Optional.of(new URI(scheme, null, u.getHost().toLowerCase(Locale.ROOT), u.getPort(),
                    u.getPath() == null || u.getPath().isEmpty() ? "/" : u.getPath(), u.getQuery(), null).toString());
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    /** Lower-cased host of a normalised URL, or null. */
    public static String host(String normalizedUrl) {
        try {
            return new URI(normalizedUrl).getHost();
        } catch (Exception e) {
            return null;
        }
    }
}
