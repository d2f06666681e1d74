package io.github.kcrawler.fetcher.dns;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The static host table in /etc/hosts format that keeps simulated hosts away from real DNS. */
class HostsFileTest {
    @Test
    void readsEtcHostsFormat() throws Exception {
        HostsFile f = HostsFile.parse(List.of(
                "# websim hosts",
                "127.1.0.1   host0.websim  alias0.websim   # trailing comment",
                "",
                "127.1.0.2\thost1.websim",
                "127.1.0.9   host0.websim",
                "not-an-ip   broken.websim",
                "127.1.0.3"));
        assertThat(f.lookup("host0.websim")).isEqualTo(InetAddress.getByName("127.1.0.1")); // first line wins
        assertThat(f.lookup("ALIAS0.websim.")).isEqualTo(InetAddress.getByName("127.1.0.1"));
        assertThat(f.lookup("host1.websim")).isEqualTo(InetAddress.getByName("127.1.0.2"));
        assertThat(f.lookup("broken.websim")).isNull();
        assertThat(f.lookup("elsewhere.org")).isNull();
        assertThat(f.size()).isEqualTo(3);
        assertThat(f.skippedLines()).isEqualTo(2);
    }

    @Test
    void loadsFromDiskAndFailsLoudlyWhenMissing(@TempDir Path dir) throws Exception {
        Path p = dir.resolve("hosts");
        Files.writeString(p, "10.0.0.1 a.test\n");
        assertThat(HostsFile.load(p).lookup("a.test")).isEqualTo(InetAddress.getByName("10.0.0.1"));
        assertThatThrownBy(() -> HostsFile.load(dir.resolve("missing"))).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("missing");
    }
}
