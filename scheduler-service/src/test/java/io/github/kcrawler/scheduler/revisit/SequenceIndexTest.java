package io.github.kcrawler.scheduler.revisit;

import io.github.kcrawler.testing.Gen;
import io.github.kcrawler.testing.PropertyCheck;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link SequenceIndex} against an exact model (key → bucket of its live entry, and every entry ever written with the
 * key it was written for): after any sequence of assign, locate and release, and after a write/read round trip, the
 * index answers contains, size and bucketOf as the model does, and exactly the latest entry of each live key is
 * live. Seeded (PropertyCheck: the seed prints; rerun one try with -Dkc.seed).
 */
public class SequenceIndexTest {

    /** An entry as a bucket file holds it. */
    private record Entry(long key, int seq, int gen) {
    }

    @Test
    void agreesWithTheModelThroughUpdatesDeletesAndARoundTrip() {
        PropertyCheck.forAll(200, g -> {
            SequenceIndex index = new SequenceIndex();
            Map<Long, Long> model = new HashMap<>();
            Map<Long, Entry> latest = new HashMap<>();
            List<Entry> written = new ArrayList<>();
            int keys = g.intIn(1, 64);
            int steps = g.intIn(0, 2_000);
            for (int i = 0; i < steps; i++) {
                long key = g.intIn(0, keys - 1) * 0x9E3779B97F4A7C15L; // spread over the long range
                if (g.intIn(0, 3) == 0) {
                    assertThat(index.release(key)).isEqualTo(model.remove(key) != null);
                    latest.remove(key);
                } else {
                    int seq = index.assign(key);
                    long bucket = g.longIn(-1_000, 1_000);
                    index.locate(seq, bucket);
                    Entry e = new Entry(key, seq, index.gen(seq));
                    written.add(e);
                    latest.put(key, e);
                    model.put(key, bucket);
                }
            }
            check(index, model, latest, written, keys);
            check(roundTrip(index), model, latest, written, keys);
        });
    }

    private static void check(SequenceIndex index, Map<Long, Long> model, Map<Long, Entry> latest,
                              List<Entry> written, int keys) {
        assertThat(index.size()).isEqualTo(model.size());
        for (int k = 0; k < keys; k++) {
            long key = k * 0x9E3779B97F4A7C15L;
            assertThat(index.contains(key)).isEqualTo(model.containsKey(key));
            assertThat(index.bucketOf(key)).isEqualTo(model.getOrDefault(key, SequenceIndex.NONE));
        }
        for (Entry e : written) {
            assertThat(index.isLive(e.seq(), e.gen())).as("entry %s", e).isEqualTo(e.equals(latest.get(e.key())));
        }
    }

    @Test
    void aReleasedSequenceIsReusedWithAFreshGeneration() {
        SequenceIndex index = new SequenceIndex();
        int a = index.assign(1L);
        int genA = index.gen(a);
        index.release(1L);
        int b = index.assign(2L);
        assertThat(b).isEqualTo(a);
        assertThat(index.isLive(a, genA)).isFalse();
        assertThat(index.isLive(b, index.gen(b))).isTrue();
        assertThat(index.isLive(-1, 0)).isFalse();
        assertThat(index.isLive(b + 1, 0)).isFalse();
    }

    @Test
    void aCorruptIndexIsRefused() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(1);          // one seq
            out.writeInt(1);          // its generation
            out.writeLong(5);         // its bucket
            out.writeInt(2);          // two keys ...
            out.writeLong(10);
            out.writeInt(0);
            out.writeLong(11);
            out.writeInt(0);          // ... on the same seq
        }
        assertThatThrownBy(() -> SequenceIndex.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))))
                .isInstanceOf(IOException.class).hasMessageContaining("out of range or taken");
    }

    private static SequenceIndex roundTrip(SequenceIndex index) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                index.write(out);
            }
            return SequenceIndex.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
