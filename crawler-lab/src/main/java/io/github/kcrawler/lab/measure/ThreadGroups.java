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
 * Threads the JVM does not list are read by their kernel names, where Linux's {@code /proc} offers them
 * ({@link NativeThreadCpu}): RocksDB's native flush and compaction threads are {@code rocksdb} (every store of the
 * process, whichever service it belongs to), HotSpot's JIT compiler threads {@code jit} and its garbage-collector
 * worker threads {@code gc}. Process CPU on no thread of any of these — the VM thread, other native threads,
 * compiler threads that ended between start and stop, Java threads that died between samples — is reported as
 * {@code jvm} by {@link ThreadCpuSampler}.
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
    /** HotSpot's JIT compiler threads ({@code C1 CompilerThreadN}, {@code C2 CompilerThreadN}). */
    public static final String JIT = "jit";
    /** HotSpot's garbage-collector worker threads ({@code GC Thread#N}; G1's concurrent threads too). */
    public static final String GC = "gc";
    /** Process CPU outside every other group: the VM thread, other native threads, threads that ended unseen. */
    public static final String JVM = "jvm";
    /** Every group, in report order ({@link #JVM} last). */
    public static final List<String> ALL = List.of(BROKER, DEDUP, SCHEDULER, RANKER, FETCHER, FETCHER_IO, WEBSIM,
            OTHER, ROCKSDB, JIT, GC, JVM);
    /**
     * The groups read from {@code /proc} by kernel thread name (Linux truncates a name to 15 characters), with the
     * name prefixes of each.
     */
    static final java.util.Map<String, List<String>> NATIVE = java.util.Map.of(
            ROCKSDB, List.of("rocksdb:"),
            JIT, List.of("C1 CompilerThre", "C2 CompilerThre"),
            GC, List.of("GC Thread", "G1 "));

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

    /** The group of a Java thread named {@code name}: one of {@link #ALL} except {@link #NATIVE}'s and {@link #JVM}. */
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
