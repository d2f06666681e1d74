package io.github.kcrawler.fetcher;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.github.kcrawler.testing.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/** The finished-records list carried in commit metadata: exact when it fits, never claims an unfinished record. */
class FinishedOffsetsTest {
    private static final TopicPartition P0 = new TopicPartition("t", 0);

    @Test
    void encodesAlternatingRunsFromTheCommittedOffset() {
        // 10 running, 11 done, 12 running, 13 and 14 done
        List<OffsetTracker.Slot> slots = slots(10, "0", 11, "1", 12, "0", 13, "1", 14, "1");
        String m = FinishedOffsets.encode(10, slots);
        assertThat(m).isEqualTo("kc1:1.1.1.2");
        FinishedOffsets f = FinishedOffsets.decode(10, m);
        assertThat(f.count()).isEqualTo(3);
        assertThat(f.end()).isEqualTo(15);
        assertThat(List.of(10L, 11L, 12L, 13L, 14L, 15L).stream().map(f::contains).toList())
                .containsExactly(false, true, false, true, true, false);
    }

    @Test
    void offsetsMissingFromThePartitionCountAsUnfinished() {
        // 0 running, 3 done (1, 2 are transaction markers), 4 done, 6 done
        String m = FinishedOffsets.encode(0, slots(0, "0", 3, "1", 4, "1", 6, "1"));
        assertThat(m).isEqualTo("kc1:3.2.1.1");
        FinishedOffsets f = FinishedOffsets.decode(0, m);
        assertThat(f.contains(5)).isFalse();
        assertThat(f.contains(6)).isTrue();
    }

    @Test
    void nothingFinishedMeansNoMetadata() {
        assertThat(FinishedOffsets.encode(5, slots(5, "0", 6, "0"))).isEmpty();
        assertThat(FinishedOffsets.encode(5, List.of())).isEmpty();
    }

    @Test
    void aListTooLongForTheMetadataEndsEarlyAtAFinishedRun() {
        List<OffsetTracker.Slot> many = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            OffsetTracker.Slot s = new OffsetTracker.Slot(P0, i);
            if (i % 2 == 1) {
                s.done();
            }
            many.add(s);
        }
        String m = FinishedOffsets.encode(0, many);
        assertThat(m.length()).isLessThanOrEqualTo(FinishedOffsets.MAX_CHARS);
        FinishedOffsets f = FinishedOffsets.decode(0, m);
        assertThat(f.count()).as("worst case, alternating: two characters per record").isGreaterThan(700);
        assertThat(f.contains(f.end() - 1)).isTrue();
        for (long o = 0; o < f.end() + 10; o++) {
            assertThat(f.contains(o)).isEqualTo(o < f.end() && o % 2 == 1);
        }
    }

    @Test
    void metadataThatIsNotOursIsIgnored() {
        String[] notOurs = {null, "", "kc1:", "kc1:1", "kc1:0.1", "kc1:1.-1", "kc1:1..2", "kc1:zzzzzzzzzzzzz.1",
            "kc2:1.1", "some other tool", "kc1:1.x!"};
        for (String junk : notOurs) {
            FinishedOffsets f = FinishedOffsets.decode(0, junk);
            assertThat(f).as("%s", junk).isNull();
        }
        assertThat(FinishedOffsets.decode(0, "kc1:1." + "1.".repeat(2_000) + "1")).as("too long").isNull();
    }

    /** Exact model: the set of done offsets. Encoded then decoded, the list is exact, or a prefix when truncated. */
    @Test
    void decodingGivesBackTheFinishedRecordsOrAPrefixOfThem() {
        forAll(300, g -> decodingGivesBackTheFinishedRecordsOrAPrefixOfThem(
                g.list(0, 3_000, x -> x.intIn(0, 3)),
                g.anyLong()));
    }

    void decodingGivesBackTheFinishedRecordsOrAPrefixOfThem(List<Integer> gaps, long seed) {
        Random rnd = new Random(seed);
        long position = 1_000 + rnd.nextInt(1_000);
        List<OffsetTracker.Slot> slots = new ArrayList<>();
        long offset = position;
        for (int gap : gaps) {
            OffsetTracker.Slot s = new OffsetTracker.Slot(P0, offset);
            if (offset != position && rnd.nextInt(3) > 0) {
                s.done();
            }
            slots.add(s);
            offset += 1 + gap;
        }
        String m = FinishedOffsets.encode(position, slots);
        assertThat(m.length()).isLessThanOrEqualTo(FinishedOffsets.MAX_CHARS);
        FinishedOffsets f = FinishedOffsets.decode(position, m);
        long doneCount = slots.stream().filter(OffsetTracker.Slot::isDone).count();
        if (f == null) {
            assertThat(m).isEmpty();
            assertThat(doneCount).isZero();
            return;
        }
        long listed = 0;
        for (OffsetTracker.Slot s : slots) {
            boolean claimed = f.contains(s.offset);
            assertThat(!claimed || s.isDone()).as("offset %d claimed finished", s.offset).isTrue();
            if (s.offset < f.end()) {
                assertThat(claimed).as("offset %d below the list's end", s.offset).isEqualTo(s.isDone());
            }
            listed += claimed ? 1 : 0;
        }
        assertThat(listed).isEqualTo(f.count());
        if (m.length() < FinishedOffsets.MAX_CHARS - 30) {
            assertThat(listed).as("not truncated: exact").isEqualTo(doneCount);
        }
    }

    /** Pairs of (offset, "1" if done). */
    private static List<OffsetTracker.Slot> slots(Object... pairs) {
        List<OffsetTracker.Slot> out = new ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            OffsetTracker.Slot s = new OffsetTracker.Slot(P0, ((Integer) pairs[i]).longValue());
            if ("1".equals(pairs[i + 1])) {
                s.done();
            }
            out.add(s);
        }
        return out;
    }
}
