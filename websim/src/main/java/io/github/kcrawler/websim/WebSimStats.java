package io.github.kcrawler.websim;

import java.util.Locale;
import java.util.Map;

/**
 * A snapshot of what the simulated web observed, independent of anything the crawler reports about itself.
 *
 * @param uptimeMs time since the server started
 * @param politenessMs the T the accesses were checked against
 * @param politenessToleranceMs slack subtracted from T
 * @param requests all requests, whatever their status
 * @param connections TCP connections accepted
 * @param pagesFetched GETs of a page with status 200 or 304
 * @param distinctUrlsFetched pages fetched at least once
 * @param duplicateFetches page fetches beyond the first of the same URL ({@code pagesFetched - distinctUrlsFetched})
 * @param robotsFetches requests for a known host's robots.txt
 * @param disallowedFetched page fetches of pages their host's robots.txt disallows (a crawler bug)
 * @param politenessViolations accesses to an IP less than {@code T - tolerance} after the previous access to it
 * @param minGapMs the smallest time between two consecutive accesses to one IP, or -1 when no IP was accessed twice
 * @param notModified 304 responses
 * @param notFound 404 responses
 * @param conditionalNotModified conditional page requests (If-None-Match / If-Modified-Since) answered 304
 * @param conditionalOk conditional page requests answered 200 with the full page
 * @param conditionalChanged those of {@code conditionalOk} whose validator named an earlier version of the page
 *     (it had changed since the client's copy); the rest carried a validator of no version of it
 * @param accessesPerIp requests per simulated IP (all addresses, in address order; hostile hosts' last)
 * @param hostileAccesses requests per enabled hostile mode ({@link HostileMode#label()} → count, in mode order;
 *     empty when none is enabled)
 */
public record WebSimStats(
        long uptimeMs,
        long politenessMs,
        long politenessToleranceMs,
        long requests,
        long connections,
        long pagesFetched,
        long distinctUrlsFetched,
        long duplicateFetches,
        long robotsFetches,
        long disallowedFetched,
        long politenessViolations,
        double minGapMs,
        long notModified,
        long notFound,
        long conditionalNotModified,
        long conditionalOk,
        long conditionalChanged,
        Map<String, Long> accessesPerIp,
        Map<String, Long> hostileAccesses) {

    public WebSimStats {
        accessesPerIp = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(accessesPerIp));
        hostileAccesses = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(hostileAccesses));
    }

    /** Requests to the hosts of all hostile modes together. */
    public long hostileRequests() {
        return hostileAccesses.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The snapshot as one JSON object (a {@code v} format version first, like the crawler's topics). */
    public String toJson() {
        StringBuilder sb = new StringBuilder(256 + accessesPerIp.size() * 24);
        sb.append("{\"v\":2");
        field(sb, "uptimeMs", uptimeMs);
        field(sb, "politenessMs", politenessMs);
        field(sb, "politenessToleranceMs", politenessToleranceMs);
        field(sb, "requests", requests);
        field(sb, "connections", connections);
        field(sb, "pagesFetched", pagesFetched);
        field(sb, "distinctUrlsFetched", distinctUrlsFetched);
        field(sb, "duplicateFetches", duplicateFetches);
        field(sb, "robotsFetches", robotsFetches);
        field(sb, "disallowedFetched", disallowedFetched);
        field(sb, "politenessViolations", politenessViolations);
        sb.append(",\"minGapMs\":").append(String.format(Locale.ROOT, "%.3f", minGapMs));
        field(sb, "notModified", notModified);
        field(sb, "notFound", notFound);
        field(sb, "conditionalNotModified", conditionalNotModified);
        field(sb, "conditionalOk", conditionalOk);
        field(sb, "conditionalChanged", conditionalChanged);
        map(sb, "accessesPerIp", accessesPerIp);
        map(sb, "hostileAccesses", hostileAccesses);
        return sb.append('}').toString();
    }

    private static void map(StringBuilder sb, String name, Map<String, Long> map) {
        sb.append(",\"").append(name).append("\":{");
        boolean first = true;
        for (Map.Entry<String, Long> e : map.entrySet()) {
            sb.append(first ? "" : ",").append('"').append(e.getKey()).append("\":").append(e.getValue());
            first = false;
        }
        sb.append('}');
    }

    private static void field(StringBuilder sb, String name, long value) {
        sb.append(",\"").append(name).append("\":").append(value);
    }
}
