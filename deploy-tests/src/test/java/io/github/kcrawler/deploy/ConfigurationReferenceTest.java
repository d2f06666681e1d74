package io.github.kcrawler.deploy;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/CONFIGURATION.md is exactly what the typed configurations produce today. */
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
}
