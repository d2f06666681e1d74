package io.github.kcrawler.lab.measure;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadCpuSamplerTest {
    @Test
    void byGroup_sumsThreads_jvmIsTheRestOfTheProcess() {
        Map<Long, String> group = Map.of(1L, "dedup", 2L, "dedup", 3L, "broker", 4L, "other");
        Map<String, Long> out = ThreadCpuSampler.byGroup(Map.of(1L, 10L, 2L, 5L, 3L, 7L, 4L, 1L), group::get,
                Map.of("rocksdb", 3L, "jit", 2L, "gc", 1L), 30);
        assertThat(out).containsEntry("total", 30L).containsEntry("dedup", 15L).containsEntry("broker", 7L)
                .containsEntry("other", 1L).containsEntry("rocksdb", 3L).containsEntry("jit", 2L)
                .containsEntry("gc", 1L).containsEntry("jvm", 1L).containsEntry("websim", 0L);
        assertThat(out.keySet()).startsWith("total").containsAll(ThreadGroups.ALL);
        // the process total below the threads' sum (sampling skew): jvm 0, total the threads' sum
        assertThat(ThreadCpuSampler.byGroup(Map.of(1L, 10L), group::get, Map.of("rocksdb", 2L), 4))
                .containsEntry("jvm", 0L).containsEntry("total", 12L).containsEntry("jit", 0L);
        assertThat(ThreadCpuSampler.msPerPage(Map.of("total", 3_000_000L), 2)).containsEntry("total", 1.5);
    }

    @Test
    void aThreadThatDiesBetweenStartAndStop_keepsItsCpu() throws Exception {
        ThreadCpuSampler sampler = new ThreadCpuSampler(new ThreadGroups(""), 10);
        sampler.start();
        CpuBurner.burn("fetcher-io-9-9", 100_000_000L).close(); // it dies before the sampler stops
        sampler.stop();
        Map<String, Long> cpu = sampler.cpuNanos();
        // it used 100 ms of CPU, sampled every 10 ms: what it had used at its last sample is kept
        assertThat(cpu.get("fetcherIo")).isGreaterThan(0L);
        assertThat(cpu.get("total")).isGreaterThanOrEqualTo(cpu.get("fetcherIo"));
    }
}
