package io.github.kcrawler.deploy;

import io.github.kcrawler.common.config.Setting;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.fetcher.FetcherConfig;
import io.github.kcrawler.scheduler.SchedulerConfig;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/CONFIGURATION.md is exactly what the services' setting declarations produce today. */
class ConfigurationReferenceTest {
    private static final String REGENERATE = "mvn -pl deploy-tests -am test -Dtest=ConfigurationReferenceTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dkcrawler.regenerate=true";

    @Test
    void committedReferenceIsUpToDate() throws Exception {
        Path file = Repo.root().resolve(ConfigurationReference.OUTPUT);
        String expected = ConfigurationReference.render();
        if (Boolean.getBoolean("kcrawler.regenerate")) {
            Files.writeString(file, expected, StandardCharsets.UTF_8);
        }
        assertThat(Files.exists(file)).as(file + " is missing; generate it with: " + REGENERATE).isTrue();
        assertThat(Files.readString(file, StandardCharsets.UTF_8))
                .as(file + " is stale (a config key or default changed); regenerate it with: " + REGENERATE)
                .isEqualTo(expected);
    }

    @Test
    void everyAcceptedKeyIsDocumentedWithItsEnvironmentVariable() {
        String reference = ConfigurationReference.render();
        for (Deployable d : Deployable.values()) {
            String section = reference.substring(reference.indexOf("## " + d.module));
            int next = section.indexOf("\n## ", 3);
            section = next < 0 ? section : section.substring(0, next);
            for (String key : d.keys) {
                assertThat(section).as(d.module + " documents " + key)
                        .contains("| `" + key + "` | `" + io.github.kcrawler.common.config.Settings.envName(key) + "` |");
            }
        }
    }

    /**
     * Keys two services declare with different meanings, kept because key names do not change: {@code max-pending}
     * is the scheduler's in-memory frontier bound per partition and the fetcher's accepted-but-unfinished requests.
     * In one {@code crawler crawl} process {@code --set max-pending=N} reaches both.
     */
    private static final Set<String> SAME_NAME_OTHER_MEANING = Set.of("max-pending");

    @Test
    void aKeySeveralServicesTakeIsOneDeclaration() {
        Map<String, Setting<?>> first = new LinkedHashMap<>();
        Map<String, String> firstService = new LinkedHashMap<>();
        List<String> differing = new ArrayList<>();
        for (Deployable d : Deployable.values()) {
            for (Setting<?> s : d.settings) {
                Setting<?> other = first.putIfAbsent(s.key(), s);
                firstService.putIfAbsent(s.key(), d.module);
                if (other != null && (!s.description().equals(other.description()) || !s.type().equals(other.type()))) {
                    differing.add(s.key() + " (" + d.module + ", " + firstService.get(s.key()) + ")");
                }
            }
        }
        assertThat(differing).as("keys declared separately by two services with different meanings or types")
                .allSatisfy(k -> assertThat(SAME_NAME_OTHER_MEANING).contains(k.substring(0, k.indexOf(' '))));
        assertThat(first).containsKeys("politeness-ms", "bootstrap-servers", "partitions", "metrics-port");
        // politeness-ms: one default for the fetcher, the scheduler and crawler crawl
        assertThat(FetcherConfig.SETTINGS.setting("politeness-ms").defaultText())
                .isEqualTo(SchedulerConfig.SETTINGS.setting("politeness-ms").defaultText()).isEqualTo("1000");
    }

    @Test
    void derivedDefaultsAreShownAsTheirFormulas_andTheServicesComputeThem() {
        String reference = ConfigurationReference.render();
        for (String row : List.of("| `tick-ms` | `CRAWLER_TICK_MS` | long | `max(1, min(20, politeness-ms / 2))` |",
                "| `step-timeout-ms` | `CRAWLER_STEP_TIMEOUT_MS` | long | `max(10000, politeness-ms)` |",
                "| `io-threads` | `CRAWLER_IO_THREADS` | int | `max(1, cores / 2)` |",
                "| `worker-threads` | `CRAWLER_WORKER_THREADS` | int | `cores` |")) {
            assertThat(reference).contains(row);
        }
        SchedulerConfig slow = (SchedulerConfig) Deployable.SCHEDULER.configure(Map.of(),
                List.of("--politeness-ms", "30000"));
        assertThat(slow.tickMs()).isEqualTo(20);
        assertThat(slow.wheel().stepTimeoutMs()).isEqualTo(30_000);
        SchedulerConfig fast = (SchedulerConfig) Deployable.SCHEDULER.configure(
                Map.of(Settings.envName("politeness-ms"), "10"), List.of());
        assertThat(fast.tickMs()).isEqualTo(5);
        assertThat(fast.wheel().stepTimeoutMs()).isEqualTo(10_000);
        FetcherConfig fetcher = (FetcherConfig) Deployable.FETCHER.configure(Map.of(), List.of());
        int cores = Runtime.getRuntime().availableProcessors();
        assertThat(fetcher.ioThreads()).isEqualTo(Math.max(1, cores / 2));
        assertThat(fetcher.workerThreads()).isEqualTo(cores);
    }
}
