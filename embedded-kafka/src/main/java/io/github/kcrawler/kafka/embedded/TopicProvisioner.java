package io.github.kcrawler.kafka.embedded;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Creates topics and waits until they can be written, on any Kafka cluster reachable through an {@link Admin}
 * (the embedded broker or an external cluster given with {@code --bootstrap-servers}).
 *
 * <p>Why the wait: right after a topic is created, an idempotent or transactional producer can stall for good on
 * {@code OUT_OF_ORDER_SEQUENCE_NUMBER} (KAFKA-15591). {@link #awaitWritable} returns only once every partition has a
 * leader and answers {@code ListOffsets(latest)}, after which producing is safe.
 *
 * <p>Failures are unchecked: {@link TopicMismatchException} for an existing topic with another partition count,
 * Kafka's {@link TimeoutException} when the cluster does not answer in time, other {@link org.apache.kafka.common.KafkaException}s
 * as the cluster reported them.
 */
public final class TopicProvisioner {

    private static final Logger LOG = LoggerFactory.getLogger(TopicProvisioner.class);

    /** Default time allowed for creating topics and for them to become writable. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private static final long RETRY_BACKOFF_MS = 100;

    private TopicProvisioner() {
    }

    /** An existing topic does not have the partition count asked for. */
    public static final class TopicMismatchException extends IllegalStateException {
        private final String topic;
        private final int expectedPartitions;
        private final int actualPartitions;

        public TopicMismatchException(String topic, int expectedPartitions, int actualPartitions) {
            super("topic '" + topic + "' already exists with " + actualPartitions + " partitions but "
                    + expectedPartitions + " were requested; all crawler topics must have the same partition count"
                    + " (they are co-partitioned by host IP). Use the existing count, or delete the topic (and the"
                    + " state derived from it) to change it.");
            this.topic = topic;
            this.expectedPartitions = expectedPartitions;
            this.actualPartitions = actualPartitions;
        }

        public String topic() {
            return topic;
        }

        public int expectedPartitions() {
            return expectedPartitions;
        }

        public int actualPartitions() {
            return actualPartitions;
        }
    }

    /** {@link #ensureTopics(Admin, Collection, Duration)} with {@link #DEFAULT_TIMEOUT}. */
    public static Set<String> ensureTopics(Admin admin, Collection<NewTopic> topics) {
        return ensureTopics(admin, topics, DEFAULT_TIMEOUT);
    }

    /**
     * Creates the topics that do not exist yet, checks that existing ones have the requested partition count,
     * and waits until all of them are writable.
     *
     * @return the names of the topics this call created
     * @throws TopicMismatchException if an existing topic has another partition count than requested
     * @throws TimeoutException       if the cluster did not get there within {@code timeout}
     */
    public static Set<String> ensureTopics(Admin admin, Collection<NewTopic> topics, Duration timeout) {
        long deadline = deadline(timeout);
        Set<String> created = createMissing(admin, topics, timeout);
        Map<String, TopicDescription> descriptions = describeWithRetry(admin, names(topics), deadline, timeout);
        verifyPartitionCounts(topics, descriptions);
        awaitWritable(admin, names(topics), remaining(deadline));
        return created;
    }

    /**
     * Sends one {@code CreateTopics} request for all topics and ignores {@link TopicExistsException}s.
     *
     * @return the names of the topics that were created by this call
     */
    public static Set<String> createMissing(Admin admin, Collection<NewTopic> topics, Duration timeout) {
        Set<String> created = new LinkedHashSet<>();
        if (topics.isEmpty()) {
            return created;
        }
        Map<String, NewTopic> unique = new LinkedHashMap<>();
        for (NewTopic t : topics) {
            NewTopic previous = unique.putIfAbsent(t.name(), t);
            if (previous != null && !previous.equals(t)) {
                throw new IllegalArgumentException("topic '" + t.name() + "' requested twice with different settings");
            }
        }
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
        Map<String, KafkaFuture<Void>> futures = admin.createTopics(unique.values(),
                new CreateTopicsOptions().timeoutMs(timeoutMs)).values();
        for (Map.Entry<String, KafkaFuture<Void>> e : futures.entrySet()) {
            try {
                e.getValue().get(timeout.toMillis() + 5000, TimeUnit.MILLISECONDS);
                created.add(e.getKey());
            } catch (ExecutionException ex) {
                if (ex.getCause() instanceof TopicExistsException) {
                    LOG.debug("topic {} exists", e.getKey());
                } else {
                    throw wrap("cannot create topic '" + e.getKey() + "'", ex.getCause());
                }
            } catch (java.util.concurrent.TimeoutException ex) {
                throw new TimeoutException("creating topic '" + e.getKey() + "' took longer than " + timeout);
            } catch (InterruptedException ex) {
                throw new InterruptException(ex);
            }
        }
        if (!created.isEmpty()) {
            LOG.info("Created topics {}", created);
        }
        return created;
    }

    /**
     * Checks that every requested topic with an explicit partition count has exactly that many partitions.
     *
     * @throws TopicMismatchException on the first mismatch
     */
    public static void verifyPartitionCounts(Collection<NewTopic> topics, Map<String, TopicDescription> descriptions) {
        for (NewTopic t : topics) {
            TopicDescription d = descriptions.get(t.name());
            if (d == null) {
                throw new IllegalStateException("topic '" + t.name() + "' was not described by the cluster");
            }
            if (t.numPartitions() > 0 && d.partitions().size() != t.numPartitions()) {
                throw new TopicMismatchException(t.name(), t.numPartitions(), d.partitions().size());
            }
        }
    }

    /** Partition count of every given topic, waiting (up to {@code timeout}) for topics that the cluster does not know yet. */
    public static Map<String, Integer> partitionCounts(Admin admin, Collection<String> topics, Duration timeout) {
        Map<String, Integer> counts = new TreeMap<>();
        describeWithRetry(admin, topics, deadline(timeout), timeout)
                .forEach((name, d) -> counts.put(name, d.partitions().size()));
        return counts;
    }

    /**
     * Waits until every partition of the given topics has a leader and answers {@code ListOffsets(latest)}: the
     * workaround for KAFKA-15591 (a producer stalling on {@code OUT_OF_ORDER_SEQUENCE_NUMBER} right after topic
     * creation). Call it after creating topics and before producing to them.
     *
     * @return the latest (end) offset of every partition
     * @throws TimeoutException if some partition is still not ready after {@code timeout}
     */
    public static Map<TopicPartition, Long> awaitWritable(Admin admin, Collection<String> topics, Duration timeout) {
        long t0 = System.nanoTime();
        long deadline = deadline(timeout);
        Set<String> names = new LinkedHashSet<>(topics);
        if (names.isEmpty()) {
            return Map.of();
        }
        String lastProblem = "no answer yet";
        while (true) {
            try {
                Map<TopicPartition, Long> offsets = tryListLatestOffsets(admin, names, remaining(deadline));
                if (offsets != null) {
                    LOG.debug("topics {} writable after {} ms", names, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
                    return offsets;
                }
                lastProblem = "a partition has no leader yet";
            } catch (RetriableException | java.util.concurrent.TimeoutException e) {
                lastProblem = e.toString();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("topics " + names + " did not become writable within " + timeout
                        + " (last problem: " + lastProblem + ")");
            }
            sleep(RETRY_BACKOFF_MS);
        }
    }

    /**
     * Leader (broker id) of every partition of the given topics; {@code -1} for a partition without a leader.
     */
    public static Map<TopicPartition, Integer> describeLeaders(Admin admin, Collection<String> topics, Duration timeout) {
        Map<TopicPartition, Integer> leaders = new LinkedHashMap<>();
        describeWithRetry(admin, topics, deadline(timeout), timeout).forEach((name, d) -> {
            for (TopicPartitionInfo p : d.partitions()) {
                leaders.put(new TopicPartition(name, p.partition()), p.leader() == null ? -1 : p.leader().id());
            }
        });
        return leaders;
    }

    /** Returns end offsets, or null if some partition has no leader yet; throws retriable exceptions to retry. */
    private static Map<TopicPartition, Long> tryListLatestOffsets(Admin admin, Set<String> names, Duration budget)
            throws java.util.concurrent.TimeoutException {
        long waitMs = Math.max(500, Math.min(budget.toMillis(), 10_000));
        Map<String, TopicDescription> descriptions = get(admin.describeTopics(names,
                        new DescribeTopicsOptions().timeoutMs((int) waitMs)).allTopicNames(), waitMs,
                "describe topics " + names);
        Map<TopicPartition, OffsetSpec> request = new LinkedHashMap<>();
        for (TopicDescription d : descriptions.values()) {
            for (TopicPartitionInfo p : d.partitions()) {
                if (p.leader() == null || p.leader().id() < 0 || p.leader().isEmpty()) {
                    return null;
                }
                request.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest());
            }
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> answers = get(admin.listOffsets(request,
                new ListOffsetsOptions().timeoutMs((int) waitMs)).all(), waitMs, "list offsets of " + names);
        Map<TopicPartition, Long> offsets = new TreeMap<>((a, b) -> a.topic().equals(b.topic())
                ? Integer.compare(a.partition(), b.partition()) : a.topic().compareTo(b.topic()));
        for (TopicPartition tp : request.keySet()) {
            ListOffsetsResult.ListOffsetsResultInfo info = answers.get(tp);
            if (info == null || info.offset() < 0) {
                return null;
            }
            offsets.put(tp, info.offset());
        }
        return offsets;
    }

    private static Map<String, TopicDescription> describeWithRetry(Admin admin, Collection<String> topics,
                                                                   long deadline, Duration timeout) {
        Set<String> names = new LinkedHashSet<>(topics);
        String lastProblem = "no answer yet";
        while (true) {
            long waitMs = Math.max(500, Math.min(TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()), 10_000));
            try {
                return get(admin.describeTopics(names, new DescribeTopicsOptions().timeoutMs((int) waitMs))
                        .allTopicNames(), waitMs, "describe topics " + names);
            } catch (RetriableException | java.util.concurrent.TimeoutException e) {
                // includes UnknownTopicOrPartitionException while metadata propagates
                lastProblem = e.toString();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("cannot describe topics " + names + " within " + timeout
                        + " (last problem: " + lastProblem + ")");
            }
            sleep(RETRY_BACKOFF_MS);
        }
    }

    /** Waits for a future; unwraps {@link ExecutionException} so that retriable Kafka errors can be retried. */
    private static <T> T get(KafkaFuture<T> future, long waitMs, String what) throws java.util.concurrent.TimeoutException {
        try {
            return future.get(waitMs + 2000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RetriableException) {
                throw (RetriableException) cause;
            }
            throw wrap("cannot " + what, cause);
        } catch (InterruptedException e) {
            throw new InterruptException(e);
        }
    }

    private static RuntimeException wrap(String message, Throwable cause) {
        if (cause instanceof org.apache.kafka.common.KafkaException) {
            // say what we were doing; the Kafka error (e.g. InvalidReplicationFactorException) stays the cause
            return new org.apache.kafka.common.KafkaException(message + ": " + cause, cause);
        }
        return new IllegalStateException(message + ": " + cause, cause);
    }

    private static List<String> names(Collection<NewTopic> topics) {
        List<String> names = new ArrayList<>(topics.size());
        for (NewTopic t : topics) {
            if (!names.contains(t.name())) {
                names.add(t.name());
            }
        }
        return names;
    }

    private static long deadline(Duration timeout) {
        return System.nanoTime() + timeout.toNanos();
    }

    private static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new InterruptException(e);
        }
    }
}
