package io.github.kcrawler.fetcher;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchRequest;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static io.github.kcrawler.fetcher.HostileServer.html;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fetch request Kafka delivers to this instance a second time — its partition left and came back before the
 * offset was committed — while the first delivery is still in flight here: the pipeline waits for the first one and
 * fetches the page again only if that one gave up. Real pipeline and a real loopback server; no Kafka.
 */
class RedeliveryTest {
    private static final TopicPartition P0 = new TopicPartition("req", 0);

    @Test
    void aRequestDeliveredAgainIsNotFetchedWhenItsEarlierDeliveryFinishes() throws Exception {
        try (HostileServer server = new HostileServer("127.0.0.1"); PipelineHarness h = new PipelineHarness(Map.of())) {
            server.on("/page", html("page"));
            OffsetTracker.Slot again = redeliveredWhileInFlight(new OffsetTracker());
            OffsetTracker.Slot first = again.earlier();
            h.pipeline.submit(job(server, again));

            TimeUnit.MILLISECONDS.sleep(300);
            assertThat(server.hits("/page")).as("waits for the earlier delivery").isZero();
            assertThat(again.isDone()).isFalse();

            first.done(); // its results reached Kafka
            await(again::isDone);
            assertThat(server.hits("/page")).as("no second fetch").isZero();
            assertThat(h.results).isEmpty();
            assertThat(h.registry.get("crawler.fetch.redelivered.skipped").counter().count()).isEqualTo(1);
        }
    }

    @Test
    void aRequestDeliveredAgainIsFetchedWhenItsEarlierDeliveryGivesUp() throws Exception {
        try (HostileServer server = new HostileServer("127.0.0.1"); PipelineHarness h = new PipelineHarness(Map.of())) {
            server.on("/page", html("page"));
            OffsetTracker.Slot again = redeliveredWhileInFlight(new OffsetTracker());
            h.pipeline.submit(job(server, again));
            TimeUnit.MILLISECONDS.sleep(100);
            assertThat(server.hits("/page")).isZero();

            again.earlier().gaveUp(); // e.g. its results could not be produced
            await(() -> h.results.size() == 1);
            assertThat(server.hits("/page")).isEqualTo(1);
            assertThat(h.results.get(0).outcome()).isEqualTo(FetchOutcome.OK);
            await(again::isDone); // acknowledged right after the sink took the result
            assertThat(h.registry.get("crawler.fetch.redelivered.skipped").counter().count()).isZero();
        }
    }

    @Test
    void aRequestAnsweredByItsEarlierDeliverysResultsIsNotFetched() throws Exception {
        try (HostileServer server = new HostileServer("127.0.0.1"); PipelineHarness h = new PipelineHarness(Map.of())) {
            server.on("/page", html("page"));
            OffsetTracker.Slot again = redeliveredWhileInFlight(new OffsetTracker());
            String url = job(server, again).request.url();
            h.pipeline.submit(job(server, again));
            TimeUnit.MILLISECONDS.sleep(100);
            assertThat(h.abandoned).isEmpty();

            // the earlier delivery's results became ready after its partition had left: the consumer thread gives
            // them this slot (TransactionalOutput), and their transaction will finish it
            again.answered();
            await(() -> h.abandoned.contains(url));
            TimeUnit.MILLISECONDS.sleep(100);
            assertThat(server.hits("/page")).as("no second fetch").isZero();
            assertThat(h.results).isEmpty();
            assertThat(again.isDone()).as("done only once the transaction commits").isFalse();
            assertThat(again.hasGivenUp()).isFalse();
            assertThat(again.earlier().hasGivenUp()).isFalse();
        }
    }

    @Test
    void aWaitingRequestWhosePartitionLeavesAgainIsDroppedUnsent() throws Exception {
        try (HostileServer server = new HostileServer("127.0.0.1"); PipelineHarness h = new PipelineHarness(Map.of())) {
            server.on("/page", html("page"));
            OffsetTracker tracker = new OffsetTracker();
            OffsetTracker.Slot again = redeliveredWhileInFlight(tracker);
            h.pipeline.submit(job(server, again));
            tracker.remove(List.of(P0));
            await(again::hasGivenUp);
            again.earlier().done();
            TimeUnit.MILLISECONDS.sleep(100);
            assertThat(server.hits("/page")).isZero();
            assertThat(again.isDone()).as("its next owner decides").isFalse();
        }
    }

    /** Offset 7 delivered, handed to the pipeline, its partition lost, then delivered again to the same tracker. */
    private static OffsetTracker.Slot redeliveredWhileInFlight(OffsetTracker tracker) {
        OffsetTracker.Slot first = tracker.add(P0, 7);
        first.started();
        tracker.remove(List.of(P0));
        OffsetTracker.Slot again = tracker.add(P0, 7);
        again.started();
        assertThat(again.earlier()).isSameAs(first);
        return again;
    }

    private static FetchJob job(HostileServer server, OffsetTracker.Slot slot) {
        String url = "http://127.0.0.1:" + server.port() + "/page";
        return new FetchJob("127.0.0.1", FetchRequest.fresh(url, Fingerprints.url(url), 0, 1, 0), slot);
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 10 s").isLessThan(deadline);
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }
}
