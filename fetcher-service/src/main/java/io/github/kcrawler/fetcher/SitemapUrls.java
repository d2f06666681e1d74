package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.scope.ScopeDecision;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.common.topic.UrlBatches;
import io.github.kcrawler.fetcher.sitemap.SitemapDiscovery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@link SitemapDiscovery.Sink} of the fetcher: the URLs a sitemap of {@code ip}'s site listed leave as
 * discovered URLs at {@code depth}, with the sitemap as their source, through the normal path — the crawl scope
 * (rejections counted as for outlinks, {@code crawler.links.rejected}), then {@code crawl.urls.discovered} records
 * cut by {@code batch-max-urls} / {@code batch-max-bytes}, all on {@code ip}'s partition, so that partition's
 * URL-seen test decides. They are produced in the fetcher's next transaction with no request offset of their own;
 * {@code done} runs once they are committed or dropped.
 */
final class SitemapUrls implements SitemapDiscovery.Sink {
    private static final Logger LOG = LoggerFactory.getLogger(SitemapUrls.class);

    private final FetcherConfig config;
    private final CrawlClock clock;
    private final PagePublisher.Sink sink;
    private final FetchMetrics metrics;

    SitemapUrls(FetcherConfig config, CrawlClock clock, PagePublisher.Sink sink, FetchMetrics metrics) {
        this.config = config;
        this.clock = clock;
        this.sink = sink;
        this.metrics = metrics;
    }

    @Override
    public void found(String sitemapUrl, String ip, int depth, List<String> urls, Runnable done) {
        List<DiscoveredUrls.Entry> entries = new ArrayList<>(urls.size());
        if (depth > config.scope().maxDepth()) {
            metrics.scopeRejected(ScopeDecision.TOO_DEEP, urls.size());
        } else {
            for (String u : urls) {
                ScopeDecision d = config.scope().check(u, depth, sitemapUrl);
                if (d.inScope()) {
                    entries.add(new DiscoveredUrls.Entry(u, ip));
                } else {
                    metrics.scopeRejected(d, 1);
                }
            }
        }
        if (entries.isEmpty()) {
            done.run();
            return;
        }
        List<UrlBatches.Keyed<DiscoveredUrls>> records = UrlBatches.discovered(entries, sink.discoveredPartitions(),
                sitemapUrl, depth, clock.millis(), config.batchLimits());
        FetchJob job = new FetchJob(ip, FetchRequest.fresh(sitemapUrl, Fingerprints.url(sitemapUrl), depth, 0, 0),
                null);
        Completion c = new Completion(job, records.size(), (j, e) -> {
            if (e != null) {
                LOG.warn("URLs of sitemap {} not produced", sitemapUrl, e);
            }
            done.run();
        });
        for (UrlBatches.Keyed<DiscoveredUrls> r : records) {
            sink.discovered(r.key(), r.value(), c);
        }
        metrics.linksDiscovered.increment(entries.size());
    }
}
