package io.github.kcrawler.websim;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Test client: connects straight to a simulated address (127.1.x.y) and names the simulated host in the Host
 * header, the way a crawler with websim's hosts file would (needs jdk.httpclient.allowRestrictedHeaders=host,
 * set in the module's surefire configuration).
 */
final class TestHttp {

    static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    private static final Pattern HREF = Pattern.compile("<a href=\"([^\"]*)\"");
    private static final Pattern BASE = Pattern.compile("<base href=\"([^\"]*)\"");

    private TestHttp() {
    }

    /** GET {@code path} from {@code host}, sent to address {@code ipIndex}; headers as name, value pairs. */
    static HttpResponse<byte[]> send(WebSim sim, int ipIndex, String hostHeader, String method, String path,
            String... headers) {
        URI uri = URI.create("http://" + sim.layout().ipAddress(ipIndex) + ":" + sim.port() + path);
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (hostHeader != null) {
            b.header("Host", hostHeader);
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        try {
            return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** GET {@code path} of {@code host} on the host's own address. */
    static HttpResponse<byte[]> get(WebSim sim, int host, String path, String... headers) {
        SiteLayout layout = sim.layout();
        return send(sim, layout.ipIndexOfHost(host), layout.authority(host, sim.port()), "GET", path, headers);
    }

    /** GET page {@code page} at its canonical location. */
    static HttpResponse<byte[]> getPage(WebSim sim, int page, String... headers) {
        return get(sim, sim.layout().hostOf(page), "/p/" + page, headers);
    }

    static String text(HttpResponse<byte[]> response) {
        byte[] body = response.body();
        if (response.headers().firstValue("content-encoding").orElse("").equals("gzip")) {
            body = gunzip(body);
        }
        return new String(body, StandardCharsets.UTF_8);
    }

    static byte[] gunzip(byte[] gz) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The absolute URLs the page's links point to, in document order: each href resolved against the
     * {@code <base href>} (itself resolved against the page URL) or the page URL, dot segments removed, fragment
     * dropped — what a crawler's normaliser produces.
     */
    static List<String> resolvedLinks(String pageUrl, String html) {
        URI base = URI.create(pageUrl);
        Matcher m = BASE.matcher(html);
        if (m.find()) {
            base = base.resolve(m.group(1));
        }
        List<String> out = new ArrayList<>();
        Matcher a = HREF.matcher(html);
        while (a.find()) {
            URI u = base.resolve(a.group(1)).normalize();
            String s = u.toString();
            int hash = s.indexOf('#');
            out.add(hash >= 0 ? s.substring(0, hash) : s);
        }
        return out;
    }
}
