package io.github.kcrawler.lab.ranker.simulate;

import io.github.kcrawler.common.serde.JsonSerde;
import io.github.kcrawler.common.config.Settings;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * Runs the crawl-ordering experiment from the command line without the crawler CLI:
 * {@code java -cp ranker-service-…-all.jar io.github.kcrawler.lab.ranker.simulate.OrderingMain --graph BASENAME
 * --summary FILE --plots DIR}. Settings are {@code --key value} flags or {@code CRAWLER_*} variables
 * ({@code --help} lists them). Exits 2 on bad settings, 1 if the run fails.
 */
public final class OrderingMain {

    private OrderingMain() {
    }

    public static void main(String[] args) {
        if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
            printHelp(System.out);
            return;
        }
        Settings settings;
        OrderingOptions options;
        try {
            settings = Settings.parse(OrderingOptions.KEYS, System.getenv(), args);
            int synthetic = settings.integer("synthetic-pages", 0);
            if (synthetic < 0 || synthetic > 50_000_000) {
                throw new IllegalArgumentException("synthetic-pages must be in 0..50000000, was " + synthetic);
            }
            if (!settings.has("graph") && synthetic == 0) {
                throw new IllegalArgumentException("--graph BASENAME (or --synthetic-pages N) is required");
            }
            if (settings.has("graph") && synthetic > 0) {
                throw new IllegalArgumentException("give either --graph or --synthetic-pages, not both");
            }
            options = OrderingOptions.from(settings);
        } catch (IllegalArgumentException e) {
            System.err.println("simulate: " + e.getMessage());
            System.err.println("Run with --help for the settings.");
            System.exit(2);
            return;
        }
        try {
            int synthetic = settings.integer("synthetic-pages", 0);
            OrderingResult summary = synthetic > 0 ? OrderingExperiment.runSynthetic(synthetic, options)
                    : OrderingExperiment.run(Path.of(settings.string("graph", "")), options);
            String summaryFile = settings.string("summary", null);
            writeJson(summary, summaryFile == null ? null : Path.of(summaryFile));
        } catch (IOException | RuntimeException e) {
            System.err.println("simulate: " + e);
            System.exit(1);
        }
    }

    /** Writes the summary as indented JSON to {@code file}, or to stdout when {@code file} is null. */
    public static void writeJson(Object summary, Path file) throws IOException {
        if (file == null) {
            System.out.println(JsonSerde.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(summary));
        } else {
            JsonSerde.writeIndented(file, summary);
        }
    }

    static void printHelp(PrintStream out) {
        out.println("simulate --experiment ordering: crawl orderings of paper 002 on a graph in memory "
                + "(criteria A, B, C and speed).");
        out.println("Settings (flag --key value, or environment variable; flags win):");
        for (Map.Entry<String, String> e : OrderingOptions.DEFAULTS.entrySet()) {
            out.printf("  --%-20s %-30s default: %s%n", e.getKey(), Settings.envName(e.getKey()), e.getValue());
        }
    }
}
