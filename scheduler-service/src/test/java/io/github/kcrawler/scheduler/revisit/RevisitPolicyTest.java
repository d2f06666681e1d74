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
    void notModified_isNoChange_andNeverSeenChangingGivesTheMaximum() {
        RevisitState s = policy.next(null, result(200, "h1", "\"e1\""), "ip", 0).state();
        RevisitPolicy.Decision d = policy.next(s, result(304, null, null), "ip", 1440 * UNIT);
        assertThat(d.outcome()).isEqualTo(RevisitPolicy.Outcome.UNCHANGED);
        assertThat(d.state().intervalUnits()).isEqualTo(576_000);
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
}
