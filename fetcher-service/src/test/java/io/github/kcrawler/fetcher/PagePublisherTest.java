package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.model.LinkList;
import io.github.kcrawler.common.topic.KeyPartitioner;
import io.github.kcrawler.common.time.ManualClock;
import io.github.kcrawler.fetcher.dns.HostResolver;
import io.github.kcrawler.fetcher.dns.HostsFile;
import io.github.kcrawler.fetcher.dns.LookupFailure;
import io.github.kcrawler.fetcher.dns.NameLookup;
import io.github.kcrawler.fetcher.http.HttpFailure;
import io.github.kcrawler.fetcher.http.HttpFetchResponse;
import io.github.kcrawler.fetcher.parse.LinkExtractor;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** What a finished fetch turns into, without Kafka: records are captured by a sink that acknowledges at once. */
class PagePublisherTest {
    private static final String PAGE = "http://a.test/dir/page";

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<String[]> sent = new ArrayList<>(); // topic, key
    private final List<FetchResult> results = new ArrayList<>();
    /** The entries of every discovered record, flattened with their record's depth and source. */
    private final List<Discovered> discovered = new ArrayList<>();
    private final List<DiscoveredUrls> discoveredRecords = new ArrayList<>();
    private int partitions = 4;
    private final List<LinkList> links = new ArrayList<>();
    private final List<Exception> done = new ArrayList<>();
    private Exception sendError;

    private record Discovered(String url, String ip, int depth, String source) {
    }

    private PagePublisher publisher(String maxDepth) {
        return publisher(maxDepth, Map.of(), List.of());
    }

    private PagePublisher publisher(String maxDepth, Map<String, String> settings, List<String> moreHosts) {
        Map<String, String> all = new java.util.HashMap<>(Map.of("allow-addresses", "127.0.0.0/8",
                "max-depth", maxDepth, "warc-dir", "none"));
        all.putAll(settings);
        FetcherConfig config = FetcherConfig.defaults(all);
        List<String> hostLines = new ArrayList<>(List.of("127.1.0.1 a.test", "127.1.0.2 b.test",
                "10.0.0.1 internal.test"));
        hostLines.addAll(moreHosts);
        HostsFile hosts = HostsFile.parse(hostLines);
        NameLookup dns = new NameLookup() {
            @Override
            public InetAddress cached(String host) {
                return null;
            }

            @Override
            public CompletableFuture<InetAddress> lookup(String host) {
                return CompletableFuture.failedFuture(new LookupFailure(HostResolver.Failure.NOT_FOUND, host, null));
            }

            @Override
            public void close() {
            }
        };
        PagePublisher.Sink sink = new PagePublisher.Sink() {
            @Override
            public void result(String key, FetchResult value, Completion c) {
                sent.add(new String[] {"results", key});
                results.add(value);
                if (value.linkList() != null) {
                    links.add(value.linkList()); // an HTML page's graph travels in its result (issue 19)
                }
                for (DiscoveredUrls.Entry e : localLinks(key, value)) { // and its own partition's URLs with it
                    discovered.add(new Discovered(e.url(), e.ip(), value.depth() + 1, value.url()));
                }
                c.acked(sendError);
            }

            @Override
            public void discovered(String key, DiscoveredUrls value, Completion c) {
                sent.add(new String[] {"discovered", key});
                discoveredRecords.add(value);
                value.urls().forEach(e -> discovered.add(new Discovered(e.url(), e.ip(), value.depth(),
                        value.source())));
                c.acked(sendError);
            }

            @Override
            public int discoveredPartitions() {
                return partitions;
            }

            @Override
            public void abandoned(FetchJob job) {
            }
        };
        return new PagePublisher(config, new ManualClock(1_000), new HostResolver(dns, hosts, 4, registry),
                new LinkExtractor(100, false), null, sink, new FetchMetrics(registry, "req", () -> 0),
                Runnable::run, (job, error) -> done.add(error));
    }

    /** The discovered URLs a result stands for, by the rule dedup applies ({@link FetchResult#localLinkPartitions}). */
    static List<DiscoveredUrls.Entry> localLinks(String key, FetchResult r) {
        int n = r.localLinkPartitions();
        if (n == 0) {
            return List.of();
        }
        int own = KeyPartitioner.partition(key, n); // written out, not KeyPartitioner.onPartitionOf: the model
        return r.links().stream().filter(l -> KeyPartitioner.partition(l.ip(), n) == own)
                .map(l -> new DiscoveredUrls.Entry(l.url(), l.ip())).toList();
    }

    private static FetchJob job(String url, int depth) throws Exception {
        return job(FetchRequest.fresh(url, Fingerprints.url(url), depth, 7, 0));
    }

    private static FetchJob job(FetchRequest request) throws Exception {
        FetchJob job = new FetchJob("127.1.0.1", request, new OffsetTracker.Slot(new TopicPartition("req", 0), 42));
        assertThat(job.parseUrl()).isTrue();
        job.address = InetAddress.getByName("127.1.0.1");
        job.ip = "127.1.0.1";
        return job;
    }

    private static HttpFetchResponse response(int status, String type, String body, List<Map.Entry<String, String>>
            extra, HttpFailure failure) {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        List<Map.Entry<String, String>> headers = new ArrayList<>(extra);
        if (type != null) {
            headers.add(Map.entry("Content-Type", type));
        }
        return new HttpFetchResponse(status, "x", headers, b, b.length, failure, failure == null ? null : "cut",
                900, 950, false, List.of());
    }

    private double rejected(String reason) {
        return registry.get("crawler.links.rejected").tag("reason", reason).counter().count();
    }

    @Test
    void htmlPageYieldsResultOutlinksAndLinkList() throws Exception {
        FetchJob job = job(PAGE, 0);
        publisher("20").publish(job, response(200, "text/html", """
                <a href="other">same host</a> <a href="http://b.test/x#frag">other host</a>
                <a href="http://nowhere.test/">unresolvable</a> <a href="http://internal.test/">private</a>
                <a href="mailto:x@y.z">mail</a>""", List.of(Map.entry("ETag", "\"e1\"")), null), null);

        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(FetchOutcome.OK);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.outlinks()).isEqualTo(4);
            assertThat(r.contentHash()).hasSize(32);
            assertThat(r.etag()).isEqualTo("\"e1\"");
            assertThat(r.fetchMillis()).isEqualTo(50);
            assertThat(r.step()).isEqualTo(7);
        });
        assertThat(discovered).extracting(Discovered::url).containsExactlyInAnyOrder("http://a.test/dir/other",
                "http://b.test/x");
        assertThat(discovered).extracting(Discovered::ip).containsExactlyInAnyOrder("127.1.0.1", "127.1.0.2");
        assertThat(discovered).allSatisfy(d -> {
            assertThat(d.depth()).isEqualTo(1);
            assertThat(d.source()).isEqualTo(PAGE);
        });
        boolean samePartition = KeyPartitioner.partition("127.1.0.1", partitions)
                == KeyPartitioner.partition("127.1.0.2", partitions);
        // issue 19: a.test shares the page's partition, so its URL rides in the result; b.test's needs a record
        // unless it shares that partition too
        assertThat(sent).filteredOn(s -> s[0].equals("discovered")).hasSize(samePartition ? 0 : 1);
        assertThat(results.get(0).localLinkPartitions()).isEqualTo(partitions);
        assertThat(links).singleElement().satisfies(l -> {
            assertThat(l.source()).isEqualTo(PAGE);
            assertThat(l.outlinks()).extracting(LinkList.Link::ip).containsExactly("127.1.0.1", "127.1.0.2");
        });
        // issue 19: the graph rides in the result, so besides the discovered groups the page writes one record
        assertThat(sent).filteredOn(s -> !s[0].equals("discovered")).extracting(s -> s[0]).containsExactly("results");
        assertThat(sent).filteredOn(s -> !s[0].equals("discovered")).allSatisfy(s ->
                assertThat(s[1]).isEqualTo("127.1.0.1"));
        assertThat(rejected("dns")).isEqualTo(1);
        assertThat(rejected("address")).isEqualTo(1);
        assertThat(rejected("scheme")).isEqualTo(1);
        assertThat(job.slot.isDone()).isTrue();
        assertThat(done).containsExactly((Exception) null);
    }

    /**
     * Issue 19: a page with n links over P partitions writes at most P − 1 discovered records, each keyed by one of its
     * entries' IPs and holding only IPs of that key's partition, none for the page's own partition, whose URLs ride
     * in its result; above batch-max-urls a group is cut (the result's share never is).
     */
    @Test
    void outlinksGoOutAsOneRecordPerTargetPartition_cutAboveTheBatchLimit() throws Exception {
        long seed = Long.getLong("kcrawler.seed", System.nanoTime());
        System.out.println("PagePublisherTest seed=" + seed + " (rerun with -Dkcrawler.seed=" + seed + ")");
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        List<String> hostLines = new ArrayList<>();
        for (int h = 0; h < 40; h++) {
            hostLines.add("127.3." + h / 10 + "." + (h % 10 + 1) + " h" + h + ".test");
        }
        for (int round = 0; round < 2; round++) {
            partitions = 1 + random.nextInt(8);
            int maxUrls = round == 0 ? 1000 : 7;
            sent.clear();
            discovered.clear();
            discoveredRecords.clear();
            done.clear();
            StringBuilder html = new StringBuilder();
            int n = 30 + random.nextInt(70); // the extractor keeps at most 100 links
            for (int i = 0; i < n; i++) {
                html.append("<a href=\"http://h").append(random.nextInt(40)).append(".test/p").append(i)
                        .append("\">x</a>");
            }
            publisher("20", Map.of("batch-max-urls", Integer.toString(maxUrls)), hostLines)
                    .publish(job(PAGE, 0), response(200, "text/html", html.toString(), List.of(), null), null);
            String context = "seed " + seed + ", round " + round + ", " + partitions + " partitions";
            List<String> keys = sent.stream().filter(s -> s[0].equals("discovered")).map(s -> s[1]).toList();
            assertThat(discovered).as(context).hasSize(n);
            int own = KeyPartitioner.partition("127.1.0.1", partitions);
            int local = localLinks("127.1.0.1", results.get(results.size() - 1)).size();
            assertThat(keys).as(context).allSatisfy(k ->
                    assertThat(KeyPartitioner.partition(k, partitions)).isNotEqualTo(own));
            if (round == 0) {
                assertThat(keys).as(context).hasSizeLessThanOrEqualTo(partitions - 1).doesNotHaveDuplicates();
            } else {
                assertThat(discoveredRecords).allSatisfy(d -> assertThat(d.urls()).hasSizeLessThanOrEqualTo(7));
                assertThat(keys.size()).as(context).isGreaterThanOrEqualTo((n - local + 6) / 7);
            }
            for (int r = 0; r < keys.size(); r++) {
                int p = KeyPartitioner.partition(keys.get(r), partitions);
                assertThat(discoveredRecords.get(r).urls()).as(context).allSatisfy(e ->
                        assertThat(KeyPartitioner.partition(e.ip(), partitions)).isEqualTo(p));
                assertThat(discoveredRecords.get(r).urls()).extracting(DiscoveredUrls.Entry::ip).contains(keys.get(r));
            }
            assertThat(done).as(context).containsExactly((Exception) null);
        }
    }

    /**
     * Thirty-fourth session ({@code LinkShare}): a first fetch whose request carries the scheduler's score gives every
     * link of its graph the share (score + 1) / graph size, on each discovered record and on the result; a revisit,
     * a request without a score and a cut graph give none.
     */
    @Test
    void aScoredFirstFetch_givesItsLinksTheirShare_aRevisitAnUnscoredRequestAndACutGraphNone() throws Exception {
        List<String> hostLines = new ArrayList<>();
        StringBuilder html = new StringBuilder();
        for (int h = 0; h < 8; h++) {
            hostLines.add("127.3.0." + (h + 1) + " h" + h + ".test");
            html.append("<a href=\"http://h").append(h).append(".test/\">x</a><a href=\"http://h").append(h)
                    .append(".test/\">again</a>");
        }
        String page = html.toString();
        FetchRequest scored = FetchRequest.fresh(PAGE, Fingerprints.url(PAGE), 0, 7, 0, 1.5);
        publisher("20", Map.of(), hostLines).publish(job(scored),
                response(200, "text/html", page, List.of(), null), null);
        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.links()).hasSize(8);
            assertThat(r.linkShare()).isEqualTo((1.5 + 1) / 8);
        });
        assertThat(discoveredRecords).isNotEmpty().allSatisfy(d -> assertThat(d.share()).isEqualTo((1.5 + 1) / 8));

        FetchRequest revisit = FetchRequest.revisit(PAGE, Fingerprints.url(PAGE), 0, 7, 0, null, null, null);
        FetchRequest unscored = FetchRequest.fresh(PAGE, Fingerprints.url(PAGE), 0, 7, 0);
        for (FetchRequest request : List.of(revisit, unscored)) {
            results.clear();
            discoveredRecords.clear();
            publisher("20", Map.of(), hostLines).publish(job(request), response(200, "text/html", page, List.of(),
                    null), null);
            assertThat(results).singleElement().satisfies(r -> assertThat(r.linkShare()).isNull());
            assertThat(discoveredRecords).isNotEmpty().allSatisfy(d -> assertThat(d.share()).isNull());
        }

        results.clear();
        discoveredRecords.clear();
        StringBuilder longLinks = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            longLinks.append("<a href=\"/").append("x".repeat(200)).append(i).append("\">x</a>");
        }
        publisher("20", Map.of("max-link-list-bytes", "4096"), List.of()).publish(
                job(scored),
                response(200, "text/html", longLinks.toString(), List.of(), null), null);
        assertThat(results).singleElement().satisfies(r -> assertThat(r.linkShare()).isNull());
        assertThat(discoveredRecords).isNotEmpty().allSatisfy(d -> assertThat(d.share()).isNull());
    }

    /** A graph cut at max-link-list-bytes does not hold every discovered URL: then they all go as records. */
    @Test
    void aCutGraph_carriesNoDiscoveredUrls_theyAllGoAsRecords() throws Exception {
        StringBuilder html = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            html.append("<a href=\"/").append("x".repeat(200)).append(i).append("\">x</a>");
        }
        publisher("20", Map.of("max-link-list-bytes", "4096"), List.of()).publish(job(PAGE, 0),
                response(200, "text/html", html.toString(), List.of(), null), null);
        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.links()).isNotEmpty().hasSizeLessThan(40);
            assertThat(r.localLinkPartitions()).isZero();
        });
        assertThat(discoveredRecords).flatExtracting(DiscoveredUrls::urls).hasSize(40);
        assertThat(discovered).hasSize(40);
        assertThat(sent).filteredOn(s -> s[0].equals("discovered")).extracting(s -> s[1]).containsExactly("127.1.0.1");
    }

    @Test
    void linksTooDeepToFollowStillReachTheLinkGraph() throws Exception {
        publisher("1").publish(job(PAGE, 1), response(200, "text/html; charset=utf-8",
                "<a href=\"/a\">a</a><a href=\"/b\">b</a>", List.of(), null), null);
        assertThat(discovered).isEmpty();
        assertThat(links).singleElement().satisfies(l -> assertThat(l.outlinks()).hasSize(2));
        assertThat(results).singleElement().satisfies(r -> assertThat(r.localLinkPartitions()).isZero());
        assertThat(rejected("too-deep")).isEqualTo(2);
    }

    @Test
    void redirectTargetIsDiscoveredAtTheSameDepth() throws Exception {
        publisher("20").publish(job(PAGE, 3), response(301, "text/html", "", List.of(Map.entry("Location",
                "//b.test/moved?x=1#top")), null), null);
        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(FetchOutcome.REDIRECT);
            assertThat(r.redirectTarget()).isEqualTo("http://b.test/moved?x=1");
            assertThat(r.contentHash()).isNull();
        });
        assertThat(discovered).singleElement().satisfies(d -> {
            assertThat(d.url()).isEqualTo("http://b.test/moved?x=1");
            assertThat(d.ip()).isEqualTo("127.1.0.2");
            assertThat(d.depth()).isEqualTo(3);
        });
        assertThat(sent).filteredOn(s -> s[0].equals("discovered")).extracting(s -> s[1])
                .containsExactly("127.1.0.2");
        assertThat(links).isEmpty();
    }

    @Test
    void redirectWithoutLocationIsAnHttpError() throws Exception {
        publisher("20").publish(job(PAGE, 0), response(302, null, "", List.of(), null), null);
        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(FetchOutcome.HTTP_ERROR);
            assertThat(r.error()).contains("Location");
        });
    }

    @Test
    void truncatedBodiesAreNeitherHashedNorParsed() throws Exception {
        publisher("20").publish(job(PAGE, 0), response(200, "text/html", "<a href=\"/a\">a</a>", List.of(),
                HttpFailure.TOO_LARGE), null);
        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(FetchOutcome.TOO_LARGE);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.contentHash()).isNull();
            assertThat(r.outlinks()).isZero();
        });
        assertThat(discovered).isEmpty();
        assertThat(links).isEmpty();
    }

    @Test
    void nonHtmlIsHashedButNotParsed() throws Exception {
        publisher("20").publish(job(PAGE, 0), response(200, "application/pdf", "%PDF-1.4 <a href=\"/a\">", List.of(),
                null), null);
        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(FetchOutcome.OK);
            assertThat(r.contentHash()).isNotNull();
            assertThat(r.contentType()).isEqualTo("application/pdf");
        });
        assertThat(links).isEmpty();
        assertThat(registry.get("crawler.fetch.unparsed").tag("reason", "not_html").counter().count()).isEqualTo(1);
    }

    @Test
    void statusesMapToOutcomes() throws Exception {
        PagePublisher p = publisher("20");
        p.publish(job(PAGE, 0), response(304, null, "", List.of(), null), null);
        p.publish(job(PAGE, 0), response(503, "text/html", "busy", List.of(), null), null);
        p.publish(job(PAGE, 0), new HttpFetchResponse(0, null, List.of(), new byte[0], 0,
                HttpFailure.CONNECT, "refused", -1, 5, false, List.of()), null);
        p.publish(job(PAGE, 0), new HttpFetchResponse(0, null, List.of(), new byte[0], 0, HttpFailure.TIMEOUT,
                "read timeout", 900, 5, false, List.of()), null);
        p.publish(job(PAGE, 0), new HttpFetchResponse(0, null, List.of(), new byte[0], 0, HttpFailure.TLS,
                "bad cert", -1, 5, false, List.of()), null);
        // 503 is THROTTLED since issue 9 (the server asked us to slow down), with its status kept
        assertThat(results).extracting(FetchResult::outcome).containsExactly(FetchOutcome.NOT_MODIFIED,
                FetchOutcome.THROTTLED, FetchOutcome.CONNECT_FAILURE, FetchOutcome.TIMEOUT,
                FetchOutcome.PROTOCOL_ERROR);
        assertThat(results.get(1).status()).isEqualTo(503);
        assertThat(results.get(2).fetchedAt()).isZero();
        assertThat(results.get(4).error()).isEqualTo("bad cert");
        assertThat(registry.get("crawler.fetch").tag("outcome", "THROTTLED").tag("status", "5xx").counter().count())
                .isEqualTo(1);
    }

    @Test
    void aFailedSendLeavesTheOffsetUncommitted() throws Exception {
        sendError = new IllegalStateException("broker gone");
        FetchJob job = job(PAGE, 0);
        publisher("20").publish(job, response(404, "text/html", "", List.of(), null), null);
        assertThat(job.slot.isDone()).isFalse();
        assertThat(done).singleElement().isSameAs(sendError);
    }
}
