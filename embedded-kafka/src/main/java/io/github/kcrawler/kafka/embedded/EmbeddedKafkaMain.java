package io.github.kcrawler.kafka.embedded;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The embedded single-node KRaft broker as a process of its own, for crawls whose services run in separate JVMs
 * (the fault tests kill and restart it in place):
 * {@code java -cp crawler-app-…-all.jar io.github.kcrawler.kafka.embedded.EmbeddedKafkaMain --data-dir DIR
 * [--port P] [--set broker.setting=value ...]}.
 *
 * <p>Started again on the same data directory it reopens the same cluster (topics, records, offsets) on the same
 * port. Once the broker accepts requests it prints one line {@code READY 127.0.0.1:PORT} on standard output, so a
 * parent process can wait for it. Stops cleanly on SIGTERM. Exit status 2 on bad arguments, 1 if the broker cannot
 * start (or is not ready within {@link #START_DEADLINE}).
 */
public final class EmbeddedKafkaMain {
    /**
     * The backstop for a start that hangs (or the clean-up of a failed one): the broker gives up on its own after
     * {@code server.max.startup.time.ms} (60 s) and the readiness wait (60 s); past this the process exits with
     * status 1, so whoever started it sees an exit rather than a process that never gets ready.
     */
    static final java.time.Duration START_DEADLINE = java.time.Duration.ofSeconds(150);
    /** The line printed once the broker is ready, followed by a space and the bootstrap address. */
    public static final String READY = "READY";

    private EmbeddedKafkaMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        EmbeddedKafkaConfig config;
        try {
            config = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("broker: " + e.getMessage());
            System.err.println(usage());
            System.exit(2);
            return;
        }
        if (config == null) {
            System.out.println(usage());
            return;
        }
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(START_DEADLINE.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            System.err.println("broker: not ready after " + START_DEADLINE.toSeconds() + " s; exiting");
            Runtime.getRuntime().halt(1);
        }, "broker-start-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        EmbeddedKafkaBroker broker;
        try {
            broker = EmbeddedKafkaBroker.start(config);
        } catch (RuntimeException e) {
            System.err.println("broker: " + e.getMessage());
            System.err.flush();
            Runtime.getRuntime().halt(1); // nothing to clean up: the broker did not start, its data dir recovers
            return;
        }
        watchdog.interrupt();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            broker.close();
            stopped.countDown();
        }, "broker-shutdown"));
        System.out.println(READY + " " + broker.bootstrapServers());
        System.out.flush();
        stopped.await();
    }

    /** The configuration the arguments describe, or null when they ask for help. */
    static EmbeddedKafkaConfig parse(String... args) {
        Path dataDir = null;
        int port = 0;
        Map<String, String> overrides = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                return null;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option '" + a + "' needs a value");
            }
            String v = args[++i];
            switch (a) {
                case "--data-dir" -> dataDir = Path.of(v);
                case "--port" -> {
                    try {
                        port = Integer.parseInt(v);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--port must be a number in 0..65535, was '" + v + "'");
                    }
                }
                case "--set" -> {
                    int eq = v.indexOf('=');
                    if (eq <= 0) {
                        throw new IllegalArgumentException("--set needs broker.setting=value, was '" + v + "'");
                    }
                    overrides.put(v.substring(0, eq), v.substring(eq + 1));
                }
                default -> throw new IllegalArgumentException("unknown option '" + a + "'");
            }
        }
        if (dataDir == null) {
            throw new IllegalArgumentException("--data-dir is required");
        }
        return new EmbeddedKafkaConfig(dataDir, port, EmbeddedKafkaConfig.LOOPBACK, overrides);
    }

    static String usage() {
        return "Usage: broker --data-dir DIR [--port P] [--set broker.setting=value]...\n"
                + "  Runs a single-node KRaft broker on 127.0.0.1:P (0 = the port used last time on DIR, else a free"
                + " one)\n  and prints 'READY 127.0.0.1:P' once it accepts requests. SIGTERM stops it cleanly.";
    }
}
