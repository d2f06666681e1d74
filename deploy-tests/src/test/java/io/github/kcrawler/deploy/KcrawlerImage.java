package io.github.kcrawler.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A kcrawler image built from docker/Dockerfile with build argument SERVICE, run as a {@link LocalContainers}
 * process: the Dockerfile's ENV (CRAWLER_METRICS_HOST/PORT, CRAWLER_STATE_DIR, JAVA_OPTS) under the container's
 * environment, and its ENTRYPOINT {@code java ${JAVA_OPTS} -jar app.jar ARGS} on the module's own shaded jar.
 */
final class KcrawlerImage {
    private KcrawlerImage() {
    }

    static Path jar(String module) {
        Path jar = Repo.root().resolve(module).resolve("target")
                .resolve(module + "-" + Repo.projectVersion() + "-all.jar");
        if (!Files.isRegularFile(jar)) {
            throw new AssertionError(jar + " is missing: the IT runs each service's own shaded jar (mvn -pl "
                    + "deploy-tests -am verify packages them first)");
        }
        return jar;
    }

    /** The image's ENV: CRAWLER_* and JAVA_OPTS of docker/Dockerfile. */
    static Map<String, String> imageEnv() {
        Map<String, String> env = new LinkedHashMap<>(Repo.dockerfileCrawlerEnv());
        Matcher m = Pattern.compile("JAVA_OPTS=\"([^\"]*)\"").matcher(Repo.read(Repo.file("docker/Dockerfile")));
        if (!m.find()) {
            throw new AssertionError("docker/Dockerfile sets no JAVA_OPTS");
        }
        env.put("JAVA_OPTS", m.group(1));
        return env;
    }

    /**
     * Starts {@code module}'s image as container {@code name} (network namespace of {@code network}) with the
     * container's environment and command (args after the entrypoint).
     */
    static Process start(LocalContainers c, String name, String network, String module, Map<String, String> env,
                         List<String> args, LocalContainers.Mounts mounts, String memLimit, int cpus) throws Exception {
        Map<String, String> e = new LinkedHashMap<>(imageEnv());
        e.putAll(env);
        e.replaceAll((k, v) -> k.equals("JAVA_OPTS") ? v : mounts.map(v));
        if ("0.0.0.0".equals(e.get("CRAWLER_METRICS_HOST"))) {
            e.put("CRAWLER_METRICS_HOST", c.ip(network));
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java));
        String opts = e.remove("JAVA_OPTS");
        if (opts != null && !opts.isBlank()) {
            cmd.addAll(List.of(opts.trim().split("\\s+")));
        }
        cmd.addAll(c.jvmFlags(memLimit, cpus));
        cmd.addAll(List.of("-jar", jar(module).toString()));
        for (String a : args) {
            cmd.add(mounts.map(a));
        }
        return c.start(name, cmd, e);
    }
}
