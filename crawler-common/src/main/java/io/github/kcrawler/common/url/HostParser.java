package io.github.kcrawler.common.url;

import java.net.IDN;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The WHATWG host parser for special schemes, which every outlink's host goes through: a host decides the Kafka key
 * (its IP), politeness and scope, so two spellings of one host ({@code EXAMPLE.com}, {@code ex%61mple.com},
 * {@code 0x7f.1}, {@code [0:0::1]}) must come out as one string, and anything a resolver might read differently from
 * us must be refused rather than guessed.
 *
 * <p>Steps (URL Standard, "host parsing"): bracketed input is an IPv6 address, serialised in its compressed
 * lower-case form; otherwise the input is percent-decoded as UTF-8, mapped to ASCII (IDNA via {@link IDN}, with
 * unassigned code points allowed), checked for forbidden code points, and if its last label is a number it must be
 * a valid IPv4 address in any of the legacy forms (decimal, {@code 0x} hex, {@code 0}-prefixed octal, 1 to 4 parts),
 * serialised as a dotted quad. Returns null on failure; never throws.
 *
 * <p>Known divergence: {@link IDN} implements IDNA 2003 (Unicode 3.2 Nameprep) while the standard uses UTS #46
 * non-transitional processing, so a few non-ASCII labels map differently ({@code ß}, {@code ς}, joiners) and
 * non-ASCII labels longer than 63 octets are refused. ASCII labels in ACE form ({@code xn--...}) are passed through
 * without decoding, as the vendored test suite expects; a label that is not valid Punycode simply fails DNS later.
 */
final class HostParser {
    private HostParser() {
    }

    /** Parses {@code in[from, to)}; returns the serialised host or null. {@code from < to} is the caller's duty. */
    static String parse(String in, int from, int to) {
        if (in.charAt(from) == '[') {
            if (to - from < 2 || in.charAt(to - 1) != ']') {
                return null;
            }
            return Ipv6.parse(in, from + 1, to - 1);
        }
        boolean ascii = true;
        boolean percent = false;
        boolean upper = false;
        for (int i = from; i < to; i++) {
            char c = in.charAt(i);
            if (c >= 0x80) {
                ascii = false;
            } else if (c == '%') {
                percent = true;
            } else if (c >= 'A' && c <= 'Z') {
                upper = true;
            }
        }
        String domain;
        if (percent) {
            domain = percentDecodeUtf8(in, from, to);
            if (domain == null) {
                return null;
            }
            ascii = isAscii(domain);
            upper = true;
        } else {
            domain = in.substring(from, to);
        }
        String asciiDomain;
        if (ascii) {
            asciiDomain = upper ? lowerAscii(domain) : domain;
        } else {
            asciiDomain = toAscii(domain);
            if (asciiDomain == null) {
                return null;
            }
        }
        if (asciiDomain.isEmpty() || hasForbiddenDomainCodePoint(asciiDomain)) {
            return null;
        }
        if (Ipv4.endsInNumber(asciiDomain)) {
            return Ipv4.parse(asciiDomain);
        }
        return asciiDomain;
    }

    private static String toAscii(String domain) {
        try {
            String a = IDN.toASCII(domain, IDN.ALLOW_UNASSIGNED);
            return isAscii(a) ? lowerAscii(a) : null;
        } catch (RuntimeException e) {
            return null; // IllegalArgumentException for labels Nameprep/Punycode refuse
        }
    }

    private static boolean hasForbiddenDomainCodePoint(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x20 || c == 0x7F) {
                return true;
            }
            switch (c) {
                case '#', '%', '/', ':', '<', '>', '?', '@', '[', '\\', ']', '^', '|':
                    return true;
                default:
                    break;
            }
        }
        return false;
    }

    /** Percent-decodes to bytes, then UTF-8 without BOM; malformed sequences become U+FFFD (as the standard does). */
    static String percentDecodeUtf8(String in, int from, int to) {
        byte[] bytes = new byte[(to - from) * 3];
        int len = 0;
        for (int i = from; i < to; i++) {
            char c = in.charAt(i);
            if (c == '%' && i + 2 < to && PercentCodec.hex(in.charAt(i + 1)) >= 0
                    && PercentCodec.hex(in.charAt(i + 2)) >= 0) {
                bytes[len++] = (byte) (PercentCodec.hex(in.charAt(i + 1)) * 16 + PercentCodec.hex(in.charAt(i + 2)));
                i += 2;
            } else if (c < 0x80) {
                bytes[len++] = (byte) c;
            } else {
                len = PercentCodec.utf8(in, i, to, bytes, len);
                if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(in.charAt(i + 1))) {
                    i++;
                }
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .decode(ByteBuffer.wrap(bytes, 0, len)).toString();
        } catch (CharacterCodingException e) {
            return null; // cannot happen with REPLACE
        }
    }

    static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    static String lowerAscii(String s) {
        char[] out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                if (out == null) {
                    out = s.toCharArray();
                }
                out[i] = (char) (c + 32);
            }
        }
        return out == null ? s : new String(out);
    }
}
