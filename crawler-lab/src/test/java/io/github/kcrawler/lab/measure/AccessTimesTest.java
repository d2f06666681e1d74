package io.github.kcrawler.lab.measure;

import io.github.kcrawler.websim.Access;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AccessTimesTest {
    private static Access access(double atMs, String ip, Access.Kind kind) {
        return new Access(atMs, ip, "h", "GET", "/p/1", 200, kind, kind == Access.Kind.PAGE ? 1 : -1);
    }

    @Test
    void pagesTimedSorted_robotsCountForTheIpOnly_otherKindsIgnored() {
        AccessTimes t = new AccessTimes();
        t.accept(access(30, "a", Access.Kind.PAGE));
        t.accept(access(10, "a", Access.Kind.ROBOTS));
        t.accept(access(20, "b", Access.Kind.PAGE));
        t.accept(access(5, "a", Access.Kind.OTHER));
        t.accept(access(6, "c", Access.Kind.HOSTILE));
        assertThat(t.pageTimesMs()).containsExactly(20.0, 30.0);
        assertThat(t.spans()).containsExactlyInAnyOrder(new PolitenessEfficiency.Span("a", 2, 10, 30, 20),
                new PolitenessEfficiency.Span("b", 1, 20, 20, Double.NaN));
    }

    /** The median gap is over an IP's arrivals sorted by time, whatever order they were reported in. */
    @Test
    void medianGap_ofSortedArrivals() {
        AccessTimes t = new AccessTimes();
        for (double at : new double[] {0, 300, 100, 200, 700, 800}) { // gaps 100, 100, 100, 400, 100
            t.accept(access(at, "a", Access.Kind.PAGE));
        }
        for (double at : new double[] {0, 100, 250, 400}) { // gaps 100, 150, 150: even count of IPs' arrivals
            t.accept(access(at, "b", Access.Kind.ROBOTS));
        }
        assertThat(t.spans()).extracting(PolitenessEfficiency.Span::ip, PolitenessEfficiency.Span::medianGapMs)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("a", 100.0),
                        org.assertj.core.groups.Tuple.tuple("b", 150.0));
    }

    @Test
    void manyPages_growTheArray_andSecondsToPageUsesTheBudgetThPage() {
        AccessTimes t = new AccessTimes();
        long start = System.nanoTime() - 60_000_000_000L; // seeded a minute ago
        for (int i = 0; i < 20_000; i++) {
            t.accept(access(i, "a", Access.Kind.PAGE));
        }
        assertThat(t.pageTimesMs()).hasSize(20_000);
        // websim's clock: atMs = i ms, 20 s of it arriving within moments; the offset (the smallest difference seen)
        // places the last page at about now, so the 10th is 19.99 s of websim's clock before it
        double toLast = t.secondsToPage(start, 0);
        double toTenth = t.secondsToPage(start, 10);
        assertThat(toLast - toTenth).isBetween(19.98, 19.99 + 0.0001);
    }
}
