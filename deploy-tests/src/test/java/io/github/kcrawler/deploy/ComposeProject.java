package io.github.kcrawler.deploy;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * docker-compose files read as {@code docker compose -f A -f B} reads them: YAML anchors and merge keys, later files
 * merged over earlier ones (mappings merged key by key, {@code volumes}/{@code ports} appended, everything else
 * replaced), then {@code ${VAR:-default}} interpolated with the given variables (a user's .env file).
 */
final class ComposeProject {
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)-([^}]*))?}");
    private final Map<String, Object> model;

    private ComposeProject(Map<String, Object> model) {
        this.model = model;
    }

    static ComposeProject load(Map<String, String> variables, Path... files) {
        Map<String, Object> merged = new LinkedHashMap<>();
        for (Path f : files) {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            Object doc = new Yaml(options).load(Repo.read(f));
            merged = mergeMaps(merged, Repo.map(doc, f.toString()), "");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> interpolated = (Map<String, Object>) interpolate(merged, variables);
        return new ComposeProject(interpolated);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> mergeMaps(Map<String, Object> base, Map<String, Object> over, String path) {
        Map<String, Object> out = new LinkedHashMap<>(base);
        over.forEach((k, v) -> {
            Object b = out.get(k);
            if (b instanceof Map && v instanceof Map) {
                out.put(k, mergeMaps((Map<String, Object>) b, (Map<String, Object>) v, path + "/" + k));
            } else if (b instanceof List && v instanceof List && (k.equals("volumes") || k.equals("ports"))) {
                List<Object> l = new ArrayList<>((List<Object>) b);
                l.addAll((List<Object>) v);
                out.put(k, l);
            } else {
                out.put(k, v);
            }
        });
        return out;
    }

    private static Object interpolate(Object o, Map<String, String> variables) {
        if (o instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), interpolate(v, variables)));
            return out;
        }
        if (o instanceof List<?> l) {
            return l.stream().map(v -> interpolate(v, variables)).toList();
        }
        if (o instanceof String s) {
            return interpolate(s, variables);
        }
        return o;
    }

    static String interpolate(String value, Map<String, String> variables) {
        String escaped = value.replace("$$", "\u0000");
        Matcher m = VARIABLE.matcher(escaped);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String v = variables.get(m.group(1));
            boolean colon = ":".equals(m.group(2));
            String replacement;
            if (m.group(3) == null) {
                replacement = v == null ? "" : v;
            } else {
                replacement = v == null || (colon && v.isEmpty()) ? m.group(3) : v;
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString().replace("\u0000", "$");
    }

    Map<String, Object> service(String name) {
        return Repo.map(Repo.map(model.get("services"), "services").get(name), "service " + name);
    }

    Map<String, String> environment(String service) {
        Map<String, String> env = new LinkedHashMap<>();
        Object e = service(service).get("environment");
        if (e instanceof Map<?, ?> m) {
            m.forEach((k, v) -> env.put(String.valueOf(k), v == null ? "" : String.valueOf(v)));
        } else if (e != null) {
            for (Object entry : Repo.list(e, "environment")) {
                String s = String.valueOf(entry);
                int eq = s.indexOf('=');
                env.put(s.substring(0, eq), s.substring(eq + 1));
            }
        }
        return env;
    }

    List<String> stringList(String service, String key) {
        Object v = service(service).get(key);
        if (v == null) {
            return List.of();
        }
        if (v instanceof String s) {
            return List.of(s.trim().split("\\s+"));
        }
        return Repo.list(v, key).stream().map(String::valueOf).toList();
    }

    /** {@code volumes:} entries as (source, container path); a named volume's source is its name. */
    List<String[]> mounts(String service) {
        List<String[]> out = new ArrayList<>();
        for (String v : stringList(service, "volumes")) {
            String[] parts = v.split(":");
            out.add(new String[] {parts[0], parts[1]});
        }
        return out;
    }

    /** The service whose network namespace this one shares ({@code network_mode: service:X}), or null. */
    String networkOf(String service) {
        Object n = service(service).get("network_mode");
        return n != null && String.valueOf(n).startsWith("service:") ? String.valueOf(n).substring(8) : null;
    }

    String buildArg(String service, String name) {
        Map<String, Object> build = Repo.map(service(service).get("build"), service + " build");
        return String.valueOf(Repo.map(build.get("args"), service + " build args").get(name));
    }

    /** mem_limit as a JVM size ({@code 2g}, {@code 1536m}), or null. */
    String memLimit(String service) {
        Object m = service(service).get("mem_limit");
        return m == null ? null : String.valueOf(m);
    }
}
