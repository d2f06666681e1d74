package io.github.kcrawler.common.config;

import io.github.kcrawler.testing.PropertyCheck;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One declaration per setting: parsing, defaults (fixed and derived), rules and their messages, help. */
class SettingTest {
    private static final Setting<Long> T = Setting.longValue("politeness-ms", 1000L, Check.atLeast(0), "T");
    private static final Setting<Long> TICK = Setting.longValue("tick-ms",
            Setting.derived("min(20, politeness-ms / 2)", s -> Math.min(20, s.get(T) / 2)), Check.positive(),
            "how often ready IPs are released");
    private static final Setting<Integer> THREADS = Setting.integer("threads", 1, Check.range(1, 256), "threads");
    private static final Setting<Boolean> REVISIT = Setting.bool("revisit", true, "revisit pages");
    private static final Setting<List<String>> ALLOW = Setting.list("allow", "patterns");
    private static final Setting<String> HOST = Setting.string("metrics-host", "127.0.0.1", Check.notBlank(), "host");
    private static final SettingSet SET = SettingSet.of(T, TICK, THREADS, REVISIT, ALLOW, HOST);

    private static Settings parse(Map<String, String> env, String... args) {
        return SET.parse(env, args);
    }

    @Test
    void valuesComeFromFlagsOverTheEnvironment_andDefaultsFromTheDeclaration() {
        Settings s = parse(Map.of("CRAWLER_THREADS", "3", "CRAWLER_POLITENESS_MS", "9"), "--politeness-ms", "500",
                "--revisit=no", "--allow", " a, ,b ");
        assertThat(s.get(T)).isEqualTo(500);
        assertThat(s.get(THREADS)).isEqualTo(3);
        assertThat(s.get(REVISIT)).isFalse();
        assertThat(s.get(ALLOW)).containsExactly("a", "b");
        assertThat(s.get(HOST)).isEqualTo("127.0.0.1");
        assertThat(parse(Map.of(), "--revisit").get(REVISIT)).as("a bare flag is true").isTrue();
    }

    @Test
    void aDerivedDefaultFollowsTheSettingsItIsDerivedFrom_andIsShownAsItsFormula() {
        assertThat(parse(Map.of()).get(TICK)).isEqualTo(20);
        assertThat(parse(Map.of(), "--politeness-ms", "10").get(TICK)).isEqualTo(5);
        assertThat(parse(Map.of(), "--politeness-ms", "10", "--tick-ms", "3").get(TICK)).isEqualTo(3);
        assertThat(TICK.defaultText()).isEqualTo("min(20, politeness-ms / 2)");
        assertThat(TICK.isDerived()).isTrue();
        assertThat(TICK.defaultValue()).isEqualTo(20);
        assertThat(SET.defaults()).containsEntry("tick-ms", "min(20, politeness-ms / 2)")
                .containsEntry("politeness-ms", "1000").containsEntry("allow", "");
    }

    @Test
    void malformedAndOutOfRangeValuesAreRefusedNamingKeyRuleAndValue() {
        assertThatThrownBy(() -> parse(Map.of(), "--threads", "many").get(THREADS))
                .hasMessage("threads must be a number, was 'many'");
        assertThatThrownBy(() -> parse(Map.of(), "--revisit", "maybe").get(REVISIT))
                .hasMessage("revisit must be true or false, was 'maybe'");
        assertThatThrownBy(() -> THREADS.check(0)).hasMessage("threads must be in 1..256, was 0");
        assertThatThrownBy(() -> HOST.check(" ")).hasMessage("metrics-host must not be empty, was ' '");
        assertThatThrownBy(() -> T.check(-1L)).hasMessage("politeness-ms must be >= 0, was -1");
        assertThatThrownBy(() -> parse(Map.of("CRAWLER_THREADZ", "1")))
                .hasMessageContaining("unknown environment variable CRAWLER_THREADZ");
        assertThatThrownBy(() -> parse(Map.of(), "--thread", "1")).hasMessageContaining("unknown setting --thread");
    }

    @Test
    void aRangeAcceptsExactlyItsClosedInterval() {
        PropertyCheck.forAll(2000, gen -> {
            long lo = gen.longIn(-1000, 1000);
            long hi = lo + gen.longIn(0, 1000);
            long v = gen.longIn(lo - 5, hi + 5);
            Check<Number> c = Check.range(lo, hi);
            assertThat(c.accepts(v)).as("%d in %d..%d", v, lo, hi).isEqualTo(v >= lo && v <= hi);
            assertThat(c.rule()).isEqualTo("must be in " + lo + ".." + hi);
        });
    }

    @Test
    void aServiceMayGiveASharedDeclarationItsOwnDefaultOrANarrowerRule() {
        Setting<Integer> narrow = THREADS.withCheck(Check.range(1, 64));
        Setting<Integer> four = THREADS.withDefault(4);
        assertThat(narrow.key()).isEqualTo(THREADS.key());
        assertThat(narrow.description()).isEqualTo(THREADS.description());
        assertThat(narrow.accepts(100)).isFalse();
        assertThat(THREADS.accepts(100)).isTrue();
        assertThat(four.defaultValue()).isEqualTo(4);
        assertThat(four.rule()).isEqualTo(THREADS.rule());
    }

    @Test
    void aKeyDeclaredTwiceInOneServiceIsRefused() {
        assertThatThrownBy(() -> SettingSet.of(SET, THREADS.withDefault(2)))
                .hasMessageContaining("threads is declared twice");
        assertThatThrownBy(() -> Setting.integer("Bad_Key", 1, Check.any(), "x")).hasMessageContaining("kebab-case");
        assertThatThrownBy(() -> Setting.integer("ok", 1, Check.any(), " ")).hasMessageContaining("description");
    }

    @Test
    void helpListsEveryKeyWithTypeDefaultEnvironmentVariableDescriptionAndRule() {
        String help = SET.help("test-service: a test\n");
        assertThat(help).startsWith("test-service: a test\n");
        for (Setting<?> s : SET) {
            assertThat(help).contains("--" + s.key() + " ", s.env(), s.description());
        }
        assertThat(help).contains("--threads INT", "--allow LIST", "default: min(20, politeness-ms / 2)", "default: (empty)", "(must be in 1..256)",
                "--kafka.<name>", "--log-level", "--log-format");
    }
}
