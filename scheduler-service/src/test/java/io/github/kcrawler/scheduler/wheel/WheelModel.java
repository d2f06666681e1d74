package io.github.kcrawler.scheduler.wheel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * DESIGN §4.5's pseudo-code transcribed as plainly as possible, with unbounded lists per step instead of B
 * recycled queues: the reference the wheel is compared with.
 */
final class WheelModel {
    final int b;
    final int h;
    final long[] n;
    final Map<Long, List<Long>> byStep = new HashMap<>();
    long t;

    WheelModel(int b, int h) {
        this.b = b;
        this.h = h;
        this.n = new long[h];
        for (int r = 0; r < h; r++) {
            n[r] = r % 2;
        }
    }

    /** The step given to the item, or -1 if dropped. */
    long enqueue(long ip, long handle) {
        int r = (int) Math.floorMod(ip, (long) h);
        if (n[r] >= t + b) {
            return -1;
        }
        if (n[r] <= t) {
            boolean tEven = t % 2 == 0;
            boolean rEven = n[r] % 2 == 0;
            n[r] = tEven == rEven ? t + 2 : t + 1; // the case table of §3.2
        }
        long step = n[r];
        byStep.computeIfAbsent(step, k -> new ArrayList<>()).add(handle);
        n[r] += 2;
        return step;
    }

    List<Long> next() {
        t++;
        List<Long> batch = byStep.remove(t);
        return batch == null ? List.of() : batch;
    }

    int size() {
        return byStep.values().stream().mapToInt(List::size).sum();
    }
}
