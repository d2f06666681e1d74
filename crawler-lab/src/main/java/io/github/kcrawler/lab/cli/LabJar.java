package io.github.kcrawler.lab.cli;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The lab's shaded jar, which {@code bench faults}, {@code bench scale} and {@code bench soak} start in child JVMs
 * when no {@code --jar} is given: the jar this code runs from, else the one the build left in
 * {@code crawler-lab/target} (whatever the project version).
 */
final class LabJar {
    private static final Path BUILD_DIR = Path.of("crawler-lab", "target");
    private static final String BUILD_GLOB = "crawler-lab-*-all.jar";

    private LabJar() {
    }

    static Path locate(CommandSpec spec) {
        try {
            Path p = Path.of(LabJar.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(p) && p.toString().endsWith(".jar")) {
                return p;
            }
        } catch (URISyntaxException | RuntimeException e) {
            // not loaded from a local file: look for the build's jar
        }
        List<Path> built = new ArrayList<>();
        if (Files.isDirectory(BUILD_DIR)) {
            try (DirectoryStream<Path> jars = Files.newDirectoryStream(BUILD_DIR, BUILD_GLOB)) {
                jars.forEach(built::add);
            } catch (IOException e) {
                // reported below as no jar found
            }
        }
        if (built.size() == 1) {
            return built.get(0);
        }
        throw new ParameterException(spec.commandLine(), "not running from the lab jar and "
                + (built.isEmpty() ? "no " : built.size() + " ") + BUILD_DIR.resolve(BUILD_GLOB)
                + " found: give --jar");
    }
}
