package io.github.kcrawler.scheduler.revisit;

import io.github.kcrawler.common.fingerprint.Fingerprints;
import io.github.kcrawler.common.model.FetchKind;
import io.github.kcrawler.common.model.FetchOutcome;
import io.github.kcrawler.common.model.FetchResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RevisitPolicyTest {
    private static final long UNIT = 60_000;
    private final RevisitPolicy policy = new RevisitPolicy(new ChangeRateEstimator(1, 576_000), UNIT, 1440);

    private static FetchResult result(int status, String hash, String etag) {
        FetchOutcome outcome = status == 200 ? FetchOutcome.OK : status == 304 ? FetchOutcome.NOT_MODIFIED
                : status == 0 ? FetchOutcome.TIMEOUT : FetchOutcome.HTTP_ERROR;
        String url = "http://a.test/";
        return new FetchResult(FetchResult.VERSION, url, Fingerprints.url(url), 2, 0, FetchKind.REVISIT, status,
                outcome, 0, 0, 1, hash, 10, "text/html", null, etag, null, 0, null);
    }

    @Test
    void firstFetch_schedulesTheInitialInterval_andKeepsTheValidators() {
        RevisitPolicy.Decision d = policy.next(null, result(200, "h1", "\"e1\""), "10.0.0.1", 100 * UNIT);
        assertThat(d.outcome()).isEqualTo(RevisitPolicy.Outcome.FIRST);
        assertThat(d.state().dueUnit()).isEqualTo(100 + 1440);
        assertThat(d.state().etag()).isEqualTo("\"e1\"");
        assertThat(d.state().depth()).isEqualTo(2);
        assertThat(policy.next(null, result(500, null, null), "10.0.0.1", 0).state()).isNull();
    }

    @Test
    void changesShortenTheInterval_asChoGarciaMolinaEstimate() {
        RevisitState s = policy.next(null, result(200, "h1", null), "ip", 0).state();
        // Every visit 60 units apart finds a change: X = n, r = ln(n + 0.5) / ... → interval well below 60 units.
        long t = 0;
        for (int i = 2; i <= 5; i++) {
            t += 60 * UNIT;
            RevisitPolicy.Decision d = policy.next(s, result(200, "h" + i, null), "ip", t);
            assertThat(d.outcome()).isEqualTo(RevisitPolicy.Outcome.CHANGED);
            s = d.state();
        }
        assertThat(s.visits()).isEqualTo(4);
        assertThat(s.changes()).isEqualTo(4);
        long expected = Math.round(60 / Math.log(4.5 / 0.5));
        assertThat(s.intervalUnits()).isEqualTo(expected);
        assertThat(s.dueUnit()).isEqualTo(t / UNIT + expected);
    }

    @Test
    void notModified_isNoChange_andOnceUnchangedBacksOffByTheHalfChangeRule_notToTheMaximum() {
        RevisitState s = policy.next(null, result(200, "h1", "\"e1\""), "ip", 0).state();
        RevisitPolicy.Decision d = policy.next(s, result(304, null, null), "ip", 1440 * UNIT);
        assertThat(d.outcome()).isEqualTo(RevisitPolicy.Outcome.UNCHANGED);
        // issue 21: n = 1, X = 0, Ī = 1,440 min → λ = ln 1.5 / 1,440, 1/λ = 3,551.47 min (2.47 days), not 400 days
        assertThat(d.state().intervalUnits()).isEqualTo(3_551);
        assertThat(d.state().dueUnit()).isEqualTo(1440 + 3_551);
        // a second 304 after those 3,551 min: n = 2, Ī = (1,440 + 3,551) / 2 = 2,495.5, 1/λ = 2,495.5 / ln 1.25
        RevisitState s2 = policy.next(d.state(), result(304, null, null), "ip", (1440 + 3_551) * UNIT).state();
        assertThat(s2.intervalUnits()).isEqualTo(Math.round(2_495.5 / Math.log(1.25)));
        assertThat(d.state().etag()).as("kept from the last 200").isEqualTo("\"e1\"");
        assertThat(d.state().contentHash()).isEqualTo("h1");
        assertThat(policy.next(s, result(200, "h1", "\"e1\""), "ip", 1440 * UNIT).outcome())
                .as("same body again").isEqualTo(RevisitPolicy.Outcome.UNCHANGED);
    }

    @Test
    void goneEndsRevisits_andFailuresRetryAfterTheIntervalInForce() {
        RevisitState s = policy.next(null, result(200, "h1", null), "ip", 0).state();
        assertThat(policy.next(s, result(404, null, null), "ip", UNIT).outcome())
                .isEqualTo(RevisitPolicy.Outcome.GONE);
        assertThat(policy.next(s, result(410, null, null), "ip", UNIT).state()).isNull();
        RevisitPolicy.Decision retry = policy.next(s, result(0, null, null), "ip", 2000 * UNIT);
        assertThat(retry.outcome()).isEqualTo(RevisitPolicy.Outcome.RETRY);
        assertThat(retry.state().visits()).isZero();
        assertThat(retry.state().dueUnit()).isEqualTo(2000 + 1440);
    }

    @Test
    void theStateKeepsTheChangedSpanAndItsLengthClasses_andTheIrregularEstimateFollows() {
        RevisitState s = policy.next(null, result(200, "h1", null), "ip", 0).state();
        s = policy.next(s, result(200, "h2", null), "ip", 100 * UNIT).state(); // changed after 100
        s = policy.next(s, result(304, null, null), "ip", 400 * UNIT).state(); // unchanged after 300
        s = policy.next(s, result(200, "h3", null), "ip", 410 * UNIT).state(); // changed after 10
        assertThat(s.visits()).isEqualTo(3);
        assertThat(s.changes()).isEqualTo(2);
        assertThat(s.observedUnits()).isEqualTo(410);
        assertThat(s.changedUnits()).isEqualTo(110);
        assertThat(s.changedIntervals().count(6)).as("100 in [64, 128)").isEqualTo(1);
        assertThat(s.changedIntervals().count(3)).as("10 in [8, 16)").isEqualTo(1);
        double lambda = ChangeRateEstimator.irregular(s.changedIntervals(), 110, 410, 3, 2);
        assertThat(s.intervalUnits()).isEqualTo(Math.round(1 / lambda));
        double exact = ChangeRateEstimator.irregular(new double[] {100, 10}, 2, 300, 3);
        assertThat(lambda / exact).isBetween(0.9, 1.1);
        RevisitState back = RevisitState.SERDE.deserializer().deserialize("t",
                RevisitState.SERDE.serializer().serialize("t", s));
        assertThat(back).isEqualTo(s);
        assertThat(RevisitState.of(s.url(), s.fingerprint(), s.ip(), s.depth(), s.memo()).withDue(s.dueUnit()))
                .as("the memo carries the new fields").isEqualTo(s);
    }

    @Test
    void aStateWrittenBeforeIssue21_stillReads_andContinuesAsARegularHistory() {
        String old = "{\"v\":1,\"url\":\"http://a.test/\",\"fingerprint\":7,\"ip\":\"ip\",\"depth\":0,"
                + "\"etag\":null,\"lastModified\":null,\"contentHash\":\"h1\",\"visits\":4,\"changes\":2,"
                + "\"observedUnits\":400,\"intervalUnits\":100,\"lastFetchedMs\":0,\"dueUnit\":100,"
                + "\"firstFetchedMs\":0}";
        RevisitState s = RevisitState.SERDE.deserializer().deserialize("t",
                old.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(s.isUsable()).isTrue();
        assertThat(s.changedIntervals()).isNull();
        RevisitState next = policy.next(s, result(304, null, null), "ip", 100 * UNIT).state();
        // read as 2 changed intervals of the mean 100: then all five intervals are 100 long, and §4.2 applies
        assertThat(next.changedUnits()).isEqualTo(200);
        assertThat(next.changedIntervals().count(6)).isEqualTo(2);
        assertThat(next.intervalUnits()).isEqualTo(Math.round(100 / -Math.log(3.5 / 5.5)));
    }
}
