package io.github.kcrawler.common.url;

/**
 * WHATWG IPv6 parsing and serialisation (RFC 5952 style: lower-case hex, no leading zeros, the first longest run of
 * two or more zero pieces compressed to {@code ::}), so that every spelling of one address is one host string.
 * Embedded IPv4 tails ({@code ::ffff:1.2.3.4}) are accepted and re-serialised in hex, as the standard does. Zone
 * identifiers ({@code %eth0}) are refused. Returns null on failure; never throws.
 */
final class Ipv6 {
    private Ipv6() {
    }

    /** Parses {@code s[from, to)} (the text between the brackets) and returns {@code "[...]"} or null. */
    static String parse(String s, int from, int to) {
        int[] address = new int[8];
        int piece = 0;
        int compress = -1;
        int p = from;
        if (p < to && s.charAt(p) == ':') {
            if (p + 1 >= to || s.charAt(p + 1) != ':') {
                return null;
            }
            p += 2;
            piece++;
            compress = piece;
        }
        while (p < to) {
            if (piece == 8) {
                return null;
            }
            char c = s.charAt(p);
            if (c == ':') {
                if (compress != -1) {
                    return null;
                }
                p++;
                piece++;
                compress = piece;
                continue;
            }
            int value = 0;
            int length = 0;
            while (length < 4 && p < to && PercentCodec.hex(s.charAt(p)) >= 0) {
                value = value * 16 + PercentCodec.hex(s.charAt(p));
                p++;
                length++;
            }
            if (p < to && s.charAt(p) == '.') {
                if (length == 0 || piece > 6) {
                    return null;
                }
                p -= length;
                return ipv4Tail(s, p, to, address, piece, compress);
            } else if (p < to && s.charAt(p) == ':') {
                p++;
                if (p >= to) {
                    return null;
                }
            } else if (p < to) {
                return null;
            }
            address[piece] = value;
            piece++;
        }
        return finish(address, piece, compress);
    }

    private static String ipv4Tail(String s, int p, int to, int[] address, int piece, int compress) {
        int numbersSeen = 0;
        while (p < to) {
            int v = -1;
            if (numbersSeen > 0) {
                if (s.charAt(p) == '.' && numbersSeen < 4) {
                    p++;
                } else {
                    return null;
                }
            }
            if (p >= to || !isDigit(s.charAt(p))) {
                return null;
            }
            while (p < to && isDigit(s.charAt(p))) {
                int d = s.charAt(p) - '0';
                if (v == -1) {
                    v = d;
                } else if (v == 0) {
                    return null;
                } else {
                    v = v * 10 + d;
                }
                if (v > 255) {
                    return null;
                }
                p++;
            }
            address[piece] = address[piece] * 0x100 + v;
            numbersSeen++;
            if (numbersSeen == 2 || numbersSeen == 4) {
                piece++;
            }
        }
        if (numbersSeen != 4) {
            return null;
        }
        return finish(address, piece, compress);
    }

    private static String finish(int[] address, int piece, int compress) {
        if (compress != -1) {
            int swaps = piece - compress;
            piece = 7;
            while (piece != 0 && swaps > 0) {
                int t = address[piece];
                address[piece] = address[compress + swaps - 1];
                address[compress + swaps - 1] = t;
                piece--;
                swaps--;
            }
        } else if (piece != 8) {
            return null;
        }
        return serialize(address);
    }

    private static String serialize(int[] a) {
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            if (a[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && a[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder(41).append('[');
        boolean ignore0 = false;
        for (int i = 0; i < 8; i++) {
            if (ignore0 && a[i] == 0) {
                continue;
            }
            ignore0 = false;
            if (i == bestStart) {
                sb.append(i == 0 ? "::" : ":");
                ignore0 = true;
                continue;
            }
            sb.append(Integer.toHexString(a[i]));
            if (i != 7) {
                sb.append(':');
            }
        }
        return sb.append(']').toString();
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
