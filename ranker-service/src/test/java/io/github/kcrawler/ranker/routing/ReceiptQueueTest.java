package io.github.kcrawler.ranker.routing;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReceiptQueueTest {
    private record Receipt(String url, long fingerprint, String ip, double amount, int depth) {
    }

    /** Against java.util.ArrayDeque as the model, with interleaved adds and removes that make it compact and grow. */
    @Test
    void behavesAsAFifo_property() {
        long seed = System.nanoTime();
        System.out.println("ReceiptQueueTest seed " + seed);
        SplittableRandom r = new SplittableRandom(seed);
        ReceiptQueue queue = new ReceiptQueue();
        ArrayDeque<Receipt> model = new ArrayDeque<>();
        for (int step = 0; step < 200_000; step++) {
            if (r.nextInt(100) < (step % 20_000 < 10_000 ? 60 : 40)) {
                Receipt x = new Receipt("u" + step, r.nextLong(), "ip" + r.nextInt(9), r.nextDouble(),
                        1 + r.nextInt(5));
                queue.add(x.url(), x.fingerprint(), x.ip(), x.amount(), x.depth());
                model.add(x);
            } else if (!model.isEmpty()) {
                Receipt expected = model.poll();
                assertThat(new Receipt(queue.url(), queue.fingerprint(), queue.ip(), queue.amount(), queue.depth()))
                        .as("seed %d step %d", seed, step).isEqualTo(expected);
                queue.remove();
            }
            assertThat(queue.size()).as("seed %d", seed).isEqualTo(model.size());
            assertThat(queue.isEmpty()).isEqualTo(model.isEmpty());
        }
    }

    @Test
    void remove_onEmpty_throws() {
        assertThatThrownBy(() -> new ReceiptQueue().remove()).isInstanceOf(IllegalStateException.class);
    }
}
