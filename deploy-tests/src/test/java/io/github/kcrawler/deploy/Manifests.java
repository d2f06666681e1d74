package io.github.kcrawler.deploy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Kubernetes manifests parsed into fabric8's typed model (an unknown kind or a wrongly typed field fails). */
final class Manifests {
    private Manifests() {
    }

    /** Every document of a multi-document YAML text, each parsed on its own into its typed class. */
    static List<HasMetadata> parse(String yaml, String origin) {
        List<HasMetadata> out = new ArrayList<>();
        int n = 0;
        for (String doc : yaml.split("(?m)^---\\s*$")) {
            n++;
            if (doc.lines().allMatch(l -> l.isBlank() || l.stripLeading().startsWith("#"))) {
                continue;
            }
            Object parsed;
            try {
                parsed = Serialization.unmarshal(doc);
            } catch (RuntimeException e) {
                throw new AssertionError(origin + " document " + n + " does not parse: " + e.getMessage(), e);
            }
            if (!(parsed instanceof HasMetadata h)) {
                throw new AssertionError(origin + " document " + n + " is not a Kubernetes object: " + parsed);
            }
            out.add(h);
        }
        return out;
    }

    static List<HasMetadata> parse(Path file) {
        return parse(Repo.read(file), Repo.root().relativize(file).toString());
    }

    /**
     * {@code kubectl kustomize DIR} rendered and parsed, or empty when no kubectl with kustomize v5 or later is
     * installed (Debian's kubernetes-client 1.20 bundles kustomize v2, which predates the {@code labels} field).
     */
    static Optional<List<HasMetadata>> render(Path kustomizationDir) throws Exception {
        if (!ComposeFileTest.onPath("kubectl") || kustomizeMajorVersion() < 5) {
            return Optional.empty();
        }
        Process p = new ProcessBuilder("kubectl", "kustomize", kustomizationDir.toString()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        byte[] err = p.getErrorStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("kubectl kustomize " + kustomizationDir + " failed: "
                    + new String(err, StandardCharsets.UTF_8));
        }
        return Optional.of(parse(out, "kubectl kustomize " + Repo.root().relativize(kustomizationDir)));
    }

    static int kustomizeMajorVersion() throws Exception {
        Process p = new ProcessBuilder("kubectl", "version", "--client").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Kustomize Version: v(\\d+)").matcher(out);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /** Every file a kustomization.yaml names (resources, patches, generator files), relative to its directory. */
    static List<Path> referencedFiles(Path kustomizationDir) {
        Map<String, Object> k = Repo.yamlMap(kustomizationDir.resolve("kustomization.yaml"));
        List<Path> files = new ArrayList<>();
        for (Object r : k.containsKey("resources") ? Repo.list(k.get("resources"), "resources") : List.of()) {
            files.add(kustomizationDir.resolve(String.valueOf(r)).normalize());
        }
        for (Object p : k.containsKey("patches") ? Repo.list(k.get("patches"), "patches") : List.of()) {
            Object path = Repo.map(p, "patch").get("path");
            if (path != null) {
                files.add(kustomizationDir.resolve(String.valueOf(path)).normalize());
            }
        }
        for (Object c : k.containsKey("components") ? Repo.list(k.get("components"), "components") : List.of()) {
            files.add(kustomizationDir.resolve(String.valueOf(c)).normalize());
        }
        for (Object p : k.containsKey("patchesStrategicMerge") ? Repo.list(k.get("patchesStrategicMerge"), "psm") : List.of()) {
            files.add(kustomizationDir.resolve(String.valueOf(p)).normalize());
        }
        for (Object g : k.containsKey("configMapGenerator") ? Repo.list(k.get("configMapGenerator"), "generators") : List.of()) {
            Object fs = Repo.map(g, "generator").get("files");
            for (Object f : fs == null ? List.of() : Repo.list(fs, "files")) {
                String s = String.valueOf(f);
                files.add(kustomizationDir.resolve(s.contains("=") ? s.substring(s.indexOf('=') + 1) : s).normalize());
            }
        }
        return files;
    }

    /** The kustomize components under k8s/components (each a directory with a kustomization.yaml). */
    static List<Path> components() throws Exception {
        try (var dirs = Files.list(Repo.file("k8s/components"))) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("kustomization.yaml"))).sorted().toList();
        }
    }

    /** A JSON 6902 patch file (a YAML list of operations), not a Kubernetes object. */
    static boolean isJsonPatch(Path file) {
        return Repo.read(file).lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .findFirst().orElse("").startsWith("- op:");
    }

    static List<Path> overlays() throws Exception {
        try (var dirs = Files.list(Repo.file("k8s/overlays"))) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("kustomization.yaml"))).sorted().toList();
        }
    }
}
