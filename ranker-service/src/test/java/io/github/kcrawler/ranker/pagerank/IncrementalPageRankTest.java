package io.github.kcrawler.ranker.pagerank;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The four cut-offs of DESIGN §4.3 on hand-made fetch sequences, with scores worked out by hand (all exact). */
class IncrementalPageRankTest {

    private static IncrementalPageRank ipr(IprParams.CutOff cutOff) {
        return new IncrementalPageRank(IprParams.defaults(cutOff), 300);
    }

    private static void fetch(IncrementalPageRank r, int page, int... links) {
        r.fetch(page, links, IncrementalPageRank.ScoreListener.NONE);
    }

    @Test
    void dl1_addsOneAndSplitsScoreOverDirectOutlinksOnly() {
        IncrementalPageRank r = ipr(IprParams.CutOff.DL1);
        List<String> changes = new ArrayList<>();
        IncrementalPageRank.ScoreListener log = (node, score) -> changes.add(node + "=" + score);
        r.fetch(0, new int[] {1, 2}, log);     // s0 = 1; s1 = s2 = 0.5
        r.fetch(1, new int[] {2, 3, 0}, log);  // s1 = 1.5; 0.5 each to 2, 3 and (fetched) 0
        r.fetch(2, new int[0], log);           // s2 = 2, nothing to distribute

        assertThat(r.score(0)).isEqualTo(1.5);
        assertThat(r.score(1)).isEqualTo(1.5); // 0's receipt did not travel on to 1
        assertThat(r.score(2)).isEqualTo(2.0);
        assertThat(r.score(3)).isEqualTo(0.5);
        assertThat(r.score(4)).isZero();
        assertThat(changes).containsExactly("1=0.5", "2=0.5", "2=1.0", "3=0.5"); // fetched pages are not reported
        assertThat(r.receipts()).isEqualTo(5);
    }

    @Test
    void duplicateLinksCountOnce_selfLinksKept() {
        IncrementalPageRank r = ipr(IprParams.CutOff.DL1);
        fetch(r, 0, 1, 1, 0, 1);               // distinct outlinks {1, 0}: 0.5 each
        assertThat(r.score(1)).isEqualTo(0.5);
        assertThat(r.score(0)).isEqualTo(1.5);
    }

    @Test
    void pl_continuesBreadthFirstForLMorePages() {
        IprParams two = new IprParams(IprParams.CutOff.PL, 2, 1.5, 29.0 / 30);
        IncrementalPageRank r = new IncrementalPageRank(two, 10);
        fetch(r, 0, 1);       // s0 = 1, s1 = 1
        fetch(r, 1, 2, 3);    // s1 = 2 -> 1 each: s2 = 1, s3 = 1 (0 is not linked, nothing beyond)
        fetch(r, 4, 0);       // s4 = 1 -> 0: s0 = 2; then BFS: 0 -> 1 gets 1 (1 of 2), 1 -> 2 gets 0.5 (2 of 2)
        assertThat(r.score(0)).isEqualTo(2.0);
        assertThat(r.score(1)).isEqualTo(3.0);
        assertThat(r.score(2)).isEqualTo(1.5);
        assertThat(r.score(3)).isEqualTo(1.0); // budget spent before 3
        assertThat(r.score(4)).isEqualTo(1.0);

        IncrementalPageRank eight = new IncrementalPageRank(IprParams.defaults(IprParams.CutOff.PL), 10);
        fetch(eight, 0, 1);
        fetch(eight, 1, 2, 3);
        fetch(eight, 4, 0);
        assertThat(eight.score(3)).isEqualTo(1.5); // L = 8 reaches 3 as well; 2 and 3 are unfetched: stop
        assertThat(eight.score(2)).isEqualTo(1.5);
    }

    @Test
    void vr_propagatesOnlyLargeReceiptsAndDropsFailingOnesBeyondDepthOne() {
        IncrementalPageRank vr = ipr(IprParams.CutOff.VR);
        IncrementalPageRank dl1 = ipr(IprParams.CutOff.DL1);
        for (IncrementalPageRank r : List.of(vr, dl1)) {
            fetch(r, 1, 2);          // s1 = 1, s2 = 1
            fetch(r, 3, 4);          // s3 = 1, s4 = 1
            fetch(r, 5, 3);          // 1 -> fetched 3 (ratio 1 < 1.5): depth 1 updates, s3 = 2, no spread
            fetch(r, 0, 1, 3);       // s0 = 1, 0.5 each: s1 = 1.5, s3 = 2.5, no spread
            for (int f = 10; f <= 13; f++) {
                fetch(r, f, 9);      // s9 = 4
            }
            fetch(r, 9, 0);          // s9 = 5 -> 0 (ratio 5): s0 = 6, spread 2.5 to 1 and 3
        }
        // 1: 2.5 / 1.5 >= 1.5 passes -> s1 = 4, spread 2.5 to 2: 2.5 / 1 passes -> s2 = 3.5
        // 3: 2.5 / 2.5 fails at depth 2 -> not updated, nothing reaches 4
        assertThat(vr.score(0)).isEqualTo(6.0);
        assertThat(vr.score(1)).isEqualTo(4.0);
        assertThat(vr.score(2)).isEqualTo(3.5);
        assertThat(vr.score(3)).isEqualTo(2.5);
        assertThat(vr.score(4)).isEqualTo(1.0);
        assertThat(vr.score(9)).isEqualTo(5.0);
        assertThat(vr.score(5)).isEqualTo(1.0);

        assertThat(dl1.score(0)).isEqualTo(6.0);
        assertThat(dl1.score(1)).isEqualTo(1.5);
        assertThat(dl1.score(2)).isEqualTo(1.0);
    }

    @Test
    void vr_zeroScoreCountsAsPassing() {
        IncrementalPageRank r = ipr(IprParams.CutOff.VR);
        fetch(r, 0, 1);     // 1 has score 0 before: passes, but 1 is unfetched so nothing travels
        assertThat(r.score(1)).isEqualTo(1.0);
    }

    @Test
    void ar_accumulatesReceiptsUntilTheyExceed29ThirtiethsOfTheScore() {
        IncrementalPageRank r = ipr(IprParams.CutOff.AR);
        fetch(r, 1, 2);                    // s1 = 1, a1 = 0; s2 = a2 = 1
        for (int f = 100; f < 127; f++) {
            fetch(r, f, 9);                // 27 feeders: s9 = a9 = 27
        }
        fetch(r, 9, 1);                    // s9 = 28 -> 1: s1 = 29, a1 = 28, 28/29 <= 29/30: held
        assertThat(r.score(1)).isEqualTo(29.0);
        assertThat(r.accumulated(1)).isEqualTo(28.0);
        assertThat(r.score(2)).isEqualTo(1.0);
        assertThat(r.accumulated(9)).isZero();  // a fetch sends the whole score on

        fetch(r, 200, 7);
        fetch(r, 201, 7);                  // s7 = 2
        fetch(r, 7, 1);                    // s7 = 3 -> 1: s1 = 32, a1 = 31, 31/32 > 29/30: pass 31 on
        assertThat(r.score(1)).isEqualTo(32.0);
        assertThat(r.accumulated(1)).isZero();
        assertThat(r.score(2)).isEqualTo(32.0);
        assertThat(r.accumulated(2)).isEqualTo(32.0);  // unfetched: holds everything it received
    }

    @Test
    void vr_wouldNotPassTheSmallSecondReceiptThatArAccumulates() {
        IncrementalPageRank r = ipr(IprParams.CutOff.VR);
        fetch(r, 1, 2);
        for (int f = 100; f < 127; f++) {
            fetch(r, f, 9);
        }
        fetch(r, 9, 1);                    // 28 / 1 passes: s1 = 29, spread 28 to 2: s2 = 29
        fetch(r, 200, 7);
        fetch(r, 201, 7);
        fetch(r, 7, 1);                    // 3 / 29 fails: s1 = 32 (depth 1), nothing moves on
        assertThat(r.score(1)).isEqualTo(32.0);
        assertThat(r.score(2)).isEqualTo(29.0);
    }

    @Test
    void cyclesOfFetchedPagesTerminate() {
        for (IprParams.CutOff c : IprParams.CutOff.values()) {
            IncrementalPageRank r = new IncrementalPageRank(IprParams.defaults(c), 4);
            fetch(r, 1, 2);
            fetch(r, 2, 1, 2);
            fetch(r, 3, 1);
            fetch(r, 0, 3, 0);
            assertThat(r.fetches()).isEqualTo(4);
            assertThat(r.score(0)).isGreaterThanOrEqualTo(1.0);
        }
    }

    @Test
    void rejectsRefetchAndOutOfRangeIds() {
        IncrementalPageRank r = ipr(IprParams.CutOff.DL1);
        fetch(r, 0, 1);
        assertThatThrownBy(() -> fetch(r, 0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already fetched");
        assertThatThrownBy(() -> fetch(r, 5, 300)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("300");
        assertThatThrownBy(() -> fetch(r, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(r.isFetched(5)).isFalse();
    }

    @Test
    void paramsValidateWithTheBadValue() {
        assertThatThrownBy(() -> new IprParams(IprParams.CutOff.AR, 8, 1.5, 1.0))
                .hasMessageContaining("accumulatedRatio").hasMessageContaining("1.0");
        assertThatThrownBy(() -> new IprParams(IprParams.CutOff.VR, 8, -1, 0.5)).hasMessageContaining("-1");
        assertThatThrownBy(() -> new IprParams(IprParams.CutOff.PL, -3, 1.5, 0.5)).hasMessageContaining("-3");
        assertThatThrownBy(() -> IprParams.CutOff.parse("XL")).hasMessageContaining("XL");
        assertThat(IprParams.CutOff.parse("ar")).isEqualTo(IprParams.CutOff.AR);
        assertThat(IprParams.defaults(IprParams.CutOff.AR).accumulatedRatio()).isEqualTo(29.0 / 30);
    }
}
