package io.github.kcrawler.kafka.embedded;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A real single-node Kafka cluster (KRaft, combined broker + controller roles) running inside this JVM.
 *
 * <p>Start it with {@link #start(EmbeddedKafkaConfig)}; it listens on {@code 127.0.0.1} only. The first start formats
 * {@code dataDir/logs}; later starts on the same data directory reuse it (same cluster id, node id, topics, records
 * and, unless the caller asks for another one, the same client port, which is remembered in
 * {@code dataDir/embedded-kafka.properties}). {@link #close()} shuts the broker down and waits for it; it is
 * idempotent.
 *
 * <p>It uses Kafka's internal server classes ({@code kafka.server.KafkaRaftServer},
 * {@code org.apache.kafka.metadata.storage.Formatter}), so the Kafka version is pinned by the parent pom.
 *
 * <p>Kafka's server reacts to some fatal faults (e.g. a corrupt metadata log) by halting the JVM
 * ({@code org.apache.kafka.common.utils.Exit.halt}), as a standalone broker would.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

    /** File in the data directory remembering ports, cluster id and node id between starts. */
    public static final String STATE_FILE = "embedded-kafka.properties";
    /** Lock file in the data directory, held while a broker runs on it. */
    public static final String LOCK_FILE = "embedded-kafka.lock";
    /** Kafka log directory (topic data and the KRaft metadata log) inside the data directory. */
    public static final String LOG_DIR = "logs";
    /** Node id used when formatting a new data directory. */
    public static final int DEFAULT_NODE_ID = 1;
    /** Listener names. */
    public static final String CLIENT_LISTENER = "PLAINTEXT";
    /** Name (and protocol) of the client listener when {@link EmbeddedKafkaConfig#sasl()} is set. */
    public static final String SASL_CLIENT_LISTENER = "SASL_PLAINTEXT";
    public static final String CONTROLLER_LISTENER = "CONTROLLER";

    private static final String META_PROPERTIES = "meta.properties";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final int MAX_BIND_ATTEMPTS = 3;
    private static final Duration HANGING_CHECK_TIMEOUT = Duration.ofSeconds(30);

    private final EmbeddedKafkaConfig config;
    private final Path dataDir;
    private final Path logDir;
    private final String clusterId;
    private final int nodeId;
    private final int port;
    private final int controllerPort;
    private final boolean freshlyFormatted;
    private final KafkaRaftServer server;
    private final DataDirLock dataDirLock;
    private final Object lock = new Object();
    private boolean closed;
    /** The hanging transactions this broker closed when it started ({@link HangingTransactions}). */
    private volatile HangingTransactions.Closed closedHanging = HangingTransactions.Closed.NONE;

    private EmbeddedKafkaBroker(EmbeddedKafkaConfig config, Path dataDir, Path logDir, String clusterId, int nodeId,
                                int port, int controllerPort, boolean freshlyFormatted, KafkaRaftServer server,
                                DataDirLock dataDirLock) {
        this.config = config;
        this.dataDir = dataDir;
        this.logDir = logDir;
        this.clusterId = clusterId;
        this.nodeId = nodeId;
        this.port = port;
        this.controllerPort = controllerPort;
        this.freshlyFormatted = freshlyFormatted;
        this.server = server;
        this.dataDirLock = dataDirLock;
    }

    /** Starts a broker on {@code dataDir} with the remembered (or a free) port and default settings. */
    public static EmbeddedKafkaBroker start(Path dataDir) {
        return start(EmbeddedKafkaConfig.of(dataDir));
    }

    /**
     * Formats the data directory if needed, starts the broker and returns once it accepts client requests.
     *
     * @throws IllegalStateException if the broker cannot start (port taken, directory locked by another broker, ...)
     */
    public static EmbeddedKafkaBroker start(EmbeddedKafkaConfig config) {
        long t0 = System.nanoTime();
        Path dataDir = config.dataDir().toAbsolutePath().normalize();
        Path logDir = dataDir.resolve(LOG_DIR);
        try {
            Files.createDirectories(logDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create Kafka data directory " + logDir, e);
        }
        // Kafka locks the log directory only when the broker part starts, after the controller has opened the
        // metadata log, so a second broker on the same directory could touch it: lock the whole data dir first.
        DataDirLock dataDirLock = DataDirLock.acquire(dataDir.resolve(LOCK_FILE));
        try {
            return start(config, dataDir, logDir, dataDirLock, t0);
        } catch (RuntimeException | Error e) {
            dataDirLock.release();
            throw e;
        }
    }

    private static EmbeddedKafkaBroker start(EmbeddedKafkaConfig config, Path dataDir, Path logDir,
                                             DataDirLock dataDirLock, long t0) {
        Properties state = BrokerStateFile.read(dataDir.resolve(STATE_FILE));
        Properties meta = BrokerStateFile.read(logDir.resolve(META_PROPERTIES));

        boolean formatted = meta.containsKey("cluster.id");
        String clusterId = formatted ? meta.getProperty("cluster.id") : Uuid.randomUuid().toString();
        int nodeId = formatted ? Integer.parseInt(meta.getProperty("node.id", String.valueOf(DEFAULT_NODE_ID)).trim())
                : DEFAULT_NODE_ID;

        // what the transaction coordinator had decided when the broker stopped, read while nothing writes the log
        Map<Long, LastTransactions.Last> lastTransactions = formatted ? LastTransactions.read(logDir) : Map.of();
        int storedPort = BrokerStateFile.port(state, "broker.port");
        int storedControllerPort = BrokerStateFile.port(state, "controller.port");

        // client port: the caller's, else the one used last time on this directory, else a free one
        int fixedPort = config.port() != 0 ? config.port() : storedPort;
        if (fixedPort > 0 && !LoopbackPorts.isPortFree(fixedPort)) {
            throw new IllegalStateException(config.port() != 0
                    ? "Kafka port " + fixedPort + " on " + EmbeddedKafkaConfig.LOOPBACK + " is in use"
                    : "Kafka port " + fixedPort + " recorded in " + dataDir.resolve(STATE_FILE) + " is in use by"
                    + " another program. Stop it, pass an explicit port, or delete that file to let the broker pick"
                    + " a new port.");
        }
        RuntimeException last = null;
        for (int attempt = 1; attempt <= MAX_BIND_ATTEMPTS; attempt++) {
            boolean freshPorts = false;
            int port = fixedPort;
            if (port <= 0) {
                port = LoopbackPorts.freePort(-1);
                freshPorts = true;
            }
            // controller port: internal (static voter set), so it may move when the old one is taken
            int controllerPort;
            if (attempt == 1 && storedControllerPort > 0 && storedControllerPort != port
                    && LoopbackPorts.isPortFree(storedControllerPort)) {
                controllerPort = storedControllerPort;
            } else {
                controllerPort = LoopbackPorts.freePort(port);
                freshPorts = true;
            }

            Map<String, String> props = BrokerSettings.of(config, nodeId, port, controllerPort, logDir);
            KafkaConfig kafkaConfig = new KafkaConfig(props, false);
            if (!formatted) {
                BrokerSettings.format(kafkaConfig, clusterId, nodeId, logDir);
                formatted = true;
                LOG.info("Formatted new Kafka log directory {} (cluster id {}, node id {})", logDir, clusterId, nodeId);
            }
            KafkaRaftServer server = null;
            try {
                server = new KafkaRaftServer(kafkaConfig, Time.SYSTEM);
                server.startup();
            } catch (RuntimeException | Error e) {
                if (server != null) {
                    shutdownQuietly(server);
                }
                if (freshPorts && attempt < MAX_BIND_ATTEMPTS && LoopbackPorts.isBindFailure(e)) {
                    LOG.warn("Port race while starting the embedded broker (attempt {}), retrying with new ports", attempt);
                    last = new IllegalStateException(e);
                    continue;
                }
                throw new IllegalStateException("embedded Kafka broker failed to start on " + dataDir + ": " + e, e);
            }
            EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(config, dataDir, logDir, clusterId, nodeId, port,
                    controllerPort, !meta.containsKey("cluster.id"), server, dataDirLock);
            try {
                broker.awaitReady(READY_TIMEOUT);
                BrokerStateFile.write(dataDir, port, controllerPort, clusterId, nodeId);
                if (!broker.freshlyFormatted) {
                    broker.closeHangingTransactions(lastTransactions);
                }
            } catch (RuntimeException e) {
                broker.shutdownServer();
                throw e;
            }
            LOG.info("Embedded Kafka broker ready at {} (data {}, cluster {}) in {} ms", broker.bootstrapServers(),
                    dataDir, clusterId, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
            return broker;
        }
        throw new IllegalStateException("embedded Kafka broker could not bind free ports", last);
    }

    /** The broker settings applied before the caller's overrides ({@link BrokerSettings#defaults()}). */
    public static Map<String, String> defaultBrokerSettings() {
        return BrokerSettings.defaults();
    }

    private void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, Object> adminProps = new LinkedHashMap<>(clientConfig());
        adminProps.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        adminProps.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
        try (Admin admin = Admin.create(adminProps)) {
            while (true) {
                try {
                    Collection<Node> nodes = admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                    if (nodes.stream().anyMatch(n -> n.id() == nodeId)) {
                        return;
                    }
                } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                    LOG.debug("embedded broker not ready yet: {}", e.toString());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the embedded broker", e);
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("embedded Kafka broker at " + bootstrapServers()
                            + " did not become ready within " + timeout);
                }
                sleep(100);
            }
        }
    }

    /** {@code 127.0.0.1:port}, for clients' {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return config.host() + ":" + port;
    }

    /**
     * Minimal client settings: {@code bootstrap.servers}, and with SASL {@code security.protocol},
     * {@code sasl.mechanism} and {@code sasl.jaas.config} for the configured user.
     */
    public Map<String, Object> clientConfig() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        m.putAll(securityConfig());
        return java.util.Collections.unmodifiableMap(m);
    }

    /** The client security settings alone (empty for a PLAINTEXT listener), as {@code kafka.*} overrides take them. */
    public Map<String, String> securityConfig() {
        EmbeddedKafkaConfig.SaslPlain sasl = config.sasl();
        if (sasl == null) {
            return Map.of();
        }
        return Map.of("security.protocol", SASL_CLIENT_LISTENER, "sasl.mechanism", "PLAIN",
                "sasl.jaas.config", sasl.clientJaasConfig());
    }

    public int port() {
        return port;
    }

    public int controllerPort() {
        return controllerPort;
    }

    public String clusterId() {
        return clusterId;
    }

    public int nodeId() {
        return nodeId;
    }

    /** The (absolute) data directory. */
    public Path dataDir() {
        return dataDir;
    }

    /** The Kafka log directory inside the data directory. */
    public Path logDir() {
        return logDir;
    }

    /**
     * After a restart on existing data, before the crawl's services use the broker: closes the transactions the
     * restart left open on a partition with no marker to come ({@link HangingTransactions}), which would otherwise stop
     * every read_committed reader of that partition for good — with a commit marker where the coordinator had
     * committed the transaction ({@code lastTransactions}, read from the log before the start), else an abort marker.
     */
    private void closeHangingTransactions(Map<Long, LastTransactions.Last> lastTransactions) {
        try (Admin admin = Admin.create(clientConfig())) {
            closedHanging = HangingTransactions.closeAll(admin, HangingTransactions.partitionsIn(logDir),
                    lastTransactions, this::writeMarker, HANGING_CHECK_TIMEOUT);
        }
    }

    private void writeMarker(HangingTransactions.OpenTransaction t, boolean commit) throws IOException {
        try (TxnMarkerWriter writer = new TxnMarkerWriter(config.host(), port, config.sasl(), HANGING_CHECK_TIMEOUT)) {
            writer.write(t.partition(), t.producerId(), (short) t.producerEpoch(), t.coordinatorEpoch(), commit);
        }
    }

    /** The partitions whose hanging transaction this broker aborted when it started (usually none). */
    public List<TopicPartition> abortedHangingTransactions() {
        return closedHanging.aborted();
    }

    /** The partitions whose hanging transaction this broker committed when it started (usually none). */
    public List<TopicPartition> committedHangingTransactions() {
        return closedHanging.committed();
    }

    /** True if this start formatted a new data directory, false if it reopened an existing one. */
    public boolean freshlyFormatted() {
        return freshlyFormatted;
    }

    public EmbeddedKafkaConfig config() {
        return config;
    }

    public boolean isRunning() {
        synchronized (lock) {
            return !closed;
        }
    }

    /** Shuts the broker down (controlled shutdown, then the controller) and waits until it has stopped. Idempotent. */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            long t0 = System.nanoTime();
            LOG.info("Stopping embedded Kafka broker at {}", bootstrapServers());
            try {
                shutdownServer();
            } finally {
                dataDirLock.release();
            }
            LOG.info("Embedded Kafka broker at {} stopped in {} ms", bootstrapServers(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        }
    }

    private void shutdownServer() {
        server.shutdown();
        server.awaitShutdown();
    }

    @Override
    public String toString() {
        return "EmbeddedKafkaBroker[" + bootstrapServers() + ", data=" + dataDir + ", cluster=" + clusterId
                + (isRunning() ? "" : ", closed") + "]";
    }

    // ---------------------------------------------------------------------------------------------------------------

    private static void shutdownQuietly(KafkaRaftServer server) {
        try {
            server.shutdown();
            server.awaitShutdown();
        } catch (RuntimeException | Error e) {
            LOG.warn("error while shutting down a broker that failed to start", e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
