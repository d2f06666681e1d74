package io.github.kcrawler.deploy;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The repository's deployment files, read the way the tests need them. */
final class Repo {
    private Repo() {
    }

    /** Root of the repository (set by the surefire configuration; the module's parent otherwise). */
    static Path root() {
        String p = System.getProperty("kcrawler.root");
        Path root = p != null ? Path.of(p) : Path.of("..");
        return root.toAbsolutePath().normalize();
    }

    static Path file(String relative) {
        return root().resolve(relative);
    }

    static String projectVersion() {
        return Objects.requireNonNull(System.getProperty("kcrawler.version"), "kcrawler.version system property");
    }

    static String read(Path path) {
        try {
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every YAML document of a file (merge keys and anchors resolved, as compose and kubectl do). */
    static List<Object> yamlDocuments(Path path) {
        List<Object> docs = new ArrayList<>();
        for (Object doc : new Yaml(new LoaderOptions()).loadAll(read(path))) {
            if (doc != null) {
                docs.add(doc);
            }
        }
        return docs;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> yamlMap(Path path) {
        List<Object> docs = yamlDocuments(path);
        if (docs.size() != 1 || !(docs.get(0) instanceof Map)) {
            throw new AssertionError(path + " must hold exactly one YAML mapping");
        }
        return (Map<String, Object>) docs.get(0);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o, String what) {
        if (!(o instanceof Map)) {
            throw new AssertionError(what + " must be a mapping, was " + o);
        }
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o, String what) {
        if (!(o instanceof List)) {
            throw new AssertionError(what + " must be a list, was " + o);
        }
        return (List<Object>) o;
    }

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?}");

    /**
     * Compose variable interpolation as a user without any KCRAWLER_* variables set sees it: {@code ${X:-d}} and
     * {@code ${X-d}} become d, {@code ${X}} becomes empty, {@code $$} a single dollar.
     */
    static String interpolateDefaults(String value) {
        String escaped = value.replace("$$", "\u0000");
        Matcher m = VARIABLE.matcher(escaped);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(2) == null ? "" : m.group(2)));
        }
        m.appendTail(out);
        return out.toString().replace("\u0000", "$");
    }

    /** A compose {@code environment:} (mapping or list of KEY=VALUE) with defaults interpolated. */
    static Map<String, String> composeEnvironment(Object environment) {
        Map<String, String> env = new LinkedHashMap<>();
        if (environment == null) {
            return env;
        }
        if (environment instanceof Map<?, ?> m) {
            m.forEach((k, v) -> env.put(String.valueOf(k), v == null ? "" : interpolateDefaults(String.valueOf(v))));
        } else {
            for (Object entry : list(environment, "environment")) {
                String s = String.valueOf(entry);
                int eq = s.indexOf('=');
                env.put(s.substring(0, eq), interpolateDefaults(s.substring(eq + 1)));
            }
        }
        return env;
    }

    /** {@code ARG NAME=default} of docker/Dockerfile. */
    static String dockerfileArg(String name) {
        Matcher m = Pattern.compile("(?m)^ARG " + Pattern.quote(name) + "=(\\S+)$").matcher(read(file("docker/Dockerfile")));
        if (!m.find()) {
            throw new AssertionError("docker/Dockerfile has no ARG " + name + " with a default");
        }
        return m.group(1);
    }

    /** The CRAWLER_* variables docker/Dockerfile sets in every image, with build-argument defaults applied. */
    static Map<String, String> dockerfileCrawlerEnv() {
        String dockerfile = read(file("docker/Dockerfile"));
        Matcher m = Pattern.compile("(CRAWLER_[A-Z0-9_]+)=([^\\s\\\\]+)").matcher(dockerfile);
        Map<String, String> env = new LinkedHashMap<>();
        while (m.find()) {
            env.put(m.group(1), m.group(2).replace("${METRICS_PORT}", dockerfileArg("METRICS_PORT")));
        }
        return env;
    }

    /** Words of a {@code NAME="a b c"} assignment in a shell script. */
    static List<String> shellList(Path script, String variable) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(variable) + "=\"([^\"]*)\"").matcher(read(script));
        if (!m.find()) {
            throw new AssertionError(script + " has no " + variable + "=\"...\"");
        }
        return List.of(m.group(1).trim().split("\\s+"));
    }
}
