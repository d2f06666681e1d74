package io.github.kcrawler.common.scope;

import java.util.Locale;

/**
 * Whether the crawler may connect to an address, and why not. One reason per refusal so the fetcher can count them
 * (tag values from {@link #tag()}) and an operator can tell a misconfigured allow list from a hostile link.
 * Append new values at the end only.
 */
public enum AddressDecision {
    /** A public unicast address. */
    ALLOWED,
    /** Refused by class, but inside an {@code allow-addresses} range. */
    ALLOW_LISTED,
    /** 127.0.0.0/8, ::1. */
    LOOPBACK,
    /** 10/8, 172.16/12, 192.168/16, fc00::/7 (and the deprecated site-local fec0::/10). */
    PRIVATE,
    /** 169.254/16, fe80::/10. */
    LINK_LOCAL,
    /** 224/4, ff00::/8. */
    MULTICAST,
    /** 0.0.0.0, :: (on Linux a connection to it reaches the local host). */
    ANY_LOCAL,
    /** 100.64/10, carrier-grade NAT shared space (RFC 6598). */
    SHARED,
    /** 0/8 "this network" and 240/4 (including 255.255.255.255). */
    RESERVED;

    private final String tag = name().toLowerCase(Locale.ROOT).replace('_', '-');

    public boolean permitted() {
        return this == ALLOWED || this == ALLOW_LISTED;
    }

    /** Metric tag value, e.g. {@code link-local}. */
    public String tag() {
        return tag;
    }
}
