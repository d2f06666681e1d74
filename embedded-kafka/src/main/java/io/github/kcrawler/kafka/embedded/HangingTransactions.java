package io.github.kcrawler.kafka.embedded;

import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds and closes <em>hanging</em> transactions after the embedded broker restarts on existing data (KIP-664: a
 * partition holds an open transaction that its coordinator no longer counts as open, so no marker will ever close it).
 *
 * <h2>Why a single-node restart leaves them</h2>
 * When the broker is killed while a transaction is between {@code PrepareCommit} and {@code CompleteCommit}, the
 * restarted transaction coordinator resends its markers. In Kafka 4.4 its marker channel skips every partition whose
 * leader it cannot resolve at that moment ("these partitions are likely deleted already and hence can be skipped",
 * {@code TransactionMarkerChannelManager}); right after a single-node restart that can be all of them, and the
 * coordinator writes {@code CompleteCommit} anyway. Seen in {@code RestartWithoutLossIT} (CI, 2026-11-27): the
 * fetcher's last transaction had no marker on any of its 13 partitions — {@code crawl.fetch.results} and the group's
 * {@code __consumer_offsets} partition among them — so every read_committed reader stopped at the open batch and
 * the fetcher could not read its committed offsets: the resumed crawl fetched nothing, for good.
 *
 * <h2>What is closed, and how</h2>
 * A transaction open on partition p (by {@code describeProducers}, twice, with the same start offset) is hanging
 * when its coordinator does not list p among the partitions of an open transaction ({@code Ongoing} or a
 * {@code Prepare…} state whose markers are still being sent) of that producer id and epoch — or does not know the
 * producer id at all. Each such partition gets the marker its coordinator had decided:
 * <ul>
 *   <li><b>commit</b> when the producer's last transaction in the transaction log <em>before the restart</em>
 *       ({@link LastTransactions}) was being or had been committed at that epoch. Only the last transaction can be
 *       left open on a partition (each earlier one was completed, markers and all, before the next could add a
 *       partition), so this is the transaction whose offsets were committed elsewhere: its records on p must be
 *       committed too, or they are lost while their inputs count as consumed. The Admin API writes only abort
 *       markers, so the commit marker is sent as the coordinator sends it ({@link TxnMarkerWriter}).</li>
 *   <li><b>abort</b> otherwise: the transaction was never decided (aborting every partition of a transaction is
 *       what an aborted exactly-once transaction looks like to all of its readers — results and consumer offsets
 *       dropped together, the producer's inputs processed again), or its producer id is unknown.</li>
 * </ul>
 * A partition whose marker cannot be written is logged and left; the others are still closed.
 *
 * <h2>Only what stays open</h2>
 * A transaction that its restarted coordinator is still completing looks the same for a moment: open on the
 * partition, and closed or not yet loaded at the coordinator. Aborting its partitions then races the coordinator's
 * own markers, and a transaction the coordinator commits on some partitions and the check aborts on others loses its
 * outputs while its inputs count as consumed. CI saw this twice on 2026-11-29: {@code RestartWithoutLossIT}
 * left 31 pages unfetched after the check had aborted partitions of producer 0 and the coordinator then wrote a
 * marker of its own to {@code __consumer_offsets-0} (the check's next abort there was refused as fenced), and
 * {@code FaultsIT} lost 4 URLs after the broker's SIGKILL. So the check first waits {@link #SETTLE} for the
 * coordinator to finish what it can, and only then reads the coordinators' view and the partitions again. A
 * hanging transaction stays open for ever, so the wait costs a restart on unclean data a few seconds and misses
 * nothing.
 *
 * <p>Run before the crawl's services start on this broker. A client of another process (a fault test's services)
 * may resume a transaction meanwhile: a partition it adds is listed open at its coordinator and left alone.
 */
final class HangingTransactions {
    private static final Logger LOG = LoggerFactory.getLogger(HangingTransactions.class);
    /** How long an open transaction found after a restart is left to its coordinator before it is judged. */
    static final Duration SETTLE = Duration.ofSeconds(5);
    private static final Pattern PARTITION_DIR = Pattern.compile("(.+)-(\\d+)");
    private static final Set<TransactionState> OPEN = EnumSet.of(TransactionState.ONGOING,
            TransactionState.PREPARE_COMMIT, TransactionState.PREPARE_ABORT, TransactionState.PREPARE_EPOCH_FENCE);

    /** An open transaction on one partition, as the partition's leader reports it. */
    record OpenTransaction(TopicPartition partition, long producerId, int producerEpoch, int coordinatorEpoch,
                           long startOffset) {
    }

    private HangingTransactions() {
    }

    /** Writes the marker that ends an open transaction on its partition: commit or abort. */
    @FunctionalInterface
    interface MarkerWriter {
        void write(OpenTransaction t, boolean commit) throws Exception;
    }

    /** The partitions whose hanging transaction was committed and aborted. */
    record Closed(List<TopicPartition> committed, List<TopicPartition> aborted) {
        static final Closed NONE = new Closed(List.of(), List.of());

        Closed {
            committed = List.copyOf(committed);
            aborted = List.copyOf(aborted);
        }
    }

    /**
     * Closes the hanging transactions of every partition of the cluster (internal topics included), once the broker's
     * metadata lists every partition of {@code expected} (the ones found in its log directory) with a leader.
     *
     * @param last each producer id's last transaction in the transaction log before the restart
     */
    static Closed closeAll(Admin admin, Set<TopicPartition> expected, Map<Long, LastTransactions.Last> last,
                           MarkerWriter markers, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            Set<TopicPartition> partitions = ledPartitions(admin, expected, deadline);
            List<OpenTransaction> first = open(admin, partitions, deadline);
            if (first.isEmpty()) {
                LOG.info("hanging-transaction check: no transaction open on any of {} partitions after the restart",
                        partitions.size());
                return Closed.NONE;
            }
            Thread.sleep(Math.min(SETTLE.toMillis(), TimeUnit.NANOSECONDS.toMillis(remaining(deadline)) / 2));
            Map<Long, TransactionDescription> coordinatorView = describe(admin, first, deadline);
            Set<OpenTransaction> still = new HashSet<>(open(admin, partitions(first), deadline));
            List<TopicPartition> committed = new ArrayList<>();
            List<TopicPartition> aborted = new ArrayList<>();
            int hanging = 0;
            for (OpenTransaction t : first) {
                if (!still.contains(t) || !isHanging(t, coordinatorView.get(t.producerId()))) {
                    continue;
                }
                hanging++;
                LastTransactions.Last l = last.get(t.producerId());
                boolean commit = l != null && l.committed(t.producerEpoch());
                try {
                    markers.write(t, commit);
                } catch (Exception e) {
                    LOG.error("could not {} the hanging transaction on {} (producer id {}, epoch {}): {};"
                            + " read_committed readers of that partition stop at offset {}",
                            commit ? "commit" : "abort", t.partition(), t.producerId(), t.producerEpoch(),
                            e.toString(), t.startOffset());
                    continue;
                }
                (commit ? committed : aborted).add(t.partition());
                LOG.warn("{} a hanging transaction on {} (producer id {}, epoch {}, open since offset {}): its"
                        + " coordinator had closed it without a marker on this partition after the restart; {}",
                        commit ? "committed" : "aborted", t.partition(), t.producerId(), t.producerEpoch(),
                        t.startOffset(), commit ? "it had committed it (transaction log before the restart: "
                                + l.state() + ")" : "its work is redone by its producer's service");
            }
            LOG.info("hanging-transaction check: {} transactions open on a partition after the restart, {} of them"
                    + " closed or still open at their coordinators {} ms later, {} hanging: {} committed, {} aborted",
                    first.size(), first.size() - hanging, SETTLE.toMillis(), hanging, committed.size(),
                    aborted.size());
            return new Closed(committed, aborted);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Closed.NONE;
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("could not check for hanging transactions after the restart ({}); read_committed readers may"
                    + " stall on a partition whose transaction was closed without a marker", e.toString());
            return Closed.NONE;
        }
    }

    /**
     * The partitions whose logs are in a broker's log directory, from the directory names ({@code topic-N}; those being
     * deleted or moved carry a suffix and are left out, as is the metadata log).
     */
    static Set<TopicPartition> partitionsIn(Path logDir) {
        Set<TopicPartition> out = new HashSet<>();
        try (Stream<Path> dirs = Files.list(logDir)) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                Matcher m = PARTITION_DIR.matcher(d.getFileName().toString());
                if (Files.isDirectory(d) && m.matches() && !m.group(1).equals("__cluster_metadata")) {
                    out.add(new TopicPartition(m.group(1), Integer.parseInt(m.group(2))));
                }
            }
        } catch (IOException e) {
            LOG.debug("cannot list {}: {}", logDir, e.toString());
        }
        return out;
    }

    /**
     * Whether the coordinator's view ({@code null}: it does not know the producer id) leaves {@code t} without anyone
     * to close it.
     */
    static boolean isHanging(OpenTransaction t, TransactionDescription coordinator) {
        if (coordinator == null) {
            return true;
        }
        boolean open = OPEN.contains(coordinator.state()) && coordinator.producerEpoch() == t.producerEpoch()
                && coordinator.topicPartitions().contains(t.partition());
        // a fenced epoch whose coordinator is still sending the markers keeps the old epoch on the partition
        boolean fencing = coordinator.state() == TransactionState.PREPARE_EPOCH_FENCE
                && coordinator.topicPartitions().contains(t.partition());
        return !open && !fencing;
    }

    /**
     * Every partition of the cluster, once each has a leader and every expected one is listed. Right after a restart
     * the broker answers before its metadata has caught up and before it has been unfenced and elected leader again:
     * checked then, a partition is missing or reports no producers, and its hanging transaction is missed (CI,
     * 2026-11-28: the check found nothing 0.2 s after a restart).
     */
    private static Set<TopicPartition> ledPartitions(Admin admin, Set<TopicPartition> expected, long deadline)
            throws InterruptedException, ExecutionException, TimeoutException {
        while (true) {
            Set<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true)).names()
                    .get(remaining(deadline), TimeUnit.NANOSECONDS);
            Set<TopicPartition> out = new HashSet<>();
            boolean allLed = true;
            for (TopicDescription d : admin.describeTopics(topics).allTopicNames()
                    .get(remaining(deadline), TimeUnit.NANOSECONDS).values()) {
                for (TopicPartitionInfo p : d.partitions()) {
                    out.add(new TopicPartition(d.name(), p.partition()));
                    allLed &= p.leader() != null && p.leader().id() >= 0;
                }
            }
            if (allLed && out.containsAll(expected)) {
                return out;
            }
            Thread.sleep(Math.min(100, Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining(deadline)))));
        }
    }

    private static Set<TopicPartition> partitions(Collection<OpenTransaction> open) {
        Set<TopicPartition> out = new HashSet<>();
        open.forEach(t -> out.add(t.partition()));
        return out;
    }

    /** The open transactions of {@code partitions}, by their leaders. */
    static List<OpenTransaction> open(Admin admin, Set<TopicPartition> partitions, long deadline)
            throws InterruptedException, ExecutionException, TimeoutException {
        List<OpenTransaction> out = new ArrayList<>();
        if (partitions.isEmpty()) {
            return out;
        }
        Map<TopicPartition, PartitionProducerState> states;
        while (true) {
            try {
                states = admin.describeProducers(partitions).all().get(remaining(deadline), TimeUnit.NANOSECONDS);
                break;
            } catch (ExecutionException e) { // a leader still loading its log: asked again until the deadline
                LOG.debug("producers not described yet: {}", e.toString());
                Thread.sleep(100);
                remaining(deadline);
            }
        }
        states.forEach((tp, state) -> {
            for (ProducerState p : state.activeProducers()) {
                if (p.currentTransactionStartOffset().isPresent()) {
                    out.add(new OpenTransaction(tp, p.producerId(), p.producerEpoch(),
                            p.coordinatorEpoch().orElse(-1), p.currentTransactionStartOffset().getAsLong()));
                }
            }
        });
        return out;
    }

    /** The coordinators' view of the producers of {@code open}: producer id → its transaction (absent: unknown). */
    private static Map<Long, TransactionDescription> describe(Admin admin, List<OpenTransaction> open, long deadline)
            throws InterruptedException, ExecutionException, TimeoutException {
        Set<Long> ids = new HashSet<>();
        open.forEach(t -> ids.add(t.producerId()));
        Collection<TransactionListing> listings = admin.listTransactions(new ListTransactionsOptions()
                .filterProducerIds(ids)).all().get(remaining(deadline), TimeUnit.NANOSECONDS);
        Set<String> transactionalIds = new HashSet<>();
        listings.forEach(l -> transactionalIds.add(l.transactionalId()));
        Map<Long, TransactionDescription> out = new HashMap<>();
        if (transactionalIds.isEmpty()) {
            return out;
        }
        for (TransactionDescription d : admin.describeTransactions(transactionalIds).all()
                .get(remaining(deadline), TimeUnit.NANOSECONDS).values()) {
            out.put(d.producerId(), d);
        }
        return out;
    }

    private static long remaining(long deadline) throws TimeoutException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new TimeoutException("hanging-transaction check ran out of time");
        }
        return left;
    }
}
