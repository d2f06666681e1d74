package io.github.kcrawler.dedup.jmh;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.dedup.membership.FingerprintFilter;
import io.github.kcrawler.dedup.membership.LruFingerprintCache;
import io.github.kcrawler.dedup.membership.StableBloomFilterLight;
import io.github.kcrawler.dedup.membership.UrlSeenTiers;
import io.github.kcrawler.dedup.store.HashFingerprintSet;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Per-test cost of the in-memory tiers on a skewed fingerprint stream (popularity ~ u^3 over 4·2^20 URLs, so there
 * are hits, misses and evictions): the LRU alone, the SBFL query, and the LRU → SBFL probe of the tiered test.
 * Sizes are the service defaults (LRU 2^18, SBFL 2^25 2-bit counters, k = 8, FPR 10^-5).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class UrlSeenJmh {
    private static final int STREAM = 1 << 22;

    @Param({"262144"})
    public int lruSize;

    @Param({"25"})
    public int log2Counters;

    private long[] stream;
    private int next;
    private LruFingerprintCache lru;
    private StableBloomFilterLight sbfl;
    private UrlSeenTiers tiered;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(42);
        stream = new long[STREAM];
        for (int i = 0; i < STREAM; i++) {
            long url = (long) (Math.pow(random.nextDouble(), 3) * (4 << 20));
            stream[i] = Fingerprints.fmix64(url + 1);
        }
        lru = new LruFingerprintCache(lruSize, fp -> { });
        sbfl = StableBloomFilterLight.forTargetFpr(1L << log2Counters, 8, 1e-5, 2);
        FingerprintFilter filter = StableBloomFilterLight.forTargetFpr(1L << log2Counters, 8, 1e-5, 2);
        tiered = new UrlSeenTiers(lruSize, filter, new HashFingerprintSet());
        for (long fp : stream) { // warm state: caches full, filter at its stable point
            lru.touchOrInsert(fp);
            sbfl.put(fp);
            tiered.probe(fp);
        }
    }

    private long nextFingerprint() {
        long fp = stream[next];
        next = (next + 1) & (STREAM - 1);
        return fp;
    }

    @Benchmark
    public boolean lruTouchOrInsert() {
        return lru.touchOrInsert(nextFingerprint());
    }

    @Benchmark
    public boolean sbflMightContain() {
        return sbfl.mightContain(nextFingerprint());
    }

    @Benchmark
    public boolean sbflPut() {
        return sbfl.put(nextFingerprint());
    }

    @Benchmark
    public int tieredProbe() {
        return tiered.probe(nextFingerprint());
    }
}
