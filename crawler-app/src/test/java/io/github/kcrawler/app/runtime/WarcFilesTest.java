package io.github.kcrawler.app.runtime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class WarcFilesTest {
    @Test
    void countsFinishedAndOpenWarcFilesOnly(@TempDir Path dir) throws Exception {
        Files.write(dir.resolve("k-1-00001.warc.gz"), new byte[100]);
        Files.write(dir.resolve("k-1-00002.warc.gz.open"), new byte[50]);
        Files.write(dir.resolve("notes.txt"), new byte[7]);
        WarcFiles w = WarcFiles.in(dir);
        assertThat(w.files()).isEqualTo(2);
        assertThat(w.open()).isEqualTo(1);
        assertThat(w.bytes()).isEqualTo(150);
        assertThat(w.describe()).startsWith("2 WARC files (150 B, 1 still being written");
        assertThat(WarcFiles.in(dir.resolve("missing")).files()).isZero();
    }
}
