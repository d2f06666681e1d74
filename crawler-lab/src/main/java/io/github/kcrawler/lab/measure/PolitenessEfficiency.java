package io.github.kcrawler.lab.measure;

import java.util.ArrayList;
import java.util.Arrays;
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
 * <p>The efficiency counts every moment between an IP's first and last request, including those when the crawler
 * did not know any unfetched URL of it yet (a link found late stretches the span), so it mixes pacing with discovery.
 * Each IP's {@code medianGapMs}, the median time between two consecutive requests to it, says how it was paced
 * while it had work: T means one request per T start to start.
 *
 * <p>The median of an even number of values is the mean of the two middle ones.
 *
 * @param min         the lowest efficiency among the busiest IPs (0 when none qualifies)
 * @param median      their median efficiency (0 when none qualifies)
 * @param medianGapMs the median of their median gaps (0 when none qualifies)
 * @param ips         the busiest IPs, busiest first
 */
public record PolitenessEfficiency(double min, double median, double medianGapMs, List<Ip> ips) {
    /** The number of busiest IPs of issue 19. */
    public static final int TOP = 10;

    /** One IP's figures. */
    public record Ip(String ip, long requests, double spanSeconds, double efficiency, double medianGapMs) {
    }

    /**
     * One IP's accesses: how many, the first and the last arrival time and the median gap between consecutive
     * arrivals, in milliseconds.
     */
    public record Span(String ip, long requests, double firstMs, double lastMs, double medianGapMs) {
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
        double[] gaps = new double[busiest.size()];
        for (int i = 0; i < busiest.size(); i++) {
            Span s = busiest.get(i);
            double spanMs = s.lastMs() - s.firstMs();
            e[i] = s.requests() * (double) politenessMs / spanMs;
            gaps[i] = s.medianGapMs();
            out.add(new Ip(s.ip(), s.requests(), spanMs / 1000.0, e[i], s.medianGapMs()));
        }
        if (e.length == 0) {
            return new PolitenessEfficiency(0, 0, 0, out);
        }
        return new PolitenessEfficiency(Arrays.stream(e).min().orElseThrow(), median(e), median(gaps), out);
    }

    /** The median of {@code values} (the mean of the middle two for an even count); sorts a copy. */
    static double median(double[] values) {
        double[] v = Arrays.copyOf(values, values.length);
        Arrays.sort(v);
        int m = v.length / 2;
        return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2.0;
    }
}
