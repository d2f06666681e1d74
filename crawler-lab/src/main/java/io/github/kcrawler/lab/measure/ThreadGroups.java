package io.github.kcrawler.lab.measure;

import java.util.List;

/**
 * Which part of a one-process crawl a thread works for, by its name. The rules, first match wins:
 * <ol>
 *   <li><b>dedup / scheduler / ranker</b>: a Kafka Streams thread of that service — the name, or the part after
 *   {@code "| "} of a Kafka client thread ({@code kafka-producer-network-thread | <client.id>}), starts with the
 *   service's {@code application.id} ({@code <topic-prefix>dedup}, ...) followed by {@code -} or the end: stream
 *   threads, their producers, consumers, admin client, state updater and cleanup thread.</li>
 *   <li><b>fetcherIo</b>: the fetcher's Netty event loops, which also run its DNS resolver
 *   ({@code fetcher-io-*}).</li>
 *   <li><b>fetcher</b>: the fetcher's other threads ({@code fetcher-*}: consumer loop, workers) and its Kafka
 *   clients: the consumer of group {@code <topic-prefix>fetcher} ({@code consumer-<prefix>fetcher-N}, heartbeat
 *   {@code | <prefix>fetcher}) and plain producers with Kafka's default client id ({@code producer-N}): the
 *   fetcher's is the only plain producer alive during a measured crawl (the seed producer lives a few
 *   milliseconds at its start).</li>
 *   <li><b>websim</b>: the simulated web's Netty event loops, which keep Netty's default names
 *   ({@code multiThreadIoEventLoopGroup-*}; every other Netty group of the process is named), and
 *   {@code websim-*}.</li>
 *   <li><b>broker</b>: the embedded KRaft broker and controller: request handlers, network threads, the raft I/O
 *   thread, log cleaner, schedulers, purgatory reapers, coordinators (the prefixes of {@link #BROKER_PREFIXES}).</li>
 *   <li><b>other</b>: everything else that is a Java thread: the command's main thread, samplers, the status page,
 *   the monitor's admin client ({@code adminclient-N}), JDK helpers.</li>
 * </ol>
 * RocksDB's native flush and compaction threads are {@code rocksdb} (read by their kernel names, where Linux's
 * {@code /proc} offers them: every store of the process, whichever service it belongs to). Process CPU that is on
 * no live thread of either kind — garbage collection, the JIT compilers — is reported separately as {@code jvm}
 * by {@link ThreadCpuSampler}.
 */
public final class ThreadGroups {
    public static final String DEDUP = "dedup";
    public static final String SCHEDULER = "scheduler";
    public static final String RANKER = "ranker";
    public static final String FETCHER = "fetcher";
    public static final String FETCHER_IO = "fetcherIo";
    public static final String WEBSIM = "websim";
    public static final String BROKER = "broker";
    public static final String OTHER = "other";
    /** RocksDB's native flush and compaction threads, all stores of the process together. */
    public static final String ROCKSDB = "rocksdb";
    /** Process CPU outside live Java threads and RocksDB's threads: GC, JIT, other native threads. */
    public static final String JVM = "jvm";
    /** Every group, in report order ({@link #JVM} last). */
    public static final List<String> ALL = List.of(BROKER, DEDUP, SCHEDULER, RANKER, FETCHER, FETCHER_IO, WEBSIM,
            OTHER, ROCKSDB, JVM);

    /** Name prefixes of the embedded broker's threads (Kafka 4.4, KRaft combined mode). */
    static final List<String> BROKER_PREFIXES = List.of("kafka-request-handler", "data-plane-kafka",
            "kafka-network-thread", "kafka-scheduler", "kafka-log-cleaner", "kafka-raft", "raft-",
            "quorum-controller", "controller-", "broker-", "ExpirationReaper", "ThrottledChannelReaper",
            "LogDirFailureHandler", "group-coordinator", "share-coordinator", "transaction-", "TxnMarkerSenderThread",
            "kafka-0-", "kafka-1-", "AddPartitionsToTxnSenderThread", "node-", "metrics-meter-tick-thread",
            "feature-", "NodeToControllerChannelManager", "ClientQuotasImageNode", "executor-",
            "kafka-broker-lifecycle-manager", "BrokerLifecycleManager", "ReplicaFetcherThread",
            "ReplicaAlterLogDirsThread", "AlterPartitionManager", "delayed-", "log-", "event-process-thread",
            "remote-", "RemoteLogManager", "kafka-shutdown-hook", "SocketServer", "kafka-", "coordinator-",
            "PersisterStateManager", "ShareGroupDLQSendThread", "share-group-", "client-metrics-reaper",
            "SensorExpiryThread");

    private final String dedup;
    private final String scheduler;
    private final String ranker;
    private final String fetcherGroup;

    /** Rules for the services' default application ids under {@code topicPrefix}. */
    public ThreadGroups(String topicPrefix) {
        this.dedup = topicPrefix + "dedup";
        this.scheduler = topicPrefix + "scheduler";
        this.ranker = topicPrefix + "ranker";
        this.fetcherGroup = topicPrefix + "fetcher";
    }

    /** The group of a Java thread named {@code name}: one of {@link #ALL} except {@link #ROCKSDB} and {@link #JVM}. */
    public String of(String name) {
        if (name == null) {
            return OTHER;
        }
        int bar = name.indexOf("| ");
        String client = bar >= 0 ? name.substring(bar + 2).trim() : null;
        for (String id : new String[] {dedup, scheduler, ranker}) {
            if (owns(id, name) || (client != null && owns(id, client))) {
                return id == dedup ? DEDUP : id == scheduler ? SCHEDULER : RANKER;
            }
        }
        if (name.startsWith("fetcher-io")) {
            return FETCHER_IO;
        }
        if (name.startsWith("fetcher-")) {
            return FETCHER;
        }
        if (client != null) {
            if (owns(fetcherGroup, client) || client.startsWith("consumer-" + fetcherGroup + "-")
                    || isDefaultProducerId(client)) {
                return FETCHER;
            }
            return OTHER; // admin clients, monitor consumers: not the broker, even though named kafka-...
        }
        if (name.startsWith("multiThreadIoEventLoopGroup-") || name.startsWith("websim")) {
            return WEBSIM;
        }
        for (String p : BROKER_PREFIXES) {
            if (name.startsWith(p)) {
                return BROKER;
            }
        }
        return OTHER;
    }

    private static boolean owns(String applicationId, String name) {
        return name.startsWith(applicationId)
                && (name.length() == applicationId.length() || name.charAt(applicationId.length()) == '-');
    }

    private static boolean isDefaultProducerId(String clientId) {
        if (!clientId.startsWith("producer-") || clientId.length() == "producer-".length()) {
            return false;
        }
        for (int i = "producer-".length(); i < clientId.length(); i++) {
            if (!Character.isDigit(clientId.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
