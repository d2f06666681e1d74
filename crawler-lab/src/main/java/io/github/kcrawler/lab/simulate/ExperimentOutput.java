package io.github.kcrawler.lab.simulate;

import io.github.kcrawler.common.serde.JsonSerde;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * Runs an experiment and writes its JSON summary (to {@code summary}, or stdout) with the lab's one serializer, for
 * the experiments' mains.
 */
final class ExperimentOutput {
    private ExperimentOutput() {
    }

    /** @return 0, or 1 after printing the failure prefixed with {@code name} */
    static int run(String name, Callable<?> experiment, Path summary) {
        try {
            Object result = experiment.call();
            if (summary == null) {
                System.out.println(JsonSerde.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(result));
            } else {
                JsonSerde.writeIndented(summary, result);
                System.err.println("summary: " + summary);
            }
            return 0;
        } catch (Exception e) {
            System.err.println(name + ": " + e);
            return 1;
        }
    }
}
