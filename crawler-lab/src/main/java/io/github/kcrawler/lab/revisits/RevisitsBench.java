package io.github.kcrawler.lab.revisits;

import io.github.kcrawler.lab.demo.DemoRunner;
import io.github.kcrawler.lab.measure.BlockCacheRocksDbConfigSetter;
import io.github.kcrawler.lab.measure.ThreadCpuSampler;
import io.github.kcrawler.lab.measure.ThreadGroups;
import io.github.kcrawler.app.runtime.CrawlSession;
import io.github.kcrawler.app.runtime.SeedInjector;
import io.github.kcrawler.common.metrics.MetricNames;
import io.github.kcrawler.websim.ChangeModel;
import io.github.kcrawler.websim.WebSim;
import io.github.kcrawler.websim.WebSimConfig;
import io.github.kcrawler.scheduler.SchedulerConfig;
import io.github.kcrawler.scheduler.processor.SchedulerTopology;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.ToDoubleFunction;

/**
 * {@code crawler bench revisits} (issue 22): the whole pipeline on a websim whose pages change by paper 003's Zipf or
 * Peaked interval model, with revisit intervals of seconds so that revisits come due continuously, once with the
 * revisit state in SAT/L ({@code revisit-state=satl}) and once in the per-page store baseline ({@code store}); variant
 * {@code satl-time-order} is {@code satl} with paper 003's own flush order ({@code revisit-flush-order=time-order};
 * {@code satl} and {@code store} use ours, farthest-first). After a
 * warm-up, a measurement window counts, from the scheduler's own counters: revisits applied (results of outcome
 * changed, unchanged, retry or gone), revisit-store reads by key and writes, the revisit records' mean size, the
 * scheduler threads' CPU ({@link ThreadCpuSampler}, group {@code scheduler}), and the process's bytes read and written
 * ({@code /proc/self/io}: {@code read_bytes}/{@code write_bytes} reach the block device, {@code rchar}/{@code wchar}
 * count every read and write call; the whole process — broker, every service, websim — so a difference between the
 * variants is what to read, not the absolute figure). Beside them, the bytes the scheduler's revisit state itself
 * writes per revisit ({@code stateBytesWrittenPerRevisit}): its changelog's growth on the broker
 * ({@code changelogBytesPerRevisit}: the summed log sizes of the revisit changelog's partitions, from the broker's
 * log-dir description — record batches, their headers and the transactions' commit markers included, compaction
 * aside) plus the SAT/L bucket files' writes ({@code bucketBytesPerRevisit}: {@code
 * crawler.scheduler.revisit.bucket.bytes}, whole 4 KiB pages as the bucket store writes them; in the baseline its
 * SAT/L index). Counts only: the machine it runs on decides the timings.
 */
public final class RevisitsBench {
    /** One run's settings. */
    public record Options(int pages, int ips, double pagesPerHost, long politenessMs, int partitions, int maxDepth,
                          long changeUnitMs, int changeMaxInterval, long revisitUnitMs, long revisitInitialMs,
                          long revisitMaxMs, long warmupSeconds, long seconds, long blockCacheBytes, Path dataDir) {
        /** {@code blockCacheBytes} for Kafka Streams' own block cache per store instance (50 MiB). */
        public static final long STREAMS_BLOCK_CACHE = 0;
    }

    private RevisitsBench() {
    }

    /** Runs one variant on one change model; returns its figures. */
    public static Figures run(Options o, String variant, ChangeModel model, PrintStream log)
            throws IOException, InterruptedException {
        Path dir = o.dataDir().resolve(variant + "-" + model.name().toLowerCase(java.util.Locale.ROOT));
        DemoRunner.deleteRecursively(dir);
        Files.createDirectories(dir);
        WebSimConfig web = WebSimConfig.builder().generate(o.pages()).ips(o.ips()).politenessMs(o.politenessMs())
                .meanPagesPerHost(o.pagesPerHost()).hostsFile(dir.resolve("hosts")).changeModel(model)
                .changeUnitMs(o.changeUnitMs()).changeMaxInterval(o.changeMaxInterval()).build();
        log.printf("revisits: %s on %s: websim of %,d pages on %,d IPs%n", variant, model, o.pages(), o.ips());
        try (WebSim websim = WebSim.start(web)) {
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("politeness-ms", Long.toString(o.politenessMs()));
            settings.put("hosts-file", websim.hostsFile().toString());
            settings.put("allow-addresses", "127.0.0.0/8");
            settings.put(SchedulerConfig.Revisit.STATE.key(), state(variant));
            settings.put(SchedulerConfig.Revisit.FLUSH_ORDER.key(), flushOrder(variant));
            settings.put(SchedulerConfig.Revisit.EARLY_FRACTION.key(), earlyFraction(variant));
            settings.put("max-depth", Integer.toString(o.maxDepth())); // first fetches end: revisits remain
            settings.put("revisit-unit-ms", Long.toString(o.revisitUnitMs()));
            settings.put("revisit-initial-ms", Long.toString(o.revisitInitialMs()));
            settings.put("revisit-min-ms", Long.toString(o.revisitUnitMs()));
            settings.put("revisit-max-ms", Long.toString(o.revisitMaxMs()));
            if (o.blockCacheBytes() != Options.STREAMS_BLOCK_CACHE) {
                settings.put(io.github.kcrawler.common.config.Settings.KAFKA_PREFIX + "rocksdb.config.setter",
                        BlockCacheRocksDbConfigSetter.class.getName());
                settings.put(io.github.kcrawler.common.config.Settings.KAFKA_PREFIX + BlockCacheRocksDbConfigSetter.CACHE_BYTES,
                        Long.toString(o.blockCacheBytes()));
            }
            try (CrawlSession session = CrawlSession.start(dir.resolve("crawl"), Optional.empty(), "",
                    o.partitions(), settings, "127.0.0.1", 0)) {
                SeedInjector.inject(session.runtime().kafka(), session.runtime().topics().discovered,
                        websim.seedUrls(), SeedInjector.resolver(websim.layout().hostToIp()),
                        System.currentTimeMillis());
                MeterRegistry registry = session.registry();
                String changelog = revisitChangelog(variant);
                Admin admin = session.runtime().admin();
                Thread.sleep(o.warmupSeconds() * 1000);
                Snapshot before = Snapshot.take(registry, changelogBytes(admin, changelog, log));
                ThreadCpuSampler cpu = new ThreadCpuSampler(new ThreadGroups(""), 100);
                cpu.start();
                long t0 = System.nanoTime();
                long end = t0 + o.seconds() * 1_000_000_000L;
                while (System.nanoTime() < end) {
                    Thread.sleep(Math.min(5_000, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
                    Snapshot now = Snapshot.take(registry, 0);
                    log.printf("revisits: %s/%s %4.0f s: %,d revisits, %,d first fetches (%,d pages with state), "
                            + "%,d store reads%n", variant, model, (System.nanoTime() - t0) / 1e9,
                            now.revisits - before.revisits, now.firsts - before.firsts, now.firsts,
                            now.reads - before.reads);
                }
                double seconds = (System.nanoTime() - t0) / 1e9;
                cpu.stop();
                Snapshot after = Snapshot.take(registry, changelogBytes(admin, changelog, log));
                if (o.blockCacheBytes() != Options.STREAMS_BLOCK_CACHE) {
                    log.printf("revisits: %,d RocksDB store instances opened with a %,d-byte block cache so far%n",
                            BlockCacheRocksDbConfigSetter.configured(), o.blockCacheBytes());
                }
                Map<String, Long> cpuNanos = cpu.cpuNanos();
                return figures(before, after, seconds, cpuNanos.getOrDefault(ThreadGroups.SCHEDULER, 0L),
                        cpuNanos.getOrDefault(ThreadGroups.ROCKSDB, 0L), cpuNanos.getOrDefault("total", 0L),
                        websim.stats().politenessViolations());
            }
        }
    }

    /**
     * The variants: {@code satl} and {@code store} (issue 22); satl with paper 003's own flush order; satl with the
     * paper's strict timing instead of our early fraction.
     */
    public static final List<String> VARIANTS = List.of("satl", "store", "satl-time-order", "satl-strict");

    /** {@code revisit-state} of a variant. */
    static String state(String variant) {
        return variant.startsWith("satl") ? "satl" : "store";
    }

    /** {@code revisit-flush-order} of a variant: ours but in {@code satl-time-order}. */
    static String flushOrder(String variant) {
        return variant.equals("satl-time-order") ? "time-order" : "farthest-first";
    }

    /** {@code revisit-early-fraction} of a variant: the default (ours) but in {@code satl-strict}, 0 there. */
    static String earlyFraction(String variant) {
        return variant.equals("satl-strict") ? "0"
                : Double.toString(SchedulerConfig.Revisit.EARLY_FRACTION.defaultValue());
    }

    /** The scheduler's revisit changelog for a variant (topic prefix "", as the bench runs). */
    static String revisitChangelog(String variant) {
        return SchedulerConfig.APPLICATION_ID + "-" + ("satl".equals(state(variant))
                ? SchedulerTopology.REVISIT_SATL_STORE
                : SchedulerTopology.REVISIT_STORE) + "-changelog";
    }

    /** The summed size of {@code topic}'s logs on every broker (0, said, when the broker cannot tell). */
    static long changelogBytes(Admin admin, String topic, PrintStream log) {
        try {
            List<Integer> ids = new ArrayList<>();
            for (Node n : admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)) {
                ids.add(n.id());
            }
            long bytes = 0;
            for (Map<String, LogDirDescription> dirs : admin.describeLogDirs(ids)
                    .allDescriptions().get(30, TimeUnit.SECONDS).values()) {
                for (LogDirDescription dir : dirs.values()) {
                    for (Map.Entry<TopicPartition, ReplicaInfo>
                            e : dir.replicaInfos().entrySet()) {
                        if (e.getKey().topic().equals(topic)) {
                            bytes += e.getValue().size();
                        }
                    }
                }
            }
            return bytes;
        } catch (ExecutionException | TimeoutException e) {
            log.printf("revisits: the size of %s is unknown (%s): changelogBytesPerRevisit reads 0%n", topic, e);
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /**
     * One run's figures over its measurement window, per revisit applied where the name says so.
     *
     * @param firstFetches first fetches in the window; 0 = a steady state of revisits only
     * @param pagesWithState pages given a revisit state since the crawl started (its first fetches, at the window's
     *                       end): how large the state was that the window's revisits read and wrote. A per-page store
     *                       this small fits its block cache, so its random reads stay cheap
     * @param recordBytes  the mean size of the revisit records written (bytes per record put: the binary SAT/L record
     *                     with {@code satl}, the state's JSON in the baseline's store)
     * @param stateBytesWrittenPerRevisit what the scheduler's revisit state itself wrote: changelog plus buckets
     * @param changelogBytesPerRevisit    growth of the revisit changelog's logs on the broker
     * @param bucketBytesPerRevisit       bytes written to the SAT/L bucket files
     * @param schedulerCpuMsPerRevisit    CPU of the scheduler's Java threads (stream threads and their clients)
     * @param rocksDbCpuMsPerRevisit      CPU of RocksDB's native flush and compaction threads, every store of the
     *                                    process: the baseline's per-page store compacts there, outside
     *                                    {@code schedulerCpuMsPerRevisit}; the other stores' share is alike in both
     *                                    variants
     * @param processCpuMsPerRevisit      the whole process (every service, the broker, websim)
     * @param meanEarlyFraction           how early the due revisits of the window entered the frontier, as a
     *                                    fraction of their interval, on average ({@code revisit-early-fraction})
     */
    public record Figures(long revisits, long firstFetches, long pagesWithState, double seconds,
                          double randomStoreReadsPerRevisit, double storeWritesPerRevisit, double recordBytes, double bytesWrittenPerRevisit,
                          double stateBytesWrittenPerRevisit, double changelogBytesPerRevisit,
                          double bucketBytesPerRevisit, double bytesReadPerRevisit, double wcharPerRevisit,
                          double rcharPerRevisit, double schedulerCpuMsPerRevisit, double rocksDbCpuMsPerRevisit,
                          double processCpuMsPerRevisit, double meanEarlyFraction, double revisitsPerSecond,
                          long politenessViolations) {
    }

    /**
     * A variant's figures over all its runs (one per change model): the per-revisit figures weighted by each run's
     * revisits, and each run's own.
     */
    public record Pooled(long revisits, double randomStoreReadsPerRevisit, double storeWritesPerRevisit,
                         double bytesWrittenPerRevisit, double stateBytesWrittenPerRevisit,
                         double changelogBytesPerRevisit, double bucketBytesPerRevisit,
                         double bytesReadPerRevisit, double wcharPerRevisit,
                         double rcharPerRevisit, double schedulerCpuMsPerRevisit, double rocksDbCpuMsPerRevisit,
                         double processCpuMsPerRevisit, double recordBytes, double revisitsPerSecond,
                         double meanEarlyFraction, Map<String, Figures> byModel) {
        /** Pools the runs of {@code byModel} (change model name → its figures, in the order run). */
        public static Pooled of(Map<String, Figures> byModel) {
            long revisits = 0;
            double seconds = 0;
            List<ToDoubleFunction<Figures>> perRevisit = List.of(
                    Figures::randomStoreReadsPerRevisit, Figures::storeWritesPerRevisit,
                    Figures::bytesWrittenPerRevisit, Figures::bytesReadPerRevisit, Figures::wcharPerRevisit,
                    Figures::rcharPerRevisit, Figures::schedulerCpuMsPerRevisit, Figures::recordBytes,
                    Figures::stateBytesWrittenPerRevisit, Figures::changelogBytesPerRevisit,
                    Figures::bucketBytesPerRevisit, Figures::rocksDbCpuMsPerRevisit, Figures::processCpuMsPerRevisit,
                    Figures::meanEarlyFraction);
            double[] weighted = new double[perRevisit.size()];
            for (Figures run : byModel.values()) {
                revisits += run.revisits();
                seconds += run.seconds();
                for (int k = 0; k < weighted.length; k++) {
                    weighted[k] += perRevisit.get(k).applyAsDouble(run) * run.revisits();
                }
            }
            double[] mean = new double[weighted.length];
            for (int k = 0; k < mean.length; k++) {
                mean[k] = revisits == 0 ? 0.0 : weighted[k] / revisits;
            }
            return new Pooled(revisits, mean[0], mean[1], mean[2], mean[8], mean[9], mean[10], mean[3], mean[4],
                    mean[5], mean[6], mean[11], mean[12], mean[7], seconds == 0 ? 0.0 : revisits / seconds, mean[13],
                    byModel);
        }
    }

    /**
     * The settings of a {@code bench revisits} run, as its summary states them.
     *
     * @param blockCacheBytes the block cache per RocksDB store instance ({@code --block-cache-mb}); 0 = Kafka
     *                        Streams' own 50 MiB
     */
    public record Settings(int pages, int ips, long politenessMs, int partitions, int maxDepth, long changeUnitMs,
                           int changeMaxInterval, long revisitUnitMs, long revisitInitialMs, long revisitMaxMs,
                           long warmupSeconds, long seconds, long blockCacheBytes) {
    }

    static Figures figures(Snapshot b, Snapshot a, double seconds, long schedulerCpuNanos, long rocksDbCpuNanos,
                           long processCpuNanos, long violations) {
        long revisits = a.revisits - b.revisits;
        double per = Math.max(1, revisits);
        long puts = a.recordCount - b.recordCount;
        double changelog = (a.changelogBytes - b.changelogBytes) / per;
        double buckets = (a.bucketBytes - b.bucketBytes) / per;
        return new Figures(revisits, a.firsts - b.firsts, a.firsts, seconds, (a.reads - b.reads) / per,
                (a.writes - b.writes) / per, puts == 0 ? 0.0 : (a.recordBytes - b.recordBytes) / puts,
                (a.io.getOrDefault("write_bytes", 0L) - b.io.getOrDefault("write_bytes", 0L)) / per,
                changelog + buckets, changelog, buckets,
                (a.io.getOrDefault("read_bytes", 0L) - b.io.getOrDefault("read_bytes", 0L)) / per,
                (a.io.getOrDefault("wchar", 0L) - b.io.getOrDefault("wchar", 0L)) / per,
                (a.io.getOrDefault("rchar", 0L) - b.io.getOrDefault("rchar", 0L)) / per,
                schedulerCpuNanos / 1e6 / per, rocksDbCpuNanos / 1e6 / per, processCpuNanos / 1e6 / per,
                a.earlyCount == b.earlyCount ? 0.0 : (a.earlySum - b.earlySum) / (a.earlyCount - b.earlyCount),
                revisits / Math.max(1e-9, seconds), violations);
    }

    /**
     * Counter values at one instant, with the revisit changelog's size on the broker, the bucket bytes, and the
     * count and sum of the due revisits' early fractions.
     */
    record Snapshot(long revisits, long firsts, long reads, long writes, long recordCount, double recordBytes,
                    Map<String, Long> io, long changelogBytes, long bucketBytes, long earlyCount, double earlySum) {
        Snapshot(long revisits, long firsts, long reads, long writes, long recordCount, double recordBytes,
                 Map<String, Long> io) {
            this(revisits, firsts, reads, writes, recordCount, recordBytes, io, 0, 0);
        }

        Snapshot(long revisits, long firsts, long reads, long writes, long recordCount, double recordBytes,
                 Map<String, Long> io, long changelogBytes, long bucketBytes) {
            this(revisits, firsts, reads, writes, recordCount, recordBytes, io, changelogBytes, bucketBytes, 0, 0);
        }

        static Snapshot take(MeterRegistry r, long changelogBytes) {
            long revisits = 0;
            for (String outcome : List.of("changed", "unchanged", "retry", "gone")) {
                revisits += count(r, MetricNames.SCHEDULER_REVISITS, "outcome", outcome);
            }
            DistributionSummary bytes = r.find(MetricNames.SCHEDULER_REVISIT_RECORD_BYTES).summary();
            DistributionSummary early = r.find(MetricNames.SCHEDULER_REVISIT_EARLY_FRACTION).summary();
            return new Snapshot(revisits, count(r, MetricNames.SCHEDULER_REVISITS, "outcome", "first"),
                    count(r, MetricNames.SCHEDULER_REVISIT_STORE_OPS, "op", "read"),
                    count(r, MetricNames.SCHEDULER_REVISIT_STORE_OPS, "op", "write"),
                    bytes == null ? 0 : bytes.count(), bytes == null ? 0 : bytes.totalAmount(), ProcIo.read(),
                    changelogBytes, count(r, MetricNames.SCHEDULER_REVISIT_BUCKET_BYTES),
                    early == null ? 0 : early.count(), early == null ? 0 : early.totalAmount());
        }

        private static long count(MeterRegistry r, String name) {
            double sum = 0;
            for (Counter c : r.find(name).counters()) {
                sum += c.count();
            }
            return (long) sum;
        }

        private static long count(MeterRegistry r, String name, String tag, String value) {
            double sum = 0;
            for (Counter c : r.find(name).tag(tag, value).counters()) {
                sum += c.count();
            }
            return (long) sum;
        }
    }
}
