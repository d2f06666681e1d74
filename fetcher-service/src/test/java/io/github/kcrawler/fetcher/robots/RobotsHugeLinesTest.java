package io.github.kcrawler.fetcher.robots;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.nio.charset.StandardCharsets;

/**
 * robots.txt with huge lines (up to 600 KB, past the 512 KiB fetch cap) still gives a verdict. Expensive per try,
 * so a fixed count: not scaled by {@code kcrawler.fuzz.tries}.
 */
class RobotsHugeLinesTest {
    private final RobotsFuzzTest fuzz = new RobotsFuzzTest();

    @Property(tries = 20)
    void hugeLinesGiveAVerdict(@ForAll @IntRange(min = 10_000, max = 600_000) int length,
                               @ForAll @IntRange(max = 1) int star) {
        String body = "User-agent: *\nDisallow: /" + "a".repeat(length) + "\nAllow: /"
                + (star == 0 ? "*" : "b").repeat(length / 10);
        fuzz.check(200, body.getBytes(StandardCharsets.UTF_8), "text/plain", "/aaa");
    }
}
