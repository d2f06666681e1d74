package io.github.kcrawler.common.scope;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * An address range in CIDR notation ({@code 127.0.0.0/8}, {@code fd00::/8}, or a single address), as operators
 * write them in {@code allow-addresses}. Parsing never touches DNS: only address literals are accepted. Host bits
 * below the prefix are ignored ({@code 127.0.0.1/8} is {@code 127.0.0.0/8}).
 */
public final class Cidr {
    private final byte[] network;
    private final int prefixLength;

    private Cidr(byte[] network, int prefixLength) {
        this.network = network;
        this.prefixLength = prefixLength;
        for (int bit = prefixLength; bit < network.length * 8; bit++) {
            network[bit >> 3] &= (byte) ~(0x80 >>> (bit & 7));
        }
    }

    /**
     * @param text {@code address/prefix} or a bare address (the whole address is the range)
     * @throws IllegalArgumentException naming the text when it is not a literal range
     */
    public static Cidr parse(String text) {
        String t = text == null ? "" : text.trim();
        int slash = t.indexOf('/');
        String addr = slash < 0 ? t : t.substring(0, slash);
        byte[] bytes = addr.indexOf(':') >= 0 ? ipv6(addr) : ipv4(addr);
        if (bytes == null) {
            throw new IllegalArgumentException("address range must be an IP address or CIDR range, was '" + text + "'");
        }
        int max = bytes.length * 8;
        int prefix = max;
        if (slash >= 0) {
            String p = t.substring(slash + 1);
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("address range prefix must be a number, was '" + text + "'");
            }
            prefix = Integer.parseInt(p);
            if (bytes.length == 4 && addr.indexOf(':') >= 0) {
                prefix -= 96; // ::ffff:a.b.c.d/n: the JDK hands back the embedded IPv4 address
            }
            if (prefix < 0 || prefix > max) {
                throw new IllegalArgumentException("address range prefix must be in 0.." + max + ", was '" + text
                        + "'");
            }
        }
        return new Cidr(bytes, prefix);
    }

    /** Whether {@code address} is in this range (IPv4 ranges match IPv4 addresses only, IPv6 likewise). */
    public boolean contains(InetAddress address) {
        return contains(address.getAddress());
    }

    boolean contains(byte[] a) {
        if (a.length != network.length) {
            return false;
        }
        int full = prefixLength >> 3;
        for (int i = 0; i < full; i++) {
            if (a[i] != network[i]) {
                return false;
            }
        }
        int rest = prefixLength & 7;
        if (rest == 0) {
            return true;
        }
        int mask = (0xFF00 >>> rest) & 0xFF;
        return (a[full] & mask) == (network[full] & mask);
    }

    public int prefixLength() {
        return prefixLength;
    }

    private static byte[] ipv4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return null;
            }
            int v = Integer.parseInt(p);
            if (v > 255) {
                return null;
            }
            out[i] = (byte) v;
        }
        return out;
    }

    private static byte[] ipv6(String s) {
        // The JDK reads a text as a literal only when it starts with a hex digit or ':' (then, as it holds a ':', an
        // invalid one is refused, not looked up); anything else it would look up as a host name.
        if (s.isEmpty() || !(Character.digit(s.charAt(0), 16) >= 0 || s.charAt(0) == ':')) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':'
                    || c == '.';
            if (!ok) {
                return null; // also keeps InetAddress from ever seeing a host name (no DNS lookup)
            }
        }
        try {
            InetAddress a = InetAddress.getByName(s);
            return a.getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Cidr c && c.prefixLength == prefixLength && Arrays.equals(c.network, network);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(network) + prefixLength;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefixLength;
        } catch (UnknownHostException e) {
            return Arrays.toString(network) + "/" + prefixLength;
        }
    }
}
