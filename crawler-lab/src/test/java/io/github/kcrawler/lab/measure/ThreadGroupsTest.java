package io.github.kcrawler.lab.measure;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadGroupsTest {
    private final ThreadGroups groups = new ThreadGroups("");

    @Test
    void streamsThreadsAndTheirClients_belongToTheirService() {
        assertThat(groups.of("dedup-6f1c2a9e-1d2b-4c3d-9e8f-0a1b2c3d4e5f-StreamThread-1")).isEqualTo("dedup");
        assertThat(groups.of("kafka-producer-network-thread | scheduler-6f1c-StreamThread-2-producer"))
                .isEqualTo("scheduler");
        assertThat(groups.of("ranker-6f1c-StateUpdater-1")).isEqualTo("ranker");
        assertThat(groups.of("kafka-coordinator-heartbeat-thread | ranker")).isEqualTo("ranker");
        assertThat(groups.of("kafka-admin-client-thread | dedup-6f1c-admin")).isEqualTo("dedup");
        assertThat(groups.of("dedupx-1-StreamThread-1")).isEqualTo("other");
    }

    @Test
    void topicPrefix_isPartOfTheApplicationId() {
        ThreadGroups prefixed = new ThreadGroups("t1.");
        assertThat(prefixed.of("t1.dedup-6f1c-StreamThread-1")).isEqualTo("dedup");
        assertThat(prefixed.of("dedup-6f1c-StreamThread-1")).isEqualTo("other");
        assertThat(prefixed.of("kafka-coordinator-heartbeat-thread | t1.fetcher")).isEqualTo("fetcher");
    }

    @Test
    void fetcher_itsEventLoopsApart() {
        assertThat(groups.of("fetcher-io-3-1")).isEqualTo("fetcherIo");
        assertThat(groups.of("fetcher-consumer")).isEqualTo("fetcher");
        assertThat(groups.of("fetcher-worker-2")).isEqualTo("fetcher");
        assertThat(groups.of("kafka-producer-network-thread | producer-7")).isEqualTo("fetcher");
        assertThat(groups.of("kafka-coordinator-heartbeat-thread | fetcher")).isEqualTo("fetcher");
        assertThat(groups.of("kafka-producer-network-thread | producer-x")).isEqualTo("other");
    }

    @Test
    void websimBrokerAndTheRest() {
        assertThat(groups.of("multiThreadIoEventLoopGroup-2-1")).isEqualTo("websim");
        assertThat(groups.of("kafka-request-handler-0")).isEqualTo("broker");
        assertThat(groups.of("data-plane-kafka-network-thread-1-ListenerName(PLAINTEXT)-PLAINTEXT-0"))
                .isEqualTo("broker");
        assertThat(groups.of("kafka-raft-io-thread")).isEqualTo("broker");
        assertThat(groups.of("quorum-controller-1-event-handler")).isEqualTo("broker");
        // names seen in a bench e2e run (BenchE2eReportIT with -Dkcrawler.measure.threads=true)
        for (String broker : new String[] {"AddPartitionsToTxnSenderThread-1", "ExpirationReaper-1-Produce",
                "broker-1-lifecycle-manager-event-handler", "controller-1-registration-manager-event-handler",
                "data-plane-kafka-socket-acceptor-PLAINTEXT-PLAINTEXT-43381", "executor-group-coordinator",
                "group-coordinator-event-processor-0", "kafka-1-raft-io-thread", "kafka-log-cleaner-thread-0",
                "metrics-meter-tick-thread-1", "raft-expiration-reaper", "share-coordinator-reaper",
                "transaction-log-manager-0", "TxnMarkerSenderThread-1", "PersisterStateManager",
                "share-group-lock-timeout-reaper", "client-metrics-reaper", "LogDirFailureHandler"}) {
            assertThat(groups.of(broker)).as(broker).isEqualTo("broker");
        }
        assertThat(groups.of("dedup-d69aea99-2178-4bfe-9bf3-87b4e56efea0-CleanupThread")).isEqualTo("dedup");
        assertThat(groups.of("HTTP-Dispatcher")).isEqualTo("other");
        assertThat(groups.of("demo-heap-sampler")).isEqualTo("other");
        assertThat(groups.of("kafka-admin-client-thread | adminclient-3")).isEqualTo("other");
        assertThat(groups.of("main")).isEqualTo("other");
        assertThat(groups.of("crawl-timeline")).isEqualTo("other");
        assertThat(groups.of(null)).isEqualTo("other");
    }
}
