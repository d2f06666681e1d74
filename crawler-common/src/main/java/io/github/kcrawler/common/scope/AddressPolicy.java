package io.github.kcrawler.common.scope;

import io.github.kcrawler.common.config.Setting;
import io.github.kcrawler.common.config.SettingSet;
import io.github.kcrawler.common.config.Settings;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Which addresses the crawler may connect to. Links are written by strangers: without this check a page could
 * point the crawler at {@code http://127.0.0.1:8080/admin}, a router at {@code 192.168.0.1} or a cloud metadata
 * service at {@code 169.254.169.254} (server-side request forgery). It is applied to the resolved address, after
 * DNS, so a public name resolving to a private address is caught too.
 *
 * <p>Refused by class: loopback, private (RFC 1918, fc00::/7, fec0::/10), link-local, multicast, the unspecified
 * address, carrier-grade NAT space and reserved IPv4 space. IPv6 addresses that carry an IPv4 address (mapped
 * {@code ::ffff:0:0/96}, compatible {@code ::/96}, NAT64 {@code 64:ff9b::/96}, 6to4 {@code 2002::/16}) are judged by
 * that IPv4 address. An address inside an {@code allow-addresses} range is always allowed: the demo and tests crawl
 * a simulated web on {@code 127.0.0.0/8}, an intranet crawl lists its own ranges.
 */
public record AddressPolicy(List<Cidr> allow) {
    public static final Setting<List<String>> ALLOW_ADDRESSES = Setting.list("allow-addresses",
            "CIDR ranges (or addresses) allowed although private, loopback or link-local");
    /** The settings {@link #from(Settings)} reads. */
    public static final SettingSet SETTINGS = SettingSet.of(ALLOW_ADDRESSES);
    /** The keys {@link #from(Settings)} reads. */
    public static final Set<String> KEYS = SETTINGS.keys();

    public AddressPolicy {
        allow = List.copyOf(allow == null ? List.of() : allow);
    }

    /** Nothing allow-listed: public unicast addresses only. */
    public static AddressPolicy strict() {
        return new AddressPolicy(List.of());
    }

    /** @param ranges CIDR ranges or single addresses, e.g. {@code "127.0.0.0/8"} */
    public static AddressPolicy allowing(String... ranges) {
        return allowing(List.of(ranges));
    }

    public static AddressPolicy allowing(List<String> ranges) {
        List<Cidr> out = new ArrayList<>();
        for (String r : ranges) {
            try {
                out.add(Cidr.parse(r));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("allow-addresses: " + e.getMessage(), e);
            }
        }
        return new AddressPolicy(out);
    }

    /** {@code allow-addresses}: comma-separated CIDR ranges, default none. */
    public static AddressPolicy from(Settings s) {
        return allowing(s.get(ALLOW_ADDRESSES));
    }

    /** Whether the crawler may connect to {@code address}; null is a caller bug. */
    public AddressDecision check(InetAddress address) {
        Objects.requireNonNull(address, "address");
        byte[] b = address.getAddress();
        byte[] v4 = b.length == 16 ? embeddedIpv4(b) : null;
        for (int i = 0; i < allow.size(); i++) {
            Cidr c = allow.get(i);
            if (c.contains(b) || (v4 != null && c.contains(v4))) {
                return AddressDecision.ALLOW_LISTED;
            }
        }
        return classify(address);
    }

    /** The class of an address, ignoring any allow list. */
    public static AddressDecision classify(InetAddress address) {
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address || b.length == 4) {
            return classifyV4(b);
        }
        if (isZero(b, 0, 16)) {
            return AddressDecision.ANY_LOCAL;
        }
        if (isZero(b, 0, 15) && b[15] == 1) {
            return AddressDecision.LOOPBACK;
        }
        byte[] v4 = embeddedIpv4(b);
        if (v4 != null) {
            AddressDecision d = classifyV4(v4);
            if (d != AddressDecision.ALLOWED) {
                return d;
            }
        }
        int b0 = b[0] & 0xFF;
        int b1 = b[1] & 0xFF;
        if (b0 == 0xFF) {
            return AddressDecision.MULTICAST;
        }
        if (b0 == 0xFE && (b1 & 0xC0) == 0x80) {
            return AddressDecision.LINK_LOCAL;
        }
        if (b0 == 0xFE && (b1 & 0xC0) == 0xC0) {
            return AddressDecision.PRIVATE; // site-local, deprecated but still routed by some networks
        }
        if ((b0 & 0xFE) == 0xFC) {
            return AddressDecision.PRIVATE;
        }
        return AddressDecision.ALLOWED;
    }

    private static AddressDecision classifyV4(byte[] b) {
        int a0 = b[0] & 0xFF;
        int a1 = b[1] & 0xFF;
        if (isZero(b, 0, 4)) {
            return AddressDecision.ANY_LOCAL;
        }
        if (a0 == 0) {
            return AddressDecision.RESERVED;
        }
        if (a0 == 127) {
            return AddressDecision.LOOPBACK;
        }
        if (a0 == 10 || (a0 == 172 && (a1 & 0xF0) == 16) || (a0 == 192 && a1 == 168)) {
            return AddressDecision.PRIVATE;
        }
        if (a0 == 169 && a1 == 254) {
            return AddressDecision.LINK_LOCAL;
        }
        if (a0 == 100 && (a1 & 0xC0) == 64) {
            return AddressDecision.SHARED;
        }
        if (a0 >= 224 && a0 <= 239) {
            return AddressDecision.MULTICAST;
        }
        if (a0 >= 240) {
            return AddressDecision.RESERVED;
        }
        return AddressDecision.ALLOWED;
    }

    /** The IPv4 address inside a mapped, compatible, NAT64 or 6to4 IPv6 address, else null. */
    private static byte[] embeddedIpv4(byte[] b) {
        boolean mapped = isZero(b, 0, 10) && (b[10] & 0xFF) == 0xFF && (b[11] & 0xFF) == 0xFF;
        boolean compatible = isZero(b, 0, 12) && !(isZero(b, 12, 15) && (b[15] & 0xFE) == 0); // not :: or ::1
        boolean nat64 = b[0] == 0 && (b[1] & 0xFF) == 0x64 && (b[2] & 0xFF) == 0xFF && (b[3] & 0xFF) == 0x9B
                && isZero(b, 4, 12);
        if (mapped || compatible || nat64) {
            return new byte[]{b[12], b[13], b[14], b[15]};
        }
        if ((b[0] & 0xFF) == 0x20 && (b[1] & 0xFF) == 0x02) {
            return new byte[]{b[2], b[3], b[4], b[5]};
        }
        return null;
    }

    private static boolean isZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
