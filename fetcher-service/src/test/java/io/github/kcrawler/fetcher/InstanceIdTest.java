package io.github.kcrawler.fetcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The fetcher's instance name: unique among live instances on a host, the same again after a restart. */
class InstanceIdTest {
    @Test
    void liveInstancesTakeDistinctSlotsAndARestartedOneGetsItsSlotBack(@TempDir Path dir) {
        try (InstanceId a = InstanceId.claimSlot("host-a", dir); InstanceId b = InstanceId.claimSlot("host-a", dir)) {
            assertThat(a.id()).isEqualTo("host-a-0");
            assertThat(b.id()).isEqualTo("host-a-1");
            a.close(); // the first instance dies: the operating system releases its lock
            try (InstanceId restarted = InstanceId.claimSlot("host-a", dir)) {
                assertThat(restarted.id()).isEqualTo("host-a-0");
            }
        }
    }

    @Test
    void aConfiguredIdIsUsedAsIs(@TempDir Path dir) {
        try (InstanceId id = InstanceId.claim("fetcher-7", dir)) {
            assertThat(id.id()).isEqualTo("fetcher-7");
        }
    }

    @Test
    void anUnusableStateDirectoryStillGivesAUniqueId(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("not-a-directory");
        java.nio.file.Files.writeString(file, "x");
        try (InstanceId a = InstanceId.claimSlot("h", file.resolve("sub")); InstanceId b = InstanceId.claimSlot("h",
                file.resolve("sub"))) {
            assertThat(a.id()).startsWith("h-").isNotEqualTo(b.id());
        }
    }

    @Test
    void hostNamesAreReducedToSafeCharacters() {
        assertThat(InstanceId.sanitize("Pod.Name_1")).isEqualTo("pod.name_1");
        assertThat(InstanceId.sanitize("a b/c")).isEqualTo("a_b_c");
        assertThat(InstanceId.sanitize("")).isEqualTo("host");
        assertThat(InstanceId.sanitize("x".repeat(500))).hasSize(InstanceId.MAX_LENGTH - 5);
    }
}
