package io.github.kcrawler.app;

import io.github.kcrawler.testing.ShadedJar;
import io.github.kcrawler.websim.WebSim;
import io.github.kcrawler.websim.WebSimConfig;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Kills a crawl in a separate JVM with SIGKILL midway, starts it again on the same data directory, and checks that
 * the final set of fetched pages is the whole reachable web: no URL lost in any topic, store or offset.
 */
class RestartWithoutLossIT {
    private static final Path JAR = ShadedJar.path();

    @Test
    void sigkillMidwayThenResumeLosesNoUrl() throws Exception {
        assertThat(JAR).as("the shaded crawler jar (built in the package phase)").exists();
        Path dir = Path.of("target", "restart-it").toAbsolutePath();
        TestDirs.deleteRecursively(dir);
        Files.createDirectories(dir);
        WebSimConfig config = WebSimConfig.builder().generate(3_000).ips(64).politenessMs(20)
                .hostsFile(dir.resolve("hosts")).build();
        try (WebSim websim = WebSim.start(config)) {
            BitSet reachable = websim.reachablePages(1000);
            List<String> command = crawlCommand(dir, websim);

            Process first = start(command, dir.resolve("first.log"));
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100))
                    .until(() -> websim.stats().distinctUrlsFetched() >= reachable.cardinality() / 3);
            first.destroyForcibly(); // SIGKILL: no shutdown hook, no commit, no flush
            assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
            long fetchedBeforeKill = websim.stats().distinctUrlsFetched();
            assertThat(fetchedBeforeKill).isLessThan(reachable.cardinality());

            Process second = start(command, dir.resolve("second.log"));
            assertThat(second.waitFor(5, TimeUnit.MINUTES)).as("resumed crawl finishes").isTrue();
            assertThat(second.exitValue()).isZero();

            BitSet missing = (BitSet) reachable.clone();
            missing.andNot(websim.fetchedPages());
            assertThat(missing.cardinality()).as("reachable pages never fetched (before kill: %d)", fetchedBeforeKill)
                    .isZero();
            assertThat(websim.stats().disallowedFetched()).isZero();
        }
    }

    private static List<String> crawlCommand(Path dir, WebSim websim) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx1g");
        cmd.add("-jar");
        cmd.add(JAR.toAbsolutePath().toString());
        cmd.add("crawl");
        cmd.add("--seeds");
        cmd.addAll(websim.seedUrls());
        cmd.addAll(List.of("--data-dir", dir.resolve("crawl").toString(), "--hosts-file", websim.hostsFile().toString(),
                "--allow-addresses", "127.0.0.0/8", "--politeness-ms", "20", "--max-depth", "1000",
                "--metrics-port", "0", "--exit-when-idle", "--max-seconds", "280"));
        return cmd;
    }

    private static Process start(List<String> command, Path log) throws Exception {
        File out = log.toFile();
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out).start();
    }
}
