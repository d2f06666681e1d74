package io.github.kcrawler.lab.measure;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How close the crawler came to the politeness bound on the servers that decide when a crawl ends (issue 19):
 * for each of the {@code top} busiest IPs (most requests; ties broken by address), efficiency =
 * {@code requests × T / (last − first request time)}, from the simulated web's own access times. Page and
 * robots.txt requests to the IP both count as requests. An IP served exactly once per T scores
 * {@code n / (n − 1)} (n requests span n − 1 intervals), so slightly above 1 for small n; an IP served every other
 * step of T + round trip scores well under 0.5. IPs with fewer than two requests, or all requests at one instant,
 * have no span and are skipped.
 *
 * <p>The median of an even number of IPs is the mean of the two middle efficiencies.
 *
 * @param min    the lowest efficiency among the busiest IPs (0 when none qualifies)
 * @param median their median efficiency (0 when none qualifies)
 * @param ips    the busiest IPs, busiest first
 */
public record PolitenessEfficiency(double min, double median, List<Ip> ips) {
    /** The number of busiest IPs of issue 19. */
    public static final int TOP = 10;

    /** One IP's figures. */
    public record Ip(String ip, long requests, double spanSeconds, double efficiency) {
    }

    /** One IP's accesses: how many, the first and the last arrival time in milliseconds. */
    public record Span(String ip, long requests, double firstMs, double lastMs) {
    }

    public PolitenessEfficiency {
        ips = List.copyOf(ips);
    }

    /**
     * @param spans        per-IP access counts and times (any order)
     * @param politenessMs T in milliseconds, > 0
     * @param top          how many of the busiest IPs to judge, > 0
     */
    public static PolitenessEfficiency of(List<Span> spans, long politenessMs, int top) {
        if (politenessMs <= 0 || top <= 0) {
            throw new IllegalArgumentException("T and top must be > 0, were " + politenessMs + ", " + top);
        }
        List<Span> busiest = spans.stream().filter(s -> s.requests() >= 2 && s.lastMs() > s.firstMs())
                .sorted(Comparator.comparingLong(Span::requests).reversed().thenComparing(Span::ip))
                .limit(top).toList();
        List<Ip> out = new ArrayList<>(busiest.size());
        double[] e = new double[busiest.size()];
        for (int i = 0; i < busiest.size(); i++) {
            Span s = busiest.get(i);
            double spanMs = s.lastMs() - s.firstMs();
            e[i] = s.requests() * (double) politenessMs / spanMs;
            out.add(new Ip(s.ip(), s.requests(), spanMs / 1000.0, e[i]));
        }
        if (e.length == 0) {
            return new PolitenessEfficiency(0, 0, out);
        }
        java.util.Arrays.sort(e);
        int m = e.length / 2;
        double median = e.length % 2 == 1 ? e[m] : (e[m - 1] + e[m]) / 2.0;
        return new PolitenessEfficiency(e[0], median, out);
    }
}
