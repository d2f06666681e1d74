package io.github.kcrawler.websim;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gives every page of the simulated web a host, every host an IP address and a robots.txt — deterministically, so
 * that two runs with the same seed serve the same web and their results can be compared.
 *
 * <h2>Assignment</h2>
 * <ul>
 *   <li><b>Pages → hosts.</b> Hosts own runs of consecutive page ids: host 0 owns {@code [0, len0)}, host 1 the
 *   next {@code len1} ids, and so on. This mirrors real graphs such as cnr-2000 whose ids follow lexicographic URL
 *   order, so consecutive ids mostly share a host. Run length {@code i} is a discrete Pareto draw (alpha 1.5,
 *   minimum {@code meanPagesPerHost / 3}, capped at {@code 100 * meanPagesPerHost}) from
 *   {@code hash(seed, i)}; the mean is therefore roughly {@code meanPagesPerHost}, with a few very large hosts.
 *   The last run is cut at {@code numPages}.</li>
 *   <li><b>Host names.</b> Host {@code i} is {@code h<i>.websim.test} ({@code .test} is reserved by RFC 2606 and
 *   never resolves on the internet, so a misconfigured crawler cannot leak traffic).</li>
 *   <li><b>Hosts → IPs.</b> With {@code k = min(ips, numHosts)} addresses in use, hosts {@code 0 .. k-1} get
 *   addresses {@code 0 .. k-1} (every address serves at least one host) and every later host the address
 *   {@code hash(seed, host) mod k} — several hosts per address, as with virtual hosting. Address index {@code j} is
 *   {@code 127.1.(j / 254).(j % 254 + 1)}: inside loopback 127.0.0.0/8, away from 127.0.0.1, and never ending in
 *   .0 or .255.</li>
 *   <li><b>URLs.</b> Page p is {@code http://<host of p>:<port>/p/<p>} (decimal id; the {@code :port} part is left
 *   out for port 80, as a URL normaliser would).</li>
 *   <li><b>robots.txt.</b> A host whose {@code hash(seed, host)} falls below {@code robotsDisallowFraction} gets
 *   {@code Disallow: /p/<prefix>}, where the prefix is the decimal id of one of its pages shortened digit by digit
 *   while it still matches at most a third of the host's pages (robots rules are path prefixes, so a page is
 *   disallowed exactly when its decimal id starts with the prefix). A prefix that would match a protected page (a
 *   seed) is not used. Independently, hosts below {@code crawlDelayFraction} get
 *   {@code Crawl-delay: <crawlDelaySeconds>}. All other hosts allow everything.</li>
 * </ul>
 * Instances are immutable and thread-safe.
 */
public final class SiteLayout {

    public static final String DOMAIN_SUFFIX = ".websim.test";
    /** The largest number of simulated addresses: 127.1.0.1 .. 127.1.255.254. */
    public static final int MAX_IPS = 254 * 256;

    private static final long RUN = 1;
    private static final long IP = 2;
    private static final long DISALLOW = 3;
    private static final long DELAY = 4;

    private final long seed;
    private final int numPages;
    private final int[] hostStarts;
    private final int[] hostIp;
    private final String[] ipAddresses;
    private final String[] disallowPrefix;
    private final BitSet crawlDelayHosts;
    private final double crawlDelaySeconds;
    private final BitSet disallowedPages;

    private SiteLayout(long seed, int numPages, int[] hostStarts, int[] hostIp, String[] ipAddresses,
            String[] disallowPrefix, BitSet crawlDelayHosts, double crawlDelaySeconds, BitSet disallowedPages) {
        this.seed = seed;
        this.numPages = numPages;
        this.hostStarts = hostStarts;
        this.hostIp = hostIp;
        this.ipAddresses = ipAddresses;
        this.disallowPrefix = disallowPrefix;
        this.crawlDelayHosts = crawlDelayHosts;
        this.crawlDelaySeconds = crawlDelaySeconds;
        this.disallowedPages = disallowedPages;
    }

    /** The layout for {@code numPages} pages under {@code config}, with no protected pages. */
    public static SiteLayout build(int numPages, WebSimConfig config) {
        return build(numPages, config, new int[0]);
    }

    /**
     * The layout for {@code numPages} pages under {@code config}; no robots.txt rule disallows any page in
     * {@code protectedPages} (the seeds, so that a crawl can always start).
     */
    public static SiteLayout build(int numPages, WebSimConfig config, int[] protectedPages) {
        if (numPages < 1) {
            throw new IllegalArgumentException("numPages must be >= 1, was " + numPages);
        }
        long seed = config.seed();
        int[] starts = hostRuns(numPages, seed, config.meanPagesPerHost());
        int hosts = starts.length - 1;
        int k = Math.min(config.ips(), hosts);
        String[] ips = new String[k];
        for (int j = 0; j < k; j++) {
            ips[j] = "127.1." + (j / 254) + "." + (j % 254 + 1);
        }
        int[] hostIp = new int[hosts];
        for (int h = 0; h < hosts; h++) {
            hostIp[h] = h < k ? h : Mix.below(Mix.hash(seed, h, IP), k);
        }
        BitSet protect = new BitSet(numPages);
        for (int p : protectedPages) {
            if (p < 0 || p >= numPages) {
                throw new IllegalArgumentException("protected page " + p + " is outside [0, " + numPages + ")");
            }
            protect.set(p);
        }
        String[] prefixes = new String[hosts];
        BitSet disallowed = new BitSet(numPages);
        BitSet delayed = new BitSet(hosts);
        for (int h = 0; h < hosts; h++) {
            if (Mix.unit(Mix.hash(seed, h, DISALLOW)) < config.robotsDisallowFraction()) {
                prefixes[h] = choosePrefix(seed, h, starts[h], starts[h + 1], protect);
                if (prefixes[h] != null) {
                    for (int p = starts[h]; p < starts[h + 1]; p++) {
                        if (Integer.toString(p).startsWith(prefixes[h])) {
                            disallowed.set(p);
                        }
                    }
                }
            }
            if (Mix.unit(Mix.hash(seed, h, DELAY)) < config.crawlDelayFraction()) {
                delayed.set(h);
            }
        }
        return new SiteLayout(seed, numPages, starts, hostIp, ips, prefixes, delayed, config.crawlDelaySeconds(),
                disallowed);
    }

    private static int[] hostRuns(int numPages, long seed, double meanPagesPerHost) {
        double xmin = Math.max(1.0, meanPagesPerHost / 3.0);
        int cap = (int) Math.max(1, Math.min(numPages, Math.round(meanPagesPerHost * 100)));
        int[] starts = new int[Math.max(16, (int) Math.min(numPages + 1L, numPages / meanPagesPerHost * 2 + 16))];
        int hosts = 0;
        int pos = 0;
        while (pos < numPages) {
            int len = Math.max(1, Mix.pareto(Mix.unit(Mix.hash(seed, hosts, RUN)), xmin, 1.5, cap));
            if (hosts + 2 > starts.length) {
                starts = Arrays.copyOf(starts, starts.length * 2);
            }
            starts[hosts++] = pos;
            pos = (int) Math.min(numPages, (long) pos + len);
        }
        starts[hosts] = numPages;
        return Arrays.copyOf(starts, hosts + 1);
    }

    private static String choosePrefix(long seed, int host, int start, int end, BitSet protect) {
        int len = end - start;
        int maxMatches = Math.max(1, len / 3);
        for (int attempt = 0; attempt < 4; attempt++) {
            String prefix = Integer.toString(start + Mix.below(Mix.hash(seed, host, DISALLOW, attempt), len));
            while (prefix.length() > 1) {
                String shorter = prefix.substring(0, prefix.length() - 1);
                if (countMatches(shorter, start, end, null) > maxMatches) {
                    break;
                }
                prefix = shorter;
            }
            if (countMatches(prefix, start, end, protect) == 0) {
                return prefix;
            }
        }
        return null;
    }

    /** Pages in [start, end) whose decimal id starts with {@code prefix} (only those in {@code among} if given). */
    private static int countMatches(String prefix, int start, int end, BitSet among) {
        int count = 0;
        for (int p = start; p < end; p++) {
            if ((among == null || among.get(p)) && Integer.toString(p).startsWith(prefix)) {
                count++;
            }
        }
        return count;
    }

    public long seed() {
        return seed;
    }

    public int numPages() {
        return numPages;
    }

    public int numHosts() {
        return hostStarts.length - 1;
    }

    /** Number of simulated IP addresses in use ({@code min(config.ips(), numHosts())}). */
    public int numIps() {
        return ipAddresses.length;
    }

    /** The host that owns {@code page}. */
    public int hostOf(int page) {
        checkPage(page);
        int i = Arrays.binarySearch(hostStarts, page);
        return i >= 0 ? i : -i - 2;
    }

    /** First page id of {@code host}. */
    public int hostStart(int host) {
        return hostStarts[host];
    }

    /** One past the last page id of {@code host}. */
    public int hostEnd(int host) {
        return hostStarts[host + 1];
    }

    public String hostName(int host) {
        if (host < 0 || host >= numHosts()) {
            throw new IllegalArgumentException("host " + host + " is outside [0, " + numHosts() + ")");
        }
        return "h" + host + DOMAIN_SUFFIX;
    }

    /**
     * The index of the host called {@code name} (case-insensitive, optionally with a {@code :port} suffix), or -1
     * if no simulated host has that name.
     */
    public int hostIndex(CharSequence name) {
        if (name == null) {
            return -1;
        }
        String s = name.toString();
        int colon = s.lastIndexOf(':');
        int end = colon >= 0 ? colon : s.length();
        int digitsEnd = end - DOMAIN_SUFFIX.length();
        if (digitsEnd < 2 || (s.charAt(0) != 'h' && s.charAt(0) != 'H')
                || !s.regionMatches(true, digitsEnd, DOMAIN_SUFFIX, 0, DOMAIN_SUFFIX.length())
                || digitsEnd - 1 > 9 || (s.charAt(1) == '0' && digitsEnd > 2)) {
            return -1;
        }
        int host = 0;
        for (int i = 1; i < digitsEnd; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            host = host * 10 + (c - '0');
        }
        return host < numHosts() ? host : -1;
    }

    /** Index (into {@link #ipAddresses()}) of the address serving {@code host}. */
    public int ipIndexOfHost(int host) {
        return hostIp[host];
    }

    public String ipOfHost(int host) {
        return ipAddresses[hostIp[host]];
    }

    /** Index of the address serving {@code page}. */
    public int ipIndexOfPage(int page) {
        return hostIp[hostOf(page)];
    }

    public String ipAddress(int ipIndex) {
        return ipAddresses[ipIndex];
    }

    /** All simulated addresses in use, by index. */
    public List<String> ipAddresses() {
        return List.of(ipAddresses);
    }

    /** Host name → IP address, in host order. */
    public Map<String, String> hostToIp() {
        Map<String, String> map = new LinkedHashMap<>(numHosts() * 2);
        for (int h = 0; h < numHosts(); h++) {
            map.put(hostName(h), ipAddresses[hostIp[h]]);
        }
        return Collections.unmodifiableMap(map);
    }

    /** The hosts served by each address, by address index. */
    public List<List<Integer>> hostsByIp() {
        List<List<Integer>> byIp = new ArrayList<>(numIps());
        for (int j = 0; j < numIps(); j++) {
            byIp.add(new ArrayList<>());
        }
        for (int h = 0; h < numHosts(); h++) {
            byIp.get(hostIp[h]).add(h);
        }
        return byIp.stream().map(List::copyOf).toList();
    }

    /** Writes the {@code /etc/hosts}-format file ({@code IP hostname} per line), replacing it atomically. */
    public void writeHostsFile(Path file) throws IOException {
        writeHostsFile(file, Map.of());
    }

    /** As {@link #writeHostsFile(Path)}, followed by {@code extraHosts} (host name → IP, e.g. the hostile hosts). */
    public void writeHostsFile(Path file, Map<String, String> extraHosts) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        StringBuilder sb = new StringBuilder(numHosts() * 32);
        sb.append("# websim hosts file: seed ").append(seed).append(", ").append(numHosts()).append(" hosts on ")
                .append(numIps()).append(" loopback addresses\n");
        for (int h = 0; h < numHosts(); h++) {
            sb.append(ipAddresses[hostIp[h]]).append(' ').append(hostName(h)).append('\n');
        }
        for (Map.Entry<String, String> e : extraHosts.entrySet()) {
            sb.append(e.getValue()).append(' ').append(e.getKey()).append('\n');
        }
        Path tmp = Files.createTempFile(dir, ".hosts", ".tmp");
        try {
            Files.writeString(tmp, sb, StandardCharsets.US_ASCII);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** {@code host:port}, or just {@code host} for port 80. */
    public String authority(int host, int port) {
        return port == 80 ? hostName(host) : hostName(host) + ":" + port;
    }

    /** The canonical URL of {@code page} when served on {@code port}. */
    public String pageUrl(int page, int port) {
        return "http://" + authority(hostOf(page), port) + "/p/" + page;
    }

    /** The robots.txt disallow path prefix of {@code host} (e.g. {@code /p/12}), or null if it allows all. */
    public String disallowPath(int host) {
        return disallowPrefix[host] == null ? null : "/p/" + disallowPrefix[host];
    }

    /** Crawl-delay of {@code host} in seconds, 0 when its robots.txt has none. */
    public double crawlDelaySeconds(int host) {
        return crawlDelayHosts.get(host) ? crawlDelaySeconds : 0.0;
    }

    /** Whether the robots.txt of the page's host disallows it. */
    public boolean isDisallowed(int page) {
        checkPage(page);
        return disallowedPages.get(page);
    }

    /** A copy of the set of disallowed pages. */
    public BitSet disallowedPages() {
        return (BitSet) disallowedPages.clone();
    }

    /** The robots.txt served by {@code host}. */
    public String robotsTxt(int host) {
        StringBuilder sb = new StringBuilder(128);
        sb.append("# robots.txt of ").append(hostName(host)).append(" (websim)\n");
        sb.append("User-agent: *\n");
        String path = disallowPath(host);
        sb.append("Disallow:").append(path == null ? "" : " " + path).append('\n');
        double delay = crawlDelaySeconds(host);
        if (delay > 0) {
            String text = delay == Math.rint(delay) ? Long.toString((long) delay) : Double.toString(delay);
            sb.append("Crawl-delay: ").append(text).append('\n');
        }
        return sb.toString();
    }

    private void checkPage(int page) {
        if (page < 0 || page >= numPages) {
            throw new IllegalArgumentException("page " + page + " is outside [0, " + numPages + ")");
        }
    }
}
