package io.github.kcrawler.app.status;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Reads the Prometheus endpoints ({@code /metrics}) of services running elsewhere — one or more per service, e.g.
 * every fetcher replica — and merges their samples. An endpoint that does not answer, answers with an error or
 * with more than {@link #MAX_BODY_BYTES} is reported in the snapshot's errors; the others still count.
 */
public final class PrometheusScrapeSource implements MetricsSource {
    /** Larger bodies are refused: the crawler's endpoints export a few hundred kilobytes at most. */
    static final int MAX_BODY_BYTES = 16 << 20;

    private final List<URI> endpoints;
    private final Duration timeout;
    private final HttpClient client;

    public PrometheusScrapeSource(List<URI> endpoints, Duration timeout) {
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("at least one metrics endpoint is needed");
        }
        for (URI u : endpoints) {
            String scheme = u.getScheme();
            if (!"http".equals(scheme) && !"https".equals(scheme) || u.getHost() == null) {
                throw new IllegalArgumentException("metrics endpoint must be an http(s) URL, was " + u);
            }
        }
        this.endpoints = List.copyOf(endpoints);
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.client = HttpClient.newBuilder().connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    @Override
    public MetricsSnapshot read() {
        List<MetricSample> samples = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (URI endpoint : endpoints) {
            try {
                PrometheusTextParser.Result r = PrometheusTextParser.parse(fetch(endpoint));
                samples.addAll(r.samples());
                if (r.malformedLines() > 0) {
                    errors.add(endpoint + ": " + r.malformedLines() + " malformed lines skipped");
                }
            } catch (IOException e) {
                errors.add(endpoint + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                errors.add(endpoint + ": interrupted");
                break;
            }
        }
        return new MetricsSnapshot(System.nanoTime(), samples, errors);
    }

    private String fetch(URI endpoint) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(endpoint).timeout(timeout)
                .header("Accept", "text/plain;version=0.0.4").GET().build();
        HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = response.body()) {
            if (response.statusCode() != 200) {
                throw new IOException("HTTP " + response.statusCode());
            }
            byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
            if (body.length > MAX_BODY_BYTES) {
                throw new IOException("body larger than " + MAX_BODY_BYTES + " bytes");
            }
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    @Override
    public String describe() {
        return endpoints.stream().map(URI::toString).collect(Collectors.joining(", "));
    }
}
