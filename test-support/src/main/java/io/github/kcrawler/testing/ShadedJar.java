package io.github.kcrawler.testing;

import java.nio.file.Path;

/**
 * The shaded jar of the module whose integration tests are running, for ITs that start it in child JVMs. Its path
 * comes from the build (the root pom's failsafe configuration sets {@value #PROPERTY} to
 * {@code ${project.build.directory}/${project.build.finalName}-all.jar}), so no test spells out the project version.
 */
public final class ShadedJar {
    public static final String PROPERTY = "kcrawler.shadedJar";

    private ShadedJar() {
    }

    /** The jar's absolute path; fails with the reason when the test is not run by failsafe. */
    public static Path path() {
        String jar = System.getProperty(PROPERTY);
        if (jar == null || jar.isBlank()) {
            throw new IllegalStateException("system property " + PROPERTY + " is not set: run integration tests "
                    + "with `mvn verify` (failsafe sets it to the module's shaded jar)");
        }
        return Path.of(jar).toAbsolutePath();
    }
}
