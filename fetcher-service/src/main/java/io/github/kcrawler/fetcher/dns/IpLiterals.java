package io.github.kcrawler.fetcher.dns;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Recognises IP literals in URL hosts and record keys without ever touching DNS. {@link InetAddress#getByName}
 * falls back to a blocking lookup for anything it does not recognise as a literal, so inputs are checked
 * syntactically first and IPv6 is always passed in brackets (which makes the JDK refuse instead of resolve).
 */
public final class IpLiterals {
    private IpLiterals() {
    }

    /** The address if {@code host} is a dotted-quad IPv4 or an (optionally bracketed) IPv6 literal, else null. */
    public static InetAddress parse(String host) {
        if (host == null || host.isEmpty()) {
            return null;
        }
        byte[] v4 = parseIpv4(host);
        if (v4 != null) {
            try {
                return InetAddress.getByAddress(v4);
            } catch (UnknownHostException e) {
                return null; // cannot happen for 4 bytes
            }
        }
        String h = host;
        if (h.charAt(0) == '[') {
            if (h.length() < 3 || h.charAt(h.length() - 1) != ']') {
                return null;
            }
            h = h.substring(1, h.length() - 1);
        }
        if (h.indexOf(':') < 0 || !ipv6Chars(h)) {
            return null;
        }
        try {
            return InetAddress.getByName("[" + h + "]");
        } catch (UnknownHostException | IllegalArgumentException e) {
            return null;
        }
    }

    /** True when {@code host} is an IP literal. */
    public static boolean isLiteral(String host) {
        return parse(host) != null;
    }

    private static boolean ipv6Chars(String h) {
        for (int i = 0; i < h.length(); i++) {
            char c = h.charAt(i);
            boolean ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':'
                    || c == '.';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static byte[] parseIpv4(String s) {
        byte[] out = new byte[4];
        int part = 0;
        int value = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                value = value < 0 ? c - '0' : value * 10 + (c - '0');
                if (value > 255) {
                    return null;
                }
            } else if (c == '.') {
                if (value < 0 || part == 3) {
                    return null;
                }
                out[part++] = (byte) value;
                value = -1;
            } else {
                return null;
            }
        }
        if (value < 0 || part != 3) {
            return null;
        }
        out[3] = (byte) value;
        return out;
    }
}
