package io.github.kcrawler.common.url;

/**
 * WHATWG IPv4 host parsing. Browsers, curl and {@code inet_aton} all accept the legacy spellings
 * ({@code http://0x7f.1/}, {@code http://2130706433/}, {@code http://0177.0.0.1/}), so the crawler must read them
 * exactly as a resolver would, both to key the URL by the right address and so that a private address in disguise
 * is seen as one. Output is always the dotted quad; null means "not a valid IPv4 address" and, because the host
 * ended in a number, the whole URL is invalid.
 */
final class Ipv4 {
    private static final long INVALID = -1;
    /** Values past 2^32 are all equally invalid; capping keeps the arithmetic in a long. */
    private static final long TOO_BIG = 1L << 40;

    private Ipv4() {
    }

    /** The standard's "ends in a number" test on an ASCII domain. */
    static boolean endsInNumber(String host) {
        int end = host.length();
        if (end > 0 && host.charAt(end - 1) == '.') {
            end--;
            if (end == 0) {
                return false;
            }
        }
        int start = host.lastIndexOf('.', end - 1) + 1;
        if (start == end) {
            return false;
        }
        boolean digits = true;
        for (int i = start; i < end; i++) {
            char c = host.charAt(i);
            if (c < '0' || c > '9') {
                digits = false;
                break;
            }
        }
        return digits || number(host, start, end) != INVALID;
    }

    /** Parses a host that ends in a number; returns the dotted quad or null. */
    static String parse(String host) {
        int end = host.length();
        if (end > 1 && host.charAt(end - 1) == '.') {
            end--;
        }
        long[] numbers = new long[4];
        int count = 0;
        int start = 0;
        while (true) {
            int dot = host.indexOf('.', start);
            int partEnd = dot < 0 || dot >= end ? end : dot;
            if (count == 4) {
                return null;
            }
            long v = number(host, start, partEnd);
            if (v == INVALID) {
                return null;
            }
            numbers[count++] = v;
            if (partEnd == end) {
                break;
            }
            start = partEnd + 1;
        }
        for (int i = 0; i < count - 1; i++) {
            if (numbers[i] > 255) {
                return null;
            }
        }
        long last = numbers[count - 1];
        if (last >= 1L << (8 * (5 - count))) {
            return null;
        }
        long address = last;
        for (int i = 0; i < count - 1; i++) {
            address += numbers[i] << (8 * (3 - i));
        }
        return (address >>> 24) + "." + ((address >>> 16) & 0xFF) + "." + ((address >>> 8) & 0xFF) + "."
                + (address & 0xFF);
    }

    /** The standard's "IPv4 number parser": decimal, 0x-hex or 0-octal; empty after the prefix means 0. */
    private static long number(String s, int start, int end) {
        if (start >= end) {
            return INVALID;
        }
        int radix = 10;
        if (end - start >= 2 && s.charAt(start) == '0' && (s.charAt(start + 1) == 'x' || s.charAt(start + 1) == 'X')) {
            radix = 16;
            start += 2;
        } else if (end - start >= 2 && s.charAt(start) == '0') {
            radix = 8;
            start += 1;
        }
        long v = 0;
        for (int i = start; i < end; i++) {
            int d = Character.digit(s.charAt(i), radix);
            if (d < 0 || s.charAt(i) >= 0x80) {
                return INVALID;
            }
            v = Math.min(TOO_BIG, v * radix + d);
        }
        return v;
    }
}
