package io.github.kcrawler.scheduler.politeness;

import io.github.kcrawler.common.time.CrawlClock;

import java.util.Locale;
import java.util.Random;

/**
 * How many heap bytes a pending URL adds to a {@link WheelFrontier}: the heap after full GCs (System.gc() four times)
 * before and after admitting {@code n} URLs over 4,096 IPs, divided by n. The frontier is created before the first
 * measurement, so what it allocates up front (the PRIORITY pool) is not counted: the figure is the growth a longer
 * crawl sees. Each admission gets a new IP {@code String}, as Kafka's key deserializer makes one per record.
 * Not a test (no assertion on memory, which would be flaky); run on demand:
 * <pre>
 * java -Xmx2g -cp scheduler-service/target/test-classes:crawler-app/target/crawler-app-0.1.0-SNAPSHOT-all.jar \
 *     io.github.kcrawler.scheduler.politeness.FrontierMemoryProbe 300000 priority
 * </pre>
 */
public final class FrontierMemoryProbe {
    private FrontierMemoryProbe() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;
        WheelOrder order = WheelOrder.parse(args.length > 1 ? args[1] : "priority");
        // B = H = 2048 so that FIFO's wheel (B*H/2 URLs) can hold n; PRIORITY admits into the pool only.
        WheelFrontier f = new WheelFrontier(CrawlClock.SYSTEM, order, 4_000, 10_000, 2048, 2048, 1_000_000, 0,
                u -> { });
        long before = usedAfterGc();
        Random random = new Random(1);
        for (int i = 0; i < n; i++) {
            int ip = random.nextInt(4096);
            f.admit(new String("10.0." + (ip >> 8) + "." + (ip & 255)), random.nextLong(), i);
        }
        long after = usedAfterGc();
        System.out.printf(Locale.ROOT, "%s: %,d pending URLs on %,d IPs: %.1f heap bytes per pending URL%n",
                order, f.size(), f.activeIps(), (after - before) / (double) f.size());
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }
}
