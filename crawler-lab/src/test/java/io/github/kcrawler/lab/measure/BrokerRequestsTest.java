package io.github.kcrawler.lab.measure;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** {@link BrokerRequests}: per-page differences of two snapshots; nothing to read without a broker. */
class BrokerRequestsTest {

    @Test
    void perPageFiguresAreTheDifferenceOfTwoSnapshots_byApiAndInTotal() {
        BrokerRequests start = new BrokerRequests(Map.of("Produce", 100L, "Fetch", 50L, "FetchConsumer", 50L),
                Map.of("Produce", 10.0, "Fetch", 5.0));
        BrokerRequests end = new BrokerRequests(Map.of("Produce", 300L, "Fetch", 60L, "FetchConsumer", 60L,
                "EndTxn", 20L), Map.of("Produce", 30.0, "Fetch", 5.0, "EndTxn", 2.0));

        assertThat(BrokerRequests.requestsPerPage(start, end, 100)).as("a fetch counted once in the total")
                .containsExactlyInAnyOrderEntriesOf(Map.of("Produce", 2.0, "Fetch", 0.1, "FetchConsumer", 0.1,
                        "EndTxn", 0.2, "total", 2.3));
        Map<String, Double> local = BrokerRequests.localMsPerPage(start, end, 100);
        assertThat(local).containsOnlyKeys("Produce", "EndTxn", "total");
        assertThat(local.get("total")).isCloseTo(0.22, within(1e-12));
        assertThat(BrokerRequests.requestsPerPage(start, end, 0)).isEmpty();
    }

    @Test
    void withoutABrokerInThisProcessThereIsNothingToRead() {
        BrokerRequests now = BrokerRequests.read();
        assertThat(BrokerRequests.requestsPerPage(now, BrokerRequests.read(), 10)).isEmpty();
    }
}
