package io.github.kcrawler.lab.simulate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

/** Runs an experiment and writes its JSON summary (to {@code summary}, or stdout), for the experiments' mains. */
final class ExperimentOutput {
    private ExperimentOutput() {
    }

    /** @return 0, or 1 after printing the failure prefixed with {@code name} */
    static int run(String name, Callable<Map<String, Object>> experiment, Path summary) {
        try {
            Map<String, Object> result = experiment.call();
            ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            if (summary == null) {
                System.out.println(mapper.writeValueAsString(result));
            } else {
                Path parent = summary.toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                mapper.writeValue(summary.toFile(), result);
                System.err.println("summary: " + summary);
            }
            return 0;
        } catch (Exception e) {
            System.err.println(name + ": " + e);
            return 1;
        }
    }
}
