package io.github.kcrawler.deploy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * deploy-tests/src/test/resources/k8s/example-rendered.yaml is exactly {@code kubectl kustomize
 * k8s/overlays/example}: KustomizeWithoutClusterIT runs it where kubectl is not installed, so it must not drift.
 * Regenerate with {@code kubectl kustomize k8s/overlays/example > deploy-tests/src/test/resources/k8s/example-rendered.yaml}.
 */
class RenderedManifestsTest {
    static final String COMMITTED = "deploy-tests/src/test/resources/k8s/example-rendered.yaml";

    @Test
    void theCommittedRenderingIsKubectlKustomizeOfTheExampleOverlay() throws Exception {
        String live = kubectlKustomize();
        assumeTrue(live != null, "kubectl (kustomize v5) is not installed: the committed rendering is not checked");
        assertThat(Repo.read(Repo.file(COMMITTED))).as(COMMITTED + " is stale; regenerate it (see this test's doc)")
                .isEqualTo(live);
    }

    /** The example overlay rendered: by kubectl when installed, else the committed rendering. */
    static List<HasMetadata> example() throws Exception {
        String live = kubectlKustomize();
        return Manifests.parse(live != null ? live : Repo.read(Repo.file(COMMITTED)),
                live != null ? "kubectl kustomize k8s/overlays/example" : COMMITTED);
    }

    static String kubectlKustomize() throws Exception {
        if (!ComposeFileTest.onPath("kubectl") || Manifests.kustomizeMajorVersion() < 5) {
            return null;
        }
        Path dir = Repo.file("k8s/overlays/example");
        Process p = new ProcessBuilder("kubectl", "kustomize", dir.toString()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        byte[] err = p.getErrorStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("kubectl kustomize failed: " + new String(err, StandardCharsets.UTF_8));
        }
        return out;
    }
}
