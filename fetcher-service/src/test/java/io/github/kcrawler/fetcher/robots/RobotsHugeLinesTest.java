package io.github.kcrawler.fetcher.robots;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static io.github.kcrawler.testing.PropertyCheck.forAll;

/**
 * robots.txt with huge lines (up to 600 KB, past the 512 KiB fetch cap) still gives a verdict. Expensive per try,
 * so a fixed count: not scaled by {@code kcrawler.fuzz.tries}.
 */
class RobotsHugeLinesTest {
    private final RobotsFuzzTest fuzz = new RobotsFuzzTest();

    @Test
    void hugeLinesGiveAVerdict() {
        forAll(20, g -> hugeLinesGiveAVerdict(g.intIn(10_000, 600_000), g.intIn(0, 1)));
    }

    void hugeLinesGiveAVerdict(int length, int star) {
        String body = "User-agent: *\nDisallow: /" + "a".repeat(length) + "\nAllow: /"
                + (star == 0 ? "*" : "b").repeat(length / 10);
        fuzz.check(200, body.getBytes(StandardCharsets.UTF_8), "text/plain", "/aaa");
    }
}
