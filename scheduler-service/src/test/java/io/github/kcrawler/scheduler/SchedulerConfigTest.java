package io.github.kcrawler.scheduler;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.Settings;
import io.github.kcrawler.scheduler.revisit.FlushOrder;
import io.github.kcrawler.scheduler.wheel.Pacing;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Settings → SchedulerConfig: defaults, overrides, rejected values with their names, the impoliteness warning. */
class SchedulerConfigTest {
    private static final KafkaSettings KAFKA = new KafkaSettings("127.0.0.1:9092", "", 4, Path.of("target", "x"),
            Map.of());

    private static SchedulerConfig parse(Map<String, String> env, String... args) {
        return SchedulerConfig.from(Settings.parse(SchedulerConfig.KEYS, env, args));
    }

    @Test
    void shouldUseDocumentedDefaults() {
        SchedulerConfig c = parse(Map.of());
        assertThat(c.politenessMs()).isEqualTo(1000);
        assertThat(c.tickMs()).isEqualTo(20);
        assertThat(c.maxPending()).isEqualTo(524_288); // B·H/2 at the default B = H = 1,024
        assertThat(c.scoreCacheSize()).isEqualTo(100_000);
        assertThat(c.threads()).isEqualTo(1);
        assertThat(c.commitMs()).isEqualTo(100);
        assertThat(c.metricsHost()).isEqualTo("127.0.0.1");
        assertThat(c.metricsPort()).isZero();
        assertThat(c.kafka().partitions()).isEqualTo(KafkaSettings.DEFAULT_PARTITIONS);
        assertThat(c).isEqualTo(SchedulerConfig.defaults(c.kafka()));
        assertThat(SchedulerConfig.KEYS).containsAll(KafkaSettings.KEYS).containsAll(SchedulerConfig.OWN_DEFAULTS
                .keySet());
    }

    @Test
    void shouldReadFlagsOverEnvironment() {
        SchedulerConfig c = parse(Map.of("CRAWLER_POLITENESS_MS", "3000", "CRAWLER_MAX_PENDING", "50"),
                "--politeness-ms", "2000", "--tick-ms=10", "--threads", "2",
                "--topic-prefix", "t1.", "--kafka.linger.ms", "9");
        assertThat(c.politenessMs()).isEqualTo(2000);
        assertThat(c.tickMs()).isEqualTo(10);
        assertThat(c.maxPending()).isEqualTo(50);
        assertThat(c.threads()).isEqualTo(2);
        assertThat(c.kafka().topicPrefix()).isEqualTo("t1.");
        assertThat(c.kafka().clientOverrides()).containsEntry("linger.ms", "9");
    }

    @Test
    void shouldRejectBadValuesNamingThem() {
        assertThatThrownBy(() -> parse(Map.of(), "--politeness-ms", "0"))
                .hasMessageContaining("politeness-ms must be > 0, was 0");
        assertThatThrownBy(() -> parse(Map.of(), "--politeness-ms", "50", "--tick-ms", "50"))
                .hasMessageContaining("tick-ms must be > 0 and smaller than politeness-ms (50), was 50");
        assertThatThrownBy(() -> parse(Map.of(), "--max-pending", "-1"))
                .hasMessageContaining("max-pending must be > 0, was -1");
        // the per-IP heap's bound went with it (issue 24): the key is unknown now
        assertThatThrownBy(() -> parse(Map.of(), "--max-pending-per-ip", "7"))
                .hasMessageContaining("max-pending-per-ip");
        assertThatThrownBy(() -> parse(Map.of(), "--threads", "0")).hasMessageContaining("threads must be in 1..64");
        assertThatThrownBy(() -> parse(Map.of(), "--metrics-port", "70000"))
                .hasMessageContaining("metrics-port must be in 0..65535, was 70000");
        assertThatThrownBy(() -> parse(Map.of(), "--politness-ms", "10"))
                .hasMessageContaining("unknown setting --politness-ms");
        assertThatThrownBy(() -> parse(Map.of(), "--tick-ms", "soon")).hasMessageContaining("tick-ms must be a number");
        assertThatThrownBy(() -> parse(Map.of(), "--order", "per-ip"))
                .hasMessageContaining("order must be priority or fifo, was 'per-ip'");
        assertThat(parse(Map.of(), "--order", "fifo").wheel().order()).isEqualTo(SchedulerConfig.Order.FIFO);
    }

    @Test
    void pacing_defaultsToPipelined_keepsThePapersAsPaper_andRejectsConflictingSettings() {
        SchedulerConfig c = parse(Map.of(), "--politeness-ms", "101");
        assertThat(c.wheel().pacing()).isEqualTo(Pacing.Mode.PIPELINED);
        Pacing p = c.wheel().pacingFor(c.politenessMs());
        assertThat(p.stepMs()).as("ceil(T/2): two steps are >= T").isEqualTo(51);
        assertThat(p.stepsInFlight()).isEqualTo(SchedulerConfig.Wheel.DEFAULT_STEPS_IN_FLIGHT);
        assertThat(p.leadMs()).isEqualTo(SchedulerConfig.Wheel.DEFAULT_LEAD_MS);
        Pacing custom = parse(Map.of("CRAWLER_STEPS_IN_FLIGHT", "4"), "--pacing-lead-ms", "0").wheel()
                .pacingFor(1000);
        assertThat(custom.stepsInFlight()).isEqualTo(4);
        assertThat(custom.leadMs()).isZero();
        Pacing paper = parse(Map.of(), "--pacing", "paper").wheel().pacingFor(1000);
        assertThat(paper).isEqualTo(Pacing.paper(1000, SchedulerConfig.Wheel.DEFAULT_STEP_TIMEOUT_MS));
        assertThatThrownBy(() -> parse(Map.of(), "--pacing", "paper", "--steps-in-flight", "4"))
                .hasMessageContaining("apply to pacing=pipelined only");
        assertThatThrownBy(() -> parse(Map.of(), "--pacing", "fast")).hasMessageContaining("pacing must be "
                + "pipelined or paper, was 'fast'");
        assertThatThrownBy(() -> parse(Map.of(), "--steps-in-flight", "0"))
                .hasMessageContaining("steps-in-flight must be in 1..4096, was 0");
        assertThatThrownBy(() -> parse(Map.of(), "--pacing-lead-ms", "-1"))
                .hasMessageContaining("pacing-lead-ms must be in 0..60000, was -1");
    }

    @Test
    void revisitFlushOrder_defaultsToOurs_keepsThePapersByName_andRejectsOthers() {
        assertThat(parse(Map.of()).revisit().flushOrder()).isEqualTo(FlushOrder.FARTHEST_FIRST);
        SchedulerConfig paper = parse(Map.of(), "--revisit-flush-order", "time-order");
        assertThat(paper.revisit().flushOrder()).isEqualTo(FlushOrder.TIME_ORDER);
        assertThat(paper.revisit().bucketOptions().flushOrder()).isEqualTo(FlushOrder.TIME_ORDER);
        assertThat(paper.revisit().bucketOptions().tolerance()).as("no absolute tolerance").isZero();
        assertThat(parse(Map.of("CRAWLER_REVISIT_FLUSH_ORDER", "farthest-first")).revisit().flushOrder())
                .isEqualTo(FlushOrder.FARTHEST_FIRST);
        assertThatThrownBy(() -> parse(Map.of(), "--revisit-flush-order", "lru"))
                .hasMessageContaining("revisit-flush-order");
    }

    @Test
    void revisitEarlyFraction_defaultsToThePapersS_zeroIsStrictTiming_andStaysBelowOne() {
        SchedulerConfig defaults = parse(Map.of());
        assertThat(defaults.revisit().earlyFraction()).isEqualTo(1.0 / 12);
        assertThat(defaults.revisit().bucketOptions().earlyFraction()).isEqualTo(1.0 / 12);
        SchedulerConfig strict = parse(Map.of(), "--revisit-early-fraction", "0");
        assertThat(strict.revisit().bucketOptions().earlyFraction()).isZero();
        assertThat(strict.revisit().withState(SchedulerConfig.RevisitStateMode.STORE).earlyFraction())
                .as("kept by withState").isZero();
        assertThat(parse(Map.of("CRAWLER_REVISIT_EARLY_FRACTION", "0.05")).revisit().earlyFraction())
                .isEqualTo(0.05);
        assertThatThrownBy(() -> parse(Map.of(), "--revisit-early-fraction", "1"))
                .hasMessageContaining("revisit-early-fraction");
        assertThatThrownBy(() -> parse(Map.of(), "--revisit-early-fraction", "-0.1"))
                .hasMessageContaining("revisit-early-fraction");
    }

    @Test
    void shouldWarnLoudlyBelowOneHundredMillisecondsPerIp() {
        Logger logger = (Logger) LoggerFactory.getLogger(SchedulerConfig.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            SchedulerConfig.defaults(KAFKA).withPoliteness(100, 20);
            assertThat(appender.list).isEmpty();
            SchedulerConfig.defaults(KAFKA).withPoliteness(50, 20);
            assertThat(appender.list).singleElement().satisfies(e -> {
                assertThat(e.getLevel()).isEqualTo(Level.WARN);
                assertThat(e.getFormattedMessage()).contains("politeness-ms=50", "20 requests per second");
            });
        } finally {
            logger.detachAppender(appender);
        }
    }

    @Test
    void shouldListEverySettingWithItsDefaultInHelp() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SchedulerMain.printHelp(new PrintStream(out, true, StandardCharsets.UTF_8));
        String help = out.toString(StandardCharsets.UTF_8);
        for (String key : SchedulerConfig.KEYS) {
            assertThat(help).contains("--" + key);
        }
        assertThat(help).contains("default: 1000", "CRAWLER_POLITENESS_MS", "--kafka.<name>", "CRAWLER_KAFKA_<NAME>");
    }
}
