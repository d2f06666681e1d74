package io.github.kcrawler.deploy;

import io.github.kcrawler.fetcher.FetcherConfig;
import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.CommonSettings;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.github.kcrawler.app.cli.CrawlerMain;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.internals.AppInfoParser;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * k8s/: every kustomization names only files that exist, every manifest (base, overlay patches, rendered output)
 * parses into fabric8's typed model, and the rendered objects agree with the code: settings each service accepts,
 * images, ports, probes, topics, partitions and the compose services' counterparts.
 */
class KubernetesManifestsTest {
    private static final Path BASE = Repo.file("k8s/base");

    @Test
    void kustomizationsNameOnlyExistingFiles() throws Exception {
        List<Path> dirs = new ArrayList<>(List.of(BASE));
        dirs.addAll(Manifests.overlays());
        dirs.addAll(Manifests.components());
        assertThat(Manifests.overlays()).extracting(p -> p.getFileName().toString()).contains("example");
        for (Path dir : dirs) {
            for (Path f : Manifests.referencedFiles(dir)) {
                assertThat(Files.isRegularFile(f) || Files.isRegularFile(f.resolve("kustomization.yaml")))
                        .as(dir + " names " + f).isTrue();
            }
        }
    }

    @Test
    void everyManifestFileParsesIntoTypedObjects() throws Exception {
        List<Path> files;
        try (var walk = Files.walk(Repo.file("k8s"))) {
            files = walk.filter(p -> p.toString().endsWith(".yaml"))
                    .filter(p -> !p.getFileName().toString().equals("kustomization.yaml"))
                    .filter(p -> !Manifests.isJsonPatch(p)).sorted().toList();
        }
        assertThat(files).hasSizeGreaterThan(15);
        int objects = 0;
        for (Path f : files) {
            for (HasMetadata o : Manifests.parse(f)) {
                // custom resources: KEDA's (k8s/overlays/keda) and Strimzi's (k8s/overlays/strimzi)
                if (!List.of("ScaledObject", "KafkaTopic", "KafkaUser").contains(o.getKind())) {
                    assertThat(o).as(f + " " + o.getKind()).isNotInstanceOf(GenericKubernetesResource.class);
                }
                assertThat(o.getMetadata().getName()).as(f + " name").isNotBlank();
                objects++;
            }
        }
        assertThat(objects).isGreaterThan(25);
    }

    @Test
    void baseFilesAgreeWithTheCode() {
        List<HasMetadata> objects = new ArrayList<>();
        for (Path f : Manifests.referencedFiles(BASE)) {
            if (f.toString().endsWith(".yaml")) {
                objects.addAll(Manifests.parse(f));
            }
        }
        assertThat(objects).as("the base runs no Kafka of its own (k8s/components/kafka does)")
                .noneMatch(o -> o instanceof StatefulSet s && s.getMetadata().getName().equals("kafka"));
        checkAgainstCode(objects, true, false);
        for (Path f : Manifests.referencedFiles(Repo.file("k8s/components/kafka"))) {
            if (f.toString().endsWith(".yaml")) {
                objects.addAll(Manifests.parse(f));
            }
        }
        checkAgainstCode(objects, true, false);
    }

    @Test
    void noOverlayDeletesWhatTheBaseHasExceptKedaItsHpa() throws Exception {
        for (Path overlay : Manifests.overlays()) {
            String k = Repo.read(overlay.resolve("kustomization.yaml"));
            if (!overlay.getFileName().toString().equals("keda")) {
                assertThat(k).as(overlay + " needs no $patch: delete (issue 23)").doesNotContain("$patch: delete");
            }
        }
        assertThat(Manifests.overlays()).extracting(p -> p.getFileName().toString())
                .contains("example", "external", "strimzi", "keda");
    }

    @Test
    void baseAndEveryOverlayRenderWithKubectlAndAgreeWithTheCode() throws Exception {
        Optional<List<HasMetadata>> base = Manifests.render(BASE);
        assumeTrue(base.isPresent(), "kubectl is not installed: rendering not checked (file-level checks still run)");
        checkAgainstCode(base.get(), true, true);
        for (Path overlay : Manifests.overlays()) {
            List<HasMetadata> rendered = Manifests.render(overlay).orElseThrow();
            checkAgainstCode(rendered, false, true);
            assertThat(rendered.stream().filter(o -> !o.getKind().equals("Namespace"))
                    .map(o -> String.valueOf(o.getMetadata().getNamespace())).distinct().toList())
                    .as(overlay + " puts everything in one namespace").hasSize(1).doesNotContain("null");
        }
    }

    @Test
    void everyComposeServiceHasAKubernetesCounterpart() {
        Map<String, String> counterpart = Map.of("kafka", "StatefulSet/kafka", "topics", "Job/kcrawler-topics",
                "seed", "Job/kcrawler-seed", "fetcher", "StatefulSet/fetcher", "dedup", "StatefulSet/dedup",
                "scheduler", "StatefulSet/scheduler", "ranker", "StatefulSet/ranker",
                // Kubernetes users run their own Prometheus: the services and pods carry scrape annotations
                "prometheus", "Service/fetcher");
        Map<String, Object> services = Repo.map(Repo.yamlMap(Repo.file("docker-compose.yml")).get("services"), "services");
        List<HasMetadata> base = new ArrayList<>();
        Manifests.referencedFiles(BASE).stream().filter(f -> f.toString().endsWith(".yaml"))
                .forEach(f -> base.addAll(Manifests.parse(f)));
        // the in-cluster Kafka is a component (k8s/components/kafka) that the example overlay adds to the base
        Manifests.referencedFiles(Repo.file("k8s/components/kafka")).stream().filter(f -> f.toString().endsWith(".yaml"))
                .forEach(f -> base.addAll(Manifests.parse(f)));
        for (String name : services.keySet()) {
            assertThat(counterpart).as("compose service " + name + " has a k8s counterpart").containsKey(name);
            String[] kn = counterpart.get(name).split("/");
            assertThat(base).as(counterpart.get(name))
                    .anyMatch(o -> o.getKind().equals(kn[0]) && o.getMetadata().getName().equals(kn[1]));
            Map<String, Object> compose = Repo.map(services.get(name), name);
            if (compose.get("image") != null && !name.equals("prometheus")) {
                String image = Repo.interpolateDefaults(String.valueOf(compose.get("image")));
                assertThat(podSpecs(base).values()).as(name + " uses image " + image).anyMatch(spec ->
                        spec.getContainers().stream().anyMatch(c -> c.getImage().equals(image)));
            }
        }
        for (Deployable d : Deployable.values()) {
            Service s = one(base, Service.class, d.serviceName);
            assertThat(s.getMetadata().getAnnotations()).containsEntry("prometheus.io/scrape", "true")
                    .containsEntry("prometheus.io/port",
                            Repo.dockerfileCrawlerEnv().get(CommonSettings.METRICS_PORT.env()));
        }
    }

    // ---------------------------------------------------------------------------------------------------------

    @SuppressWarnings("unchecked")
    private static void checkAgainstCode(List<HasMetadata> objects, boolean base, boolean rendered) {
        String metricsPort = Repo.dockerfileCrawlerEnv().get(CommonSettings.METRICS_PORT.env());
        String stateDir = Repo.dockerfileCrawlerEnv().get(KafkaSettings.STATE_DIR.env());
        ConfigMap common = one(objects, ConfigMap.class, "kcrawler-common");
        int partitions = Integer.parseInt(common.getData().get(KafkaSettings.PARTITIONS.env()));

        for (Deployable d : Deployable.values()) {
            PodTemplateSpec template = one(objects, StatefulSet.class, d.serviceName).getSpec().getTemplate();
            Container c = template.getSpec().getContainers().get(0);
            // settings: what the container's environment and args give the service's own parser and validator
            Map<String, String> env = new HashMap<>(Repo.dockerfileCrawlerEnv());
            env.putAll(environment(objects, c, d.serviceName + "-0"));
            List<String> args = c.getArgs() == null ? List.of() : c.getArgs();
            assertThat(d.configure(env, args)).as(d.serviceName + " settings").isNotNull();
            for (String arg : args) {
                if (arg.startsWith("--kafka.")) {
                    assertThat(d.acceptsKafkaSetting(arg.substring(8).split("=", 2)[0])).as(d.serviceName + " " + arg)
                            .isTrue();
                }
            }
            // image
            String image = c.getImage();
            if (base) {
                assertThat(image).isEqualTo(d.imageRepository() + ":" + Repo.projectVersion());
            } else {
                assertThat(image).matches(".*/" + Pattern.quote(d.imageRepository()) + ":[A-Za-z0-9._-]+")
                        .doesNotEndWith(":latest");
            }
            // metrics port and probes on /health
            assertThat(c.getPorts()).anySatisfy(p -> {
                assertThat(p.getName()).isEqualTo("metrics");
                assertThat(p.getContainerPort()).isEqualTo(Integer.parseInt(metricsPort));
            });
            for (Probe probe : new Probe[] {c.getLivenessProbe(), c.getReadinessProbe(), c.getStartupProbe()}) {
                assertThat(probe).as(d.serviceName + " probe").isNotNull();
                assertThat(probe.getHttpGet().getPath()).isEqualTo("/health");
                assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("metrics");
            }
            // its headless service (pod identities, metrics) and its disruption budget
            Service service = one(objects, Service.class, d.serviceName);
            assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
            assertThat(template.getMetadata().getLabels()).containsAllEntriesOf(service.getSpec().getSelector());
            assertThat(service.getSpec().getPorts()).anyMatch(p -> p.getPort() == Integer.parseInt(metricsPort));
            assertHasDisruptionBudget(objects, template);

            if (d.streams) {
                StatefulSet sts = one(objects, StatefulSet.class, d.serviceName);
                assertThat(sts.getSpec().getServiceName()).isEqualTo(service.getMetadata().getName());
                assertThat(sts.getSpec().getReplicas()).isBetween(1, partitions);
                assertThat(args).as("standby replicas through the kafka.* pass-through")
                        .anyMatch(a -> a.matches("--kafka\\.num\\.standby\\.replicas=[1-9]"));
                PersistentVolumeClaim claim = sts.getSpec().getVolumeClaimTemplates().get(0);
                assertThat(c.getVolumeMounts()).anyMatch(m -> m.getName().equals(claim.getMetadata().getName())
                        && m.getMountPath().equals(stateDir));
                assertThat(claim.getSpec().getResources().getRequests()).containsKey("storage");
            }
        }

        // fetcher WARC storage: a ReadWriteOnce claim per pod from the default storage class (issue 23: no default
        // class offers ReadWriteMany, so a shared claim left every fetcher Pending)
        StatefulSet fetcher = one(objects, StatefulSet.class, "fetcher");
        PersistentVolumeClaim warc = fetcher.getSpec().getVolumeClaimTemplates().get(0);
        assertThat(warc.getSpec().getAccessModes()).containsExactly("ReadWriteOnce");
        assertThat(fetcher.getSpec().getTemplate().getSpec().getContainers().get(0).getVolumeMounts())
                .anyMatch(m -> m.getName().equals(warc.getMetadata().getName())
                        && m.getMountPath().equals(one(objects, ConfigMap.class, "kcrawler-fetcher").getData()
                        .get(FetcherConfig.Warc.DIR.env())));
        assertThat(objects).as("no claim needs ReadWriteMany").noneMatch(o -> o instanceof PersistentVolumeClaim p
                && p.getSpec().getAccessModes().contains("ReadWriteMany"));

        // fetcher autoscaling: CPU, on the fetcher's StatefulSet, never beyond the partitions of crawl.fetch.requests
        List<GenericKubernetesResource> scaledObjects = objects.stream()
                .filter(o -> o instanceof GenericKubernetesResource g && g.getKind().equals("ScaledObject"))
                .map(o -> (GenericKubernetesResource) o).toList();
        if (scaledObjects.isEmpty()) {
            HorizontalPodAutoscaler hpa = one(objects, HorizontalPodAutoscaler.class, "fetcher");
            assertThat(hpa.getApiVersion()).isEqualTo("autoscaling/v2");
            assertThat(hpa.getSpec().getScaleTargetRef().getKind()).isEqualTo("StatefulSet");
            assertThat(hpa.getSpec().getScaleTargetRef().getName()).isEqualTo("fetcher");
            assertThat(hpa.getSpec().getMetrics()).anyMatch(m -> m.getResource() != null
                    && m.getResource().getName().equals("cpu"));
            assertThat(hpa.getSpec().getMinReplicas()).isPositive();
            assertThat(hpa.getSpec().getMaxReplicas()).isBetween(hpa.getSpec().getMinReplicas(), partitions);
        }
        if (!scaledObjects.isEmpty()) {
            // k8s/overlays/keda: KEDA on the fetcher group's lag instead of the CPU HPA, never both
            assertThat(objects).noneMatch(o -> o instanceof HorizontalPodAutoscaler);
            assertThat(scaledObjects).hasSize(1);
            Map<String, Object> spec = (Map<String, Object>) scaledObjects.get(0).getAdditionalProperties().get("spec");
            Map<String, Object> target = (Map<String, Object>) spec.get("scaleTargetRef");
            assertThat(target).containsEntry("kind", "StatefulSet").containsEntry("name", "fetcher");
            assertThat(((Number) spec.get("maxReplicaCount")).intValue()).isBetween(1, partitions);
            Map<String, Object> trigger = ((List<Map<String, Object>>) spec.get("triggers")).get(0);
            Map<String, Object> meta = (Map<String, Object>) trigger.get("metadata");
            assertThat(trigger).containsEntry("type", "kafka");
            String prefix = common.getData().getOrDefault(KafkaSettings.TOPIC_PREFIX.env(), "");
            assertThat(meta).containsEntry("consumerGroup", prefix + "fetcher")
                    .containsEntry("topic", prefix + "crawl.fetch.requests")
                    .containsEntry("bootstrapServers", common.getData().get(KafkaSettings.BOOTSTRAP_SERVERS.env()));
        }
        assertThat(fetcher.getSpec().getReplicas())
                .as("the autoscaler owns the fetcher's replica count").isNull();

        // politeness: the scheduler paces with the T the fetcher's guard enforces
        assertThat(one(objects, ConfigMap.class, "kcrawler-fetcher").getData().get(CommonSettings.POLITENESS_MS.env()))
                .isEqualTo(one(objects, ConfigMap.class, "kcrawler-scheduler").getData()
                        .get(CommonSettings.POLITENESS_MS.env()));

        // Kafka, when this rendering runs its own (k8s/components/kafka): the client's version, a valid cluster id,
        // one voter per node, the bootstrap address the services use
        boolean inClusterKafka = objects.stream()
                .anyMatch(o -> o instanceof StatefulSet s && s.getMetadata().getName().equals("kafka"));
        if (inClusterKafka) {
            StatefulSet kafka = one(objects, StatefulSet.class, "kafka");
            Container broker = kafka.getSpec().getTemplate().getSpec().getContainers().get(0);
            assertThat(broker.getImage()).isEqualTo("apache/kafka:" + AppInfoParser.getVersion());
            Map<String, String> kenv = new HashMap<>();
            broker.getEnv().forEach(e -> kenv.put(e.getName(), e.getValue()));
            Uuid.fromString(kenv.get("CLUSTER_ID"));
            assertThat(kenv.get("KAFKA_CONTROLLER_QUORUM_VOTERS").split(",")).hasSize(kafka.getSpec().getReplicas());
            assertThat(Integer.parseInt(kenv.get("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR")))
                    .isLessThanOrEqualTo(kafka.getSpec().getReplicas());
            assertHasDisruptionBudget(objects, kafka.getSpec().getTemplate());
            assertThat(common.getData().get(KafkaSettings.BOOTSTRAP_SERVERS.env())).isEqualTo("kafka:9092");
            one(objects, Service.class, "kafka");
        } else {
            assertThat(objects).as("no Kafka Service without the Kafka component")
                    .noneMatch(o -> o instanceof Service s && s.getMetadata().getName().startsWith("kafka"));
        }

        // topic Job: the image of the clients' Kafka version (its tools) and the script of compose, partitions from
        // the ConfigMap the services read
        Job topics = one(objects, Job.class, "kcrawler-topics");
        Container create = topics.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(create.getImage()).isEqualTo("apache/kafka:" + AppInfoParser.getVersion());
        EnvVar partitionsVar = create.getEnv().stream().filter(e -> e.getName().equals("PARTITIONS")).findFirst()
                .orElseThrow();
        assertThat(partitionsVar.getValueFrom().getConfigMapKeyRef().getName()).isEqualTo("kcrawler-common");
        assertThat(partitionsVar.getValueFrom().getConfigMapKeyRef().getKey())
                .isEqualTo(KafkaSettings.PARTITIONS.env());
        if (rendered) {
            String scriptMap = topics.getSpec().getTemplate().getSpec().getVolumes().get(0).getConfigMap().getName();
            assertThat(one(objects, ConfigMap.class, scriptMap).getData().get("create-topics.sh"))
                    .isEqualTo(Repo.read(Repo.file("k8s/base/kafka/create-topics.sh")));
        }

        // seed Job: `crawler seed` with its real options, against the cluster the services use
        Job seed = one(objects, Job.class, "kcrawler-seed");
        Container seeder = seed.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(seeder.getImage()).matches("(.*/)?kcrawler/crawler-app:[A-Za-z0-9._-]+");
        Map<String, String> seedEnv = environment(objects, seeder, "kcrawler-seed-x");
        List<String> seedArgs = seeder.getArgs().stream().map(a -> expand(a, seedEnv)).toList();
        CommandLine.ParseResult parsed = new CommandLine(new CrawlerMain()).parseArgs(seedArgs.toArray(String[]::new))
                .subcommand();
        assertThat(parsed.commandSpec().name()).isEqualTo("seed");
        assertThat(parsed.matchedOptionValue("--bootstrap-servers", ""))
                .isEqualTo(common.getData().get(KafkaSettings.BOOTSTRAP_SERVERS.env()));
        String seedsMap = seed.getSpec().getTemplate().getSpec().getVolumes().get(0).getConfigMap().getName();
        assertThat(one(objects, ConfigMap.class, seedsMap).getData().get("seeds.txt")).contains("https://");

        // every container of every pod: requests and limits
        podSpecs(objects).forEach((owner, spec) -> {
            List<Container> all = new ArrayList<>(spec.getContainers());
            if (spec.getInitContainers() != null) {
                all.addAll(spec.getInitContainers());
            }
            for (Container c : all) {
                Map<String, Quantity> requests = c.getResources().getRequests();
                Map<String, Quantity> limits = c.getResources().getLimits();
                assertThat(requests).as(owner + "/" + c.getName() + " requests").containsKeys("cpu", "memory");
                assertThat(limits).as(owner + "/" + c.getName() + " limits").containsKeys("cpu", "memory");
                assertThat(c.getImage()).as(owner + " image pinned").contains(":").doesNotEndWith(":latest");
            }
        });
    }

    private static void assertHasDisruptionBudget(List<HasMetadata> objects, PodTemplateSpec template) {
        assertThat(objects.stream().filter(PodDisruptionBudget.class::isInstance).map(PodDisruptionBudget.class::cast))
                .as("a PodDisruptionBudget for " + template.getMetadata().getLabels())
                .anyMatch(pdb -> template.getMetadata().getLabels().entrySet()
                        .containsAll(pdb.getSpec().getSelector().getMatchLabels().entrySet()));
    }

    /** A container's environment: its ConfigMaps (envFrom) then its own entries, with $(VAR) references expanded. */
    private static Map<String, String> environment(List<HasMetadata> objects, Container c, String podName) {
        Map<String, String> env = new LinkedHashMap<>();
        for (EnvFromSource from : c.getEnvFrom() == null ? List.<EnvFromSource>of() : c.getEnvFrom()) {
            env.putAll(one(objects, ConfigMap.class, from.getConfigMapRef().getName()).getData());
        }
        for (EnvVar e : c.getEnv() == null ? List.<EnvVar>of() : c.getEnv()) {
            if (e.getValue() != null) {
                env.put(e.getName(), expand(e.getValue(), env));
            } else if (e.getValueFrom().getFieldRef() != null) {
                assertThat(e.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
                env.put(e.getName(), podName);
            } else if (e.getValueFrom().getConfigMapKeyRef() != null) {
                var ref = e.getValueFrom().getConfigMapKeyRef();
                env.put(e.getName(), one(objects, ConfigMap.class, ref.getName()).getData().get(ref.getKey()));
            }
        }
        return env;
    }

    private static final Pattern REFERENCE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

    private static String expand(String value, Map<String, String> env) {
        Matcher m = REFERENCE.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String v = env.get(m.group(1));
            assertThat(v).as("$(" + m.group(1) + ") is defined before use").isNotNull();
            m.appendReplacement(out, Matcher.quoteReplacement(v));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static Map<String, PodSpec> podSpecs(List<HasMetadata> objects) {
        Map<String, PodSpec> specs = new LinkedHashMap<>();
        for (HasMetadata o : objects) {
            String id = o.getKind() + "/" + o.getMetadata().getName();
            if (o instanceof Deployment d) {
                specs.put(id, d.getSpec().getTemplate().getSpec());
            } else if (o instanceof StatefulSet s) {
                specs.put(id, s.getSpec().getTemplate().getSpec());
            } else if (o instanceof Job j) {
                specs.put(id, j.getSpec().getTemplate().getSpec());
            }
        }
        boolean kafka = objects.stream().anyMatch(o -> o instanceof StatefulSet s && s.getMetadata().getName().equals("kafka"));
        assertThat(specs).hasSize(kafka ? 7 : 6);
        return specs;
    }

    private static <T extends HasMetadata> T one(List<HasMetadata> objects, Class<T> type, String name) {
        List<T> found = objects.stream().filter(type::isInstance).map(type::cast)
                .filter(o -> o.getMetadata().getName().equals(name)).toList();
        assertThat(found).as(type.getSimpleName() + " " + name).hasSize(1);
        return found.get(0);
    }
}
