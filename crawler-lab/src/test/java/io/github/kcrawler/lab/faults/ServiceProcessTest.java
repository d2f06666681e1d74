package io.github.kcrawler.lab.faults;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A real child process (the shell) writing a service-like log across two starts. */
class ServiceProcessTest {
    @TempDir
    Path dir;

    @Test
    void theDiagnosisShowsTheLatestStartsLastWarningsAndErrorsAndItsLastLines() throws Exception {
        String script = "if [ -f " + dir.resolve("second") + " ]; then "
                + "echo '10:00:01.000 WARN  x.Fetcher - offset commit failed'; "
                + "echo '10:00:02.000 ERROR x.Streams - stream thread failed'; "
                + "echo 'java.lang.IllegalStateException: boom'; "
                + "echo '10:00:03.000 INFO  x.Main - exiting'; "
                + "else touch " + dir.resolve("second") + "; echo '09:00:00.000 WARN  x.Old - before the restart'; fi";
        ServiceProcess p = new ServiceProcess("svc", List.of("sh", "-c", script), dir.resolve("logs"), 1);
        p.start();
        awaitExit(p);
        p.start();
        awaitExit(p);

        String d = p.diagnosis(2);

        assertThat(d).contains("svc (not running)", "healthy false", dir.resolve("logs").resolve("svc.log").toString())
                .contains("3 warning and error lines since its latest start, the last 2:\n"
                        + "    10:00:02.000 ERROR x.Streams - stream thread failed\n"
                        + "    java.lang.IllegalStateException: boom\n")
                .contains("last lines:\n    java.lang.IllegalStateException: boom\n"
                        + "    10:00:03.000 INFO  x.Main - exiting\n")
                .doesNotContain("before the restart");
    }

    @Test
    void longLinesAreClipped() throws Exception {
        ServiceProcess p = new ServiceProcess("svc", List.of("sh", "-c",
                "printf '10:00:00.000 ERROR x - '; yes a | head -n 5000 | tr -d '\\n'; echo"), dir, 1);
        p.start();
        awaitExit(p);

        assertThat(p.diagnosis(5).lines()).allSatisfy(l -> assertThat(l.length()).isLessThan(420))
                .anySatisfy(l -> assertThat(l).endsWith("a …"));
    }

    @Test
    void theStallSummaryKeepsWhatDidNotRecoverEachProcessAndItsErrors() {
        String console = String.join("\n",
                "  SIGKILL ranker     at   42.7 s (373 pages): running again at   42.8 s, recovered at   48.4 s",
                "  broker did not recover within PT3M (not running: [scheduler])",
                "---- scheduler (not running), healthy false, log /x/scheduler.log",
                "  2 warning and error lines since its latest start, the last 2:",
                "    10:00:01.000 WARN  o.a.k.c.NetworkClient - connection to node 1 could not be established",
                "    10:00:02.000 ERROR i.g.k.c.s.StreamThreadFailures - scheduler stream thread failed",
                "    org.apache.kafka.common.errors.InvalidTxnStateException: the transaction is not ongoing",
                "  last lines:",
                "    10:00:03.000 INFO  i.g.k.s.SchedulerMain - exiting",
                "---- broker (pid 7), healthy true, log /x/broker.log",
                "  last lines:",
                "    READY 127.0.0.1:9092");

        assertThat(FaultCluster.stallSummary(console, 40)).isEqualTo(String.join("\n",
                "broker did not recover within PT3M (not running: [scheduler])",
                "---- scheduler (not running), healthy false, log /x/scheduler.log",
                "10:00:02.000 ERROR i.g.k.c.s.StreamThreadFailures - scheduler stream thread failed",
                "org.apache.kafka.common.errors.InvalidTxnStateException: the transaction is not ongoing",
                "---- broker (pid 7), healthy true, log /x/broker.log"));
        assertThat(FaultCluster.stallSummary(console, 2)).endsWith("… 3 more lines in the output above");
        assertThat(FaultCluster.stallSummary("  SIGKILL dedup at 8.1 s: recovered at 11.2 s", 40))
                .isEqualTo("(no diagnosis printed)");
    }

    @Test
    void theFetchersOwnershipLinesExplainDuplicatesInAFailureMessage() throws Exception {
        Path run = dir.resolve("run");
        java.nio.file.Files.createDirectories(run.resolve("logs"));
        java.nio.file.Files.write(run.resolve("logs").resolve("fetcher-1.log"), List.of(
                "===== start 1 of fetcher-1 =====",
                "10:00:01.000 INFO  i.g.k.f.FetcherService - fetcher started",
                "10:00:02.000 WARN  i.g.k.f.OwnershipGate - fetcher transaction aborted",
                "10:00:02.100 INFO  i.g.k.f.ConsumerLoop - fetcher ownership of [p-0] confirmed"));
        java.nio.file.Files.write(run.resolve("logs").resolve("fetcher-2.log"), List.of(
                "10:00:03.000 WARN  i.g.k.f.OwnershipGate - the fetcher consumer was paused for 12059 ms"));
        java.nio.file.Files.write(run.resolve("logs").resolve("scheduler.log"), List.of(
                "10:00:03.000 WARN  i.g.k.f.OwnershipGate - not a fetcher's log"));

        assertThat(FaultCluster.fetcherOwnershipLines(run, 10)).isEqualTo(String.join("\n",
                "fetcher-1.log: ===== start 1 of fetcher-1 =====",
                "fetcher-1.log: 10:00:02.000 WARN  i.g.k.f.OwnershipGate - fetcher transaction aborted",
                "fetcher-1.log: 10:00:02.100 INFO  i.g.k.f.ConsumerLoop - fetcher ownership of [p-0] confirmed",
                "fetcher-2.log: 10:00:03.000 WARN  i.g.k.f.OwnershipGate - the fetcher consumer was paused for 12059 ms"));
        assertThat(FaultCluster.fetcherOwnershipLines(run, 1)).isEqualTo(String.join("\n",
                "… 3 earlier lines in " + run.resolve("logs"),
                "fetcher-2.log: 10:00:03.000 WARN  i.g.k.f.OwnershipGate - the fetcher consumer was paused for 12059 ms"));
        assertThat(FaultCluster.fetcherOwnershipLines(dir.resolve("none"), 10)).startsWith("(fetcher logs not readable");
    }

    private static void awaitExit(ServiceProcess p) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(p.isAlive()).isFalse();
    }
}
