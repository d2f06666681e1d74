package io.github.kcrawler.kafka.embedded;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.coordinator.transaction.TransactionLog;
import org.apache.kafka.coordinator.transaction.TransactionMetadata;
import org.apache.kafka.coordinator.transaction.TransactionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The last state of every transactional producer, read from a <em>stopped</em> broker's transaction log
 * ({@code __transaction_state}) before the broker starts on it. It is what the coordinator had decided for each
 * producer's last transaction when the broker stopped — in particular the outcome of a transaction it was completing
 * ({@code PrepareCommit}: committed, whatever markers it had sent). The restarted coordinator completes such a
 * transaction and may skip partitions while doing so ({@link HangingTransactions}); afterwards its state no longer
 * says what the transaction was, and a client that resumes may have moved it on. Read before the start, the log
 * still does.
 *
 * <p>Bounded: one entry per transactional id; a torn tail (the last batch of an unclean stop) ends the reading of
 * its partition, as the broker's own recovery truncates it.
 */
final class LastTransactions {
    private static final Logger LOG = LoggerFactory.getLogger(LastTransactions.class);
    private static final String TOPIC_DIR_PREFIX = "__transaction_state-";
    private static final Set<TransactionState> COMMITTED = EnumSet.of(TransactionState.PREPARE_COMMIT,
            TransactionState.COMPLETE_COMMIT);

    /** One producer's last transaction as its coordinator logged it. */
    record Last(String transactionalId, long producerId, short producerEpoch, short lastProducerEpoch,
                TransactionState state, Set<TopicPartition> partitions) {

        /**
         * Whether the coordinator decided to commit the transaction that producer {@code epoch} left open on a
         * partition. Only the producer's last transaction can be open without a coordinator to close it: each
         * earlier one was completed, markers and all, before the next could add a partition. Under transaction
         * version 2 the decision carries the next epoch, and the one the data was written with is kept as the last.
         */
        boolean committed(int epoch) {
            return COMMITTED.contains(state) && (producerEpoch == epoch || lastProducerEpoch == epoch);
        }
    }

    private LastTransactions() {
    }

    /** Producer id → its last logged transaction, for every transactional id in {@code logDir}'s transaction log. */
    static Map<Long, Last> read(Path logDir) {
        long t0 = System.nanoTime();
        long bytes = 0;
        Map<String, Last> byTransactionalId = new HashMap<>();
        for (Path partition : partitionDirs(logDir)) {
            for (Path segment : segments(partition)) {
                bytes += segment.toFile().length();
                if (!readSegment(segment, byTransactionalId)) {
                    break;
                }
            }
        }
        Map<Long, Last> out = new HashMap<>();
        byTransactionalId.values().forEach(l -> out.put(l.producerId(), l));
        LOG.info("read the last transaction of {} transactional ids from the transaction log ({} bytes) in {} ms",
                out.size(), bytes, (System.nanoTime() - t0) / 1_000_000);
        return out;
    }

    /** Reads one segment into {@code last}; false when it ended in a torn or unreadable batch. */
    private static boolean readSegment(Path segment, Map<String, Last> last) {
        try (FileRecords records = FileRecords.open(segment.toFile(), false)) {
            for (FileChannelRecordBatch batch : records.batches()) {
                if (!batch.isValid()) {
                    LOG.info("transaction log {} ends in a torn batch at byte {}; read up to there", segment,
                            batch.position());
                    return false;
                }
                if (batch.isControlBatch()) {
                    continue;
                }
                for (Record r : batch) {
                    apply(r, last);
                }
            }
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.warn("cannot read transaction log segment {}: {}", segment, e.toString());
            return false;
        }
    }

    private static void apply(Record r, Map<String, Last> last) {
        if (!r.hasKey()) {
            return;
        }
        TransactionLog.ReadResult result = TransactionLog.read(r.key(), r.hasValue() ? r.value() : null);
        if (result instanceof TransactionLog.TxnRecord rec) {
            TransactionMetadata m = rec.metadata();
            last.put(rec.transactionId(), new Last(rec.transactionId(), m.producerId(), m.producerEpoch(),
                    m.lastProducerEpoch(), m.state(), Set.copyOf(m.topicPartitions())));
        } else if (result instanceof TransactionLog.TxnTombstone tomb) {
            last.remove(tomb.transactionId());
        }
    }

    private static List<Path> partitionDirs(Path logDir) {
        try (Stream<Path> dirs = Files.list(logDir)) {
            return dirs.filter(d -> d.getFileName().toString().startsWith(TOPIC_DIR_PREFIX) && Files.isDirectory(d))
                    .sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The segments of a partition in offset order (their names are the 20-digit base offsets). */
    static List<Path> segments(Path partitionDir) {
        try (Stream<Path> files = Files.list(partitionDir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
