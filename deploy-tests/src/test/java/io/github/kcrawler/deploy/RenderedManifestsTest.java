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

    /** The same for k8s/overlays/strimzi and its committed rendering (StrimziOverlayTest reads it without kubectl). */
    static final String COMMITTED_STRIMZI = "deploy-tests/src/test/resources/k8s/strimzi-rendered.yaml";

    @Test
    void theCommittedStrimziRenderingIsKubectlKustomizeOfTheStrimziOverlay() throws Exception {
        String live = kubectlKustomize("k8s/overlays/strimzi");
        assumeTrue(live != null, "kubectl (kustomize v5) is not installed: the committed rendering is not checked");
        assertThat(Repo.read(Repo.file(COMMITTED_STRIMZI))).as(COMMITTED_STRIMZI + " is stale; regenerate it with"
                + " kubectl kustomize k8s/overlays/strimzi > " + COMMITTED_STRIMZI).isEqualTo(live);
    }

    /** The Strimzi overlay rendered: by kubectl when installed, else the committed rendering. */
    static List<HasMetadata> strimzi() throws Exception {
        String live = kubectlKustomize("k8s/overlays/strimzi");
        return Manifests.parse(live != null ? live : Repo.read(Repo.file(COMMITTED_STRIMZI)),
                live != null ? "kubectl kustomize k8s/overlays/strimzi" : COMMITTED_STRIMZI);
    }

    static String kubectlKustomize() throws Exception {
        return kubectlKustomize("k8s/overlays/example");
    }

    static String kubectlKustomize(String overlay) throws Exception {
        if (!ComposeFileTest.onPath("kubectl") || Manifests.kustomizeMajorVersion() < 5) {
            return null;
        }
        Path dir = Repo.file(overlay);
        Process p = new ProcessBuilder("kubectl", "kustomize", dir.toString()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        byte[] err = p.getErrorStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("kubectl kustomize failed: " + new String(err, StandardCharsets.UTF_8));
        }
        return out;
    }
}
