package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.model.DiscoveredUrls;
import io.github.kcrawler.common.model.FetchRequest;
import io.github.kcrawler.common.model.FetchResult;
import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.service.CrawlerService;
import io.github.kcrawler.common.time.CrawlClock;
import io.github.kcrawler.common.topic.KeyPartitioner;
import io.github.kcrawler.common.topic.Topic;
import io.github.kcrawler.common.topic.Topics;
import io.github.kcrawler.fetcher.dns.HostResolver;
import io.github.kcrawler.fetcher.dns.HostsFile;
import io.github.kcrawler.fetcher.dns.NameLookup;
import io.github.kcrawler.fetcher.guard.IpGuard;
import io.github.kcrawler.fetcher.http.HttpClientSettings;
import io.github.kcrawler.fetcher.http.NettyDnsLookup;
import io.github.kcrawler.fetcher.http.NettyHttpClient;
import io.github.kcrawler.fetcher.http.NettyTransport;
import io.github.kcrawler.fetcher.parse.LinkExtractor;
import io.github.kcrawler.fetcher.robots.RobotsCache;
import io.github.kcrawler.fetcher.warc.WarcArchive;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fetcher (DESIGN §2): a Kafka consumer group ({@code <prefix>fetcher}) on {@code crawl.fetch.requests} and a
 * transactional producer ({@code transactional.id} {@code <prefix>fetcher-<instance-id>}, {@link InstanceId}) for
 * results, discovered URLs and link lists: a consume-process-produce stage whose results and request offsets are
 * committed in one transaction ({@link TransactionalOutput}), so finished work is never redone after a rebalance,
 * a crash or a broker restart, and a zombie's results never become visible. Fetching itself is a side effect no
 * transaction can undo: what may still be fetched twice is what was on the network (or finished but not yet
 * committed) when an instance died or lost its partitions; nothing is ever lost.
 *
 * <p>This class wires the parts — Netty transport, DNS, per-IP guard, HTTP client, robots.txt cache, link
 * extractor, WARC archive, worker pool — and owns their lifecycle. Threads: one consumer thread, the Netty event
 * loops ({@code io-threads}), the workers ({@code worker-threads}) and the Kafka producer's sender.
 */
public final class FetcherService implements CrawlerService {
    private static final Logger LOG = LoggerFactory.getLogger(FetcherService.class);

    private final FetcherConfig config;
    private final MeterRegistry registry;
    private final CrawlClock clock;
    private final Topics topics;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong sendFailures = new AtomicLong();
    private volatile boolean started;
    private volatile boolean closed;
    private NettyTransport transport;
    private NameLookup lookup;
    private NettyHttpClient client;
    private WarcArchive warc;
    private ExecutorService workers;
    private KafkaProducer<String, byte[]> producer;
    private io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics producerMetrics;
    private InstanceId instance;
    private FetchPipeline pipeline;
    private ConsumerLoop loop;
    private FetchMetrics metrics;
    private FetchSlots slots;
    private io.github.kcrawler.fetcher.sitemap.SitemapDiscovery sitemaps;

    public FetcherService(FetcherConfig config, MeterRegistry registry, CrawlClock clock) {
        this.config = config;
        this.registry = registry;
        this.clock = clock;
        this.topics = config.kafka().topics();
    }

    @Override
    public String name() {
        return "fetcher";
    }

    @Override
    public synchronized void start() {
        if (started) {
            throw new IllegalStateException("fetcher already started");
        }
        started = true;
        KeyPartitioner.checkAgainstKafka(); // discovered URLs are grouped by partition exactly as Kafka would route them
        FetcherConfig.Http http = config.http();
        FetcherConfig.Dns dnsConfig = config.dns();
        HostsFile hosts = dnsConfig.hostsFile() == null ? HostsFile.empty() : HostsFile.load(dnsConfig.hostsFile());
        transport = new NettyTransport(config.ioThreads(), http.nativeTransport());
        slots = new FetchSlots(config.limits().maxInFlight(), transport.scheduler());
        // fetches on the network, plus sites whose sitemaps are being read: --exit-when-idle waits for both
        metrics = new FetchMetrics(registry, topics.fetchRequests.name(),
                () -> slots.active() + (sitemaps == null ? 0 : sitemaps.inFlight()));
        lookup = new NettyDnsLookup(transport, hosts, 0, dnsConfig.maxTtlSeconds(), dnsConfig.negativeTtlSeconds(),
                dnsConfig.queryTimeoutMs());
        HostResolver resolver = new HostResolver(lookup, hosts, dnsConfig.maxConcurrent(), registry);
        IpGuard guard = new IpGuard(clock, transport.scheduler(),
                Math.max(config.limits().maxBackoffMs(),
                        Math.max(config.politenessMs(), config.robots().maxCrawlDelayMs())),
                metrics.politenessWait);
        client = new NettyHttpClient(transport, new HttpClientSettings(http.userAgent(), http.connectTimeoutMs(),
                http.readTimeoutMs(), http.totalTimeoutMs(), resolvedProxy(http.proxy()), http.maxIdlePerRoute(),
                http.maxIdleConnections(), http.keepAliveMs(), List.of(), http.firstByteTimeoutMs(), http.tlsInsecure(),
                config.politenessMs()), clock);
        if (config.warc().dir() != null) {
            warc = new WarcArchive(config.warc().dir(), config.warc().prefix(), config.warc().maxBytes(),
                    config.warc().gzipLevel(), clock::millis, metrics.warcRecords, config.warc().cdx(),
                    io.github.kcrawler.fetcher.warc.WarcArchive.DEFAULT_CDX_SPILL_CHARS);
        }
        workers = new ThreadPoolExecutor(config.workerThreads(), config.workerThreads(), 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), daemonThreads("fetcher-worker"));
        instance = InstanceId.claim(config.instanceId(), config.kafka().stateDir());
        producer = new KafkaProducer<>(producerProperties());
        // the producer's send rate, errors and request latency as kafka_producer_* meters (issue 23)
        producerMetrics = new io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics(producer,
                java.util.List.of(io.micrometer.core.instrument.Tag.of("service", "fetcher")));
        producerMetrics.bindTo(registry);
        PagePublisher publisher = new PagePublisher(config, clock, resolver,
                new LinkExtractor(config.limits().maxOutlinks(), config.followNofollow()), warc, new KafkaSink(),
                metrics, workers, this::jobDone);
        pipeline = new FetchPipeline(config, clock, transport.scheduler(), resolver, guard, slots, client, workers,
                metrics, publisher);
        RobotsCache robots = new RobotsCache(List.of(config.robots().agent()), config.robots().cacheSize(),
                config.robots().ttlMs(), config.robots().errorTtlMs(), config.robots().maxCrawlDelayMs(), clock,
                pipeline::fetchRobots, registry);
        pipeline.robots(robots);
        if (config.sitemaps().enabled()) {
            sitemaps = new io.github.kcrawler.fetcher.sitemap.SitemapDiscovery(config.sitemaps(),
                    config.scope().maxUrlLength(), pipeline::fetchSitemap, publisher.sitemapSink(), registry);
            pipeline.sitemaps(sitemaps);
        }
        loop = new ConsumerLoop(config, topics.fetchRequests.name(), consumerProperties(), producer, pipeline, pending,
                metrics, JsonSerde.of(FetchRequest.class), registry);
        pipeline.ownership(loop::ownershipConfirmed);
        pipeline.ownsIp(ip -> loop.ownershipConfirmed() && loop.owned.ownsKey(ip, config.kafka().partitions()));
        loop.start();
        LOG.info("fetcher started: group {}fetcher on {}, transactional id {}, {} fetches in flight, {} pending, "
                + "T={} ms, WARC {}", config.kafka().topicPrefix(), topics.fetchRequests.name(), transactionalId(),
                config.limits().maxInFlight(), config.limits().maxPending(), config.politenessMs(),
                config.warc().dir() == null ? "off" : config.warc().dir());
    }

    @Override
    public boolean isHealthy() {
        return started && !closed && loop != null && loop.isAlive() && sendFailures.get() == 0;
    }

    /**
     * Runs {@code hook} with the number of jobs in the transaction on the consumer thread right before each
     * transaction's offsets are sent (tests: holds an instance inside a transaction to make it a zombie).
     */
    void beforeOffsets(java.util.function.IntConsumer hook) {
        loop.output().beforeOffsets(hook);
    }

    /**
     * Requests accepted from Kafka whose results are not yet committed, plus sites whose sitemaps are being read
     * (their URLs not yet committed): work that is not idle.
     */
    public int pending() {
        return pending.get() + (sitemaps == null ? 0 : sitemaps.inFlight());
    }

    /** Fetches on the network now (at most {@code max-in-flight}). */
    public int activeFetches() {
        return slots == null ? 0 : slots.active();
    }

    /** Pages (HTTP responses) received by this instance, as counted against {@code max-pages}. */
    public long pagesFetched() {
        return pipeline == null ? 0 : pipeline.pagesFetched();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (loop != null) {
            loop.shutdown(); // waits up to revoke-wait-ms for in-flight work, commits what is complete
        }
        if (client != null) {
            client.close();
        }
        if (lookup != null) {
            lookup.close();
        }
        if (transport != null) {
            transport.close();
        }
        if (workers != null) {
            workers.shutdown();
            try {
                workers.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (producerMetrics != null) {
            producerMetrics.close();
        }
        if (producer != null) {
            producer.close(java.time.Duration.ofSeconds(10));
        }
        if (instance != null) {
            instance.close();
        }
        if (warc != null) {
            warc.close();
        }
        LOG.info("fetcher closed after {} pages", pagesFetched());
    }

    private void jobDone(FetchJob job, Exception error) {
        pending.decrementAndGet();
        if (error != null && closed) {
            LOG.debug("results of {} not produced: closing (the request is redone after a restart)",
                    job.request.url());
        } else if (error != null) {
            long n = sendFailures.incrementAndGet();
            if (n == 1 || n % 1000 == 0) {
                LOG.error("cannot produce the results of {} ({} failed jobs); its offset stays uncommitted and the "
                        + "fetcher reports unhealthy", job.request.url(), n, error);
            }
        }
    }

    /** The fetch-request consumer's settings, pass-through overrides last (package-private for tests). */
    Properties consumerProperties() {
        Properties p = config.kafka().baseProperties();
        p.put(ConsumerConfig.GROUP_ID_CONFIG, config.kafka().topicPrefix() + "fetcher");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // The scheduler writes requests in exactly-once transactions: a request of an aborted transaction (the
        // scheduler crashed) is released again by the restarted scheduler, so reading it too would fetch it twice.
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Math.min(500, config.limits().maxInFlight()));
        if (!"consumer".equalsIgnoreCase(config.kafka().clientOverrides().get(ConsumerConfig.GROUP_PROTOCOL_CONFIG))) {
            // classic protocol: incremental rebalances move only the partitions that change owner
            p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        }
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return config.kafka().withOverrides(p);
    }

    /** {@code <prefix>fetcher-<instance-id>}: one per instance, the same when the instance restarts. */
    String transactionalId() {
        String id = instance != null ? instance.id() : config.instanceId().isEmpty() ? "auto" : config.instanceId();
        return config.kafka().topicPrefix() + "fetcher-" + id;
    }

    /**
     * The results producer's settings, pass-through overrides last (package-private for tests). Transactional:
     * {@code transaction.timeout.ms} stays at Kafka's 60 s, so that a transaction survives a broker restart of up to
     * that long (a transaction the coordinator aborts for its age fences this producer, which stops the instance); a
     * crashed instance's open transaction is aborted at once when it restarts with the same id. {@code max.block.ms}
     * is 10 s so that the consumer thread, which commits, is not held for a minute while the broker is away (a
     * commit that times out is retried).
     */
    Properties producerProperties() {
        Properties p = config.kafka().baseProperties();
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId());
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return config.kafka().withOverrides(p);
    }

    private static InetSocketAddress resolvedProxy(InetSocketAddress proxy) {
        if (proxy == null) {
            return null;
        }
        InetSocketAddress resolved = new InetSocketAddress(proxy.getHostString(), proxy.getPort());
        if (resolved.isUnresolved()) {
            throw new IllegalArgumentException("proxy host does not resolve: " + proxy.getHostString());
        }
        return resolved;
    }

    static java.util.concurrent.ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * Serialises each record on the worker thread and stages it in the job's {@link Completion}; once a job's
     * records are all staged it goes to the next transaction ({@link TransactionalOutput}).
     */
    private final class KafkaSink implements PagePublisher.Sink {
        @Override
        public void result(String key, FetchResult value, Completion c) {
            send(topics.fetchResults, key, value, c);
        }

        @Override
        public void discovered(String key, DiscoveredUrls value, Completion c) {
            send(topics.discovered, key, value, c);
        }

        /**
         * The co-partitioning contract, {@code partitions} (DESIGN §2: every topic has this many partitions), as the
         * ranker uses it. Not the producer's metadata: asking it per page blocks up to max.block.ms — and failed the
         * page, leaving the fetcher unhealthy — while the broker was away or a restarted instance's producer had no
         * metadata yet (FaultsIT, broker restart). A wrong setting does not lose a URL: dedup sends an entry grouped
         * onto a partition that does not own its IP back under its own key ({@code crawler.dedup.rerouted}).
         */
        @Override
        public int discoveredPartitions() {
            return config.kafka().partitions();
        }

        @Override
        public void abandoned(FetchJob job) {
            pending.decrementAndGet();
        }

        private <V> void send(Topic<String, V> topic, String key, V value, Completion c) {
            boolean last;
            try {
                byte[] bytes = topic.valueSerde().serializer().serialize(topic.name(), value);
                last = c.stage(new ProducerRecord<>(topic.name(), key, bytes));
            } catch (RuntimeException e) {
                last = c.stageFailed(e);
            }
            if (last) {
                loop.output().ready(c);
            }
        }
    }
}
