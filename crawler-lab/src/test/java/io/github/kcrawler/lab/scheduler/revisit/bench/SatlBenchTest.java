package io.github.kcrawler.lab.scheduler.revisit.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SatlBenchTest {
    @TempDir
    Path dir;

    @Test
    void zipfCounts_followNOverHTimesOneOverI_andSumToN() {
        long[] f = SatlBench.intervalCounts("zipf", 9_600, 15_000_000);
        assertThat(LongStream.of(f).sum()).isEqualTo(15_000_000);
        double h = 0;
        for (int k = 1; k <= 9_600; k++) {
            h += 1.0 / k;
        }
        assertThat((double) f[1]).isCloseTo(15_000_000 / h, within(1.0));
        assertThat((double) f[10]).isCloseTo(15_000_000 / h / 10, within(1.0));
    }

    @Test
    void peakedCounts_riseToIntervalOneHundredThenFall() {
        long[] f = SatlBench.intervalCounts("peaked", 9_600, 15_000_000);
        assertThat(LongStream.of(f).sum()).isEqualTo(15_000_000);
        double p = 0;
        for (int k = 1; k <= 100; k++) {
            p += k / 10_000.0;
        }
        for (int k = 101; k <= 9_600; k++) {
            p += 1.0 / k;
        }
        assertThat((double) f[100]).isCloseTo(15_000_000 / p * 100 / 10_000, within(1.0));
        assertThat((double) f[50]).isCloseTo(15_000_000 / p * 50 / 10_000, within(1.0));
        assertThat((double) f[200]).isCloseTo(15_000_000 / p / 200, within(1.0));
        assertThat(f[100]).isGreaterThan(f[50]).isGreaterThan(f[200] / 2);
    }

    @Test
    void instantCount_levelByLevel_equalsVisitingEveryDistance() {
        for (long t : new long[] {400, 1_000, 9_600}) {
            for (long now : new long[] {1, 37, 4_000, 96_001, 5_760_123}) {
                it.unimi.dsi.fastutil.longs.LongOpenHashSet set = new it.unimi.dsi.fastutil.longs.LongOpenHashSet();
                for (long d = 1; d <= t; d++) {
                    set.add(io.github.kcrawler.scheduler.revisit.SatlBuckets.bucket(now, now + d));
                }
                assertThat(SatlTable1.instantCount(now, t)).as("T %d, now %d", t, now).isEqualTo(set.size());
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void table1_satIsLinear_satlLogarithmic() {
        Map<String, Object> t = SatlTable1.table1();
        long[] steady = new long[3];
        String[] keys = {"1d", "1h", "1m"};
        for (int i = 0; i < 3; i++) {
            Map<String, Object> row = (Map<String, Object>) t.get(keys[i]);
            steady[i] = ((Number) row.get("satlSteady")).longValue();
            assertThat(((Number) row.get("satlInstantMin")).longValue()).isPositive()
                    .isLessThanOrEqualTo(steady[i]);
        }
        assertThat(((Map<String, Object>) t.get("1m")).get("sat")).isEqualTo(576_000L);
        // 1,440× more SAT buffers from 1d to 1m; SAT/L grows by a small factor (logarithmic)
        assertThat(steady[0]).isLessThan(steady[1]);
        assertThat(steady[1]).isLessThan(steady[2]);
        assertThat(steady[2]).isLessThan(300);
        assertThat(SatlTable1.steadyCount(10 * 400, 400))
                .as("closed form against brute force").isEqualTo(bruteSteady(10 * 400, 400));
        assertThat(SatlTable1.steadyCount(10 * 9_600 + 17, 2_000)).isEqualTo(bruteSteady(10 * 9_600 + 17, 2_000));
    }

    private static long bruteSteady(long now, long maxInterval) {
        it.unimi.dsi.fastutil.longs.LongOpenHashSet set = new it.unimi.dsi.fastutil.longs.LongOpenHashSet();
        for (long t0 = now - maxInterval + 1; t0 <= now; t0++) {
            for (long d = 1; d <= maxInterval; d++) {
                long b = io.github.kcrawler.scheduler.revisit.SatlBuckets.bucket(t0, t0 + d);
                if (b > now) {
                    set.add(b);
                }
            }
        }
        return set.size();
    }

    @Test
    void smallRun_processesEveryStore_andReportsTheSpeedupField() throws IOException {
        SatlBench.Options o = new SatlBench.Options(20_000, 200, List.of("peaked"), List.of(576_000L), List.of(1L),
                List.of("satl", "sat", "rocksdb"), 5, Long.MAX_VALUE, dir, false, 4L << 20, 1);
        Map<String, Object> r = SatlBench.run(o, new PrintStream(new ByteArrayOutputStream()));
        List<Map<String, Object>> runs = (List<Map<String, Object>>) r.get("runs");
        assertThat(runs).hasSize(3);
        for (Map<String, Object> run : runs) {
            assertThat(((Number) run.get("recordsProcessed")).longValue()).as("%s", run.get("store")).isPositive();
        }
        assertThat(r.get("speedupVsRocksdbPeaked576000At1MiB")).isInstanceOf(Double.class);
        assertThat(r).containsKey("table1Buffers");
    }
}
