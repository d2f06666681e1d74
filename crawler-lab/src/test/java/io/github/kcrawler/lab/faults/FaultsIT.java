package io.github.kcrawler.lab.faults;

import io.github.kcrawler.testing.ShadedJar;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 9 item 3 in CI: the broker and every service in its own JVM (two fetchers), an undisturbed crawl of a small
 * generated web, then the same crawl with SIGKILL + restart of dedup, scheduler, ranker, one fetcher and the broker in
 * turn and a SIGSTOP of the other fetcher past its session timeout. Nothing lost, ≤ 1 % duplicate fetches, no
 * politeness violation, every fetched page's revisit state in the scheduler's changelog — all by websim's count and
 * the changelog itself. Writes {@code target/faults-it.json} (+ .svg, .html) for inspection.
 */
class FaultsIT {
    private static final Path JAR = ShadedJar.path();

    @Test
    void killingEachServiceAndTheBrokerMidCrawlLosesNothingAndStaysPolite() throws Exception {
        assertThat(JAR).as("the shaded crawler jar (built in the package phase)").exists();
        FaultsConfig config = FaultsConfig.defaults(Path.of("target", "faults-it").toAbsolutePath(), JAR)
                .withPages(FaultsITSettings.PAGES).withIps(FaultsITSettings.IPS)
                .withPagesPerHost(FaultsITSettings.PAGES_PER_HOST)
                .withPolitenessMs(FaultsITSettings.POLITENESS_MS)
                .withMaxRunTime(Duration.ofMinutes(6));
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        FaultsResult r;
        try (PrintStream both = new PrintStream(new TeeOutputStream(System.out, console), true,
                StandardCharsets.UTF_8)) {
            r = FaultScenario.run(config, both);
        }
        java.util.List<Path> written = FaultsReports.write(r, Path.of("target", "faults-it.json"),
                Path.of("target", "faults-it-plots"), Path.of("target", "faults-it.html"), "FaultsIT");
        System.out.print(r.toText());

        assertThat(r.undisturbed().distinctPages()).as("the undisturbed crawl fetched the reachable web")
                .isEqualTo(r.undisturbed().reachable());
        assertThat(r.disruptions()).extracting(FaultsResult.Disruption::label).containsExactly("SIGKILL dedup",
                "SIGKILL scheduler", "SIGKILL ranker", "SIGKILL fetcher-1", "SIGKILL broker", "SIGSTOP fetcher-2");
        // the stall's cause in the failure message, which CI shows, not only far up the output
        String said = FaultCluster.stallSummary(console.toString(StandardCharsets.UTF_8), 40);
        assertThat(r.disruptions().stream().filter(d -> !Double.isFinite(d.recoveredAtS()))
                .map(FaultsResult.Disruption::label))
                .as("disruptions the crawl did not recover from; the processes said:%n%s", said).isEmpty();
        assertThat(r.disruptions()).allSatisfy(d ->
                assertThat(d.midCrawl()).as("%s happened mid-crawl", d.label()).isTrue());
        assertThat(r.exitedOnTheirOwn()).as("services that exited on their own").isEmpty();
        assertThat(r.lostUrls()).as("lost URLs, e.g. %s", r.lostSample()).isZero();
        assertThat(r.duplicateFetchRatio()).as("duplicate fetches / pages, e.g. %s", r.duplicateSample())
                .isLessThanOrEqualTo(FaultsITSettings.CI_MAX_DUPLICATE_RATIO);
        assertThat(r.politenessViolations()).as("politeness violations, e.g. %s", r.violationSample()).isZero();
        assertThat(r.revisitState().fetched()).isEqualTo(r.disturbed().distinctPages());
        assertThat(r.revisitState().missing()).as("fetched pages without revisit state, e.g. %s",
                r.revisitState().missingSample()).isZero();
        assertThat(r.revisitState().unreadable()).isZero();
        assertThat(written).containsExactly(Path.of("target", "faults-it-plots", "faults.svg"),
                Path.of("target", "faults-it.html"));
        assertThat(written).allSatisfy(p -> assertThat(Files.size(p)).isPositive());
    }

    /** Writes to two streams. */
    private static final class TeeOutputStream extends OutputStream {
        private final OutputStream a;
        private final OutputStream b;

        TeeOutputStream(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int x) throws IOException {
            a.write(x);
            b.write(x);
        }

        @Override
        public void write(byte[] bytes, int off, int len) throws IOException {
            a.write(bytes, off, len);
            b.write(bytes, off, len);
        }

        @Override
        public void flush() throws IOException {
            a.flush();
            b.flush();
        }

        @Override
        public void close() throws IOException {
            flush(); // System.out stays open
        }
    }

    /**
     * The web of the CI run: small enough for a few minutes on 2 shared cores, and politeness-bound enough that
     * every disruption comes mid-crawl. On 32 IPs (the bench's default) the crawl ran at ~100 pages/s once its
     * frontier was wide, so while the ranker and the broker came back (8–16 s each) it fetched the rest of the web
     * and the last disruption (SIGSTOP of fetcher-2) came after the last page on a fast CI machine (2026-11-27: at
     * 63.7 s, 1,195 of 1,195 pages). On 8 IPs one IP holds ~150 pages, at T = 200 ms at least 30 s of fetching, and
     * the crawl takes ~65 s undisturbed: the SIGSTOP came at ~56 s with ~800 of 1,195 pages fetched.
     */
    static final class FaultsITSettings {
        static final int PAGES = 1_200;
        static final int IPS = 8;
        /**
         * About one host per IP, as on 32 IPs: this test is about the crawl's infrastructure failing, so it keeps the
         * 32-IP run's shape of one robots.txt per IP. With the default 30 pages per host (~7 hosts per IP) a fetcher
         * resumed after its SIGSTOP once sent robots.txt fetches queued for the hosts of an IP whose partition had
         * moved (CI, 2026-11-27: 8 violations of 69–139 ms at T = 200 ms); that is fixed ({@code RobotsFetches}:
         * not sent once the asking request's partition left; {@code RobotsHandOverTest}), and ScaleIT's hand-overs
         * run on several hosts per IP.
         */
        static final double PAGES_PER_HOST = 150.0;
        static final long POLITENESS_MS = FaultsConfig.DEFAULT_POLITENESS_MS;
        /**
         * The goal itself ({@link FaultsResult#MAX_DUPLICATE_RATIO}, 1 %, 11 duplicates here). Since the
         * fetchers commit within 50 ms of finishing a request, the runs measured gave 0–5 duplicates, the most
         * with the CPU starved (BENCHMARKS.md, "Faults"); it was a looser 2 % guard while a 250 ms commit interval
         * left 5–21.
         */
        static final double CI_MAX_DUPLICATE_RATIO = FaultsResult.MAX_DUPLICATE_RATIO;
    }
}
