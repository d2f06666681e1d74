package io.github.kcrawler.deploy;

import io.github.kcrawler.fetcher.FetcherConfig;
import io.github.kcrawler.common.scope.AddressPolicy;
import io.github.kcrawler.common.config.KafkaSettings;
import io.github.kcrawler.common.config.CommonSettings;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.github.kcrawler.websim.WebSim;
import io.github.kcrawler.websim.WebSimConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code kubectl apply -k k8s/overlays/example} without a cluster (issue 23): the overlay rendered by
 * {@code kubectl kustomize} (or, without kubectl, the committed rendering that {@link RenderedManifestsTest} keeps
 * equal to it) is run pod by pod as {@link LocalContainers}: the Kafka StatefulSet's pod kafka-0 with its own
 * command script and environment through the apache/kafka image emulation, the topics Job with its generated
 * script ConfigMap, every service's init container and then its container (pod -0 of each StatefulSet, env from
 * its ConfigMaps, fieldRefs and {@code $(VAR)} expanded as the kubelet does, args, volume mounts, memory and CPU
 * limits), and the seed Job with its seeds ConfigMap. Test-size changes, each checked to exist first: one broker
 * (replication factors 1, one voter, 1 GiB heap), 4 partitions, T = 200 ms, the seeds ConfigMap pointing at a
 * 300-page websim, and the fetcher and the seed job given websim's hosts file and loopback addresses (what a
 * cluster's DNS and network would give them). Passes when every reachable page is fetched with 0 violations.
 */
class KustomizeWithoutClusterIT {
    static final String PARTITIONS = "4";
    static final String POLITENESS_MS = "200";
    static final List<String> SERVICES = List.of("dedup", "scheduler", "ranker", "fetcher");

    @TempDir
    Path work;

    @Test
    void theExampleOverlayCrawlsWebsimCompletelyAndPolitely() throws Exception {
        List<HasMetadata> objects = RenderedManifestsTest.example();
        Map<String, Map<String, String>> configMaps = new LinkedHashMap<>();
        for (HasMetadata o : objects) {
            if (o instanceof ConfigMap cm) {
                configMaps.put(cm.getMetadata().getName(), new LinkedHashMap<>(cm.getData()));
            }
        }
        override(configMaps, "kcrawler-common", KafkaSettings.PARTITIONS.env(), PARTITIONS);
        override(configMaps, "kcrawler-fetcher", CommonSettings.POLITENESS_MS.env(), POLITENESS_MS);
        override(configMaps, "kcrawler-scheduler", CommonSettings.POLITENESS_MS.env(), POLITENESS_MS);

        try (LocalContainers c = new LocalContainers(work)) {
            Path websimDir = Files.createDirectories(work.resolve("websim"));
            WebSim sim = WebSim.start(WebSimConfig.builder().generate(300).port(0)
                    .politenessMs(Integer.parseInt(POLITENESS_MS)).hostsFile(websimDir.resolve("hosts")).build());
            try {
                override(configMaps, "kcrawler-seeds", "seeds.txt", String.join("\n", sim.seedUrls()) + "\n");
                Pods pods = new Pods(c, objects, configMaps);

                // Kafka: pod kafka-0 of the StatefulSet, one broker
                StatefulSet kafka = one(objects, StatefulSet.class, "kafka");
                Container broker = kafka.getSpec().getTemplate().getSpec().getContainers().get(0);
                c.alias("kafka-0.kafka-headless", "kafka-0");
                c.alias("kafka", "kafka-0");
                Map<String, String> env = pods.env(broker, "kafka-0");
                env = pods.commandExports(broker, "kafka-0", env, "exec /etc/kafka/docker/run");
                override(env, "KAFKA_CONTROLLER_QUORUM_VOTERS", "0@kafka-0.kafka-headless:9093");
                for (String k : List.of("KAFKA_DEFAULT_REPLICATION_FACTOR", "KAFKA_MIN_INSYNC_REPLICAS",
                        "KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR",
                        "KAFKA_TRANSACTION_STATE_LOG_MIN_ISR")) {
                    override(env, k, "1");
                }
                override(env, "KAFKA_HEAP_OPTS", "-Xms256m -Xmx1g");
                KafkaImage.start(c, "kafka-0", env, pods.mounts(kafka.getSpec().getTemplate().getSpec(), broker,
                        "kafka-0"), memory(broker));

                // the topics Job (its own retries: backoffLimit; the script waits for the broker itself)
                Job topics = one(objects, Job.class, "kcrawler-topics");
                Container script = topics.getSpec().getTemplate().getSpec().getContainers().get(0);
                Map<String, String> topicsEnv = pods.env(script, "kcrawler-topics");
                override(topicsEnv, "REPLICATION_FACTOR", "1");
                topicsEnv.put("KAFKA_BIN", c.kafkaBin().toString());
                LocalContainers.Mounts topicsMounts = pods.mounts(topics.getSpec().getTemplate().getSpec(), script,
                        "kcrawler-topics");
                int rc = c.run("kcrawler-topics", script.getCommand().stream().map(topicsMounts::map).toList(),
                        topicsEnv, Duration.ofMinutes(5));
                assertThat(rc).as(c.log("kcrawler-topics")).isZero();
                assertThat(c.log("kcrawler-topics")).contains("transaction.version 2 -> 1")
                        .contains("ready (" + PARTITIONS + " partitions each");

                for (String s : SERVICES) {
                    StatefulSet sts = one(objects, StatefulSet.class, s);
                    PodSpec spec = sts.getSpec().getTemplate().getSpec();
                    String pod = s + "-0";
                    for (Container init : spec.getInitContainers() == null ? List.<Container>of() : spec.getInitContainers()) {
                        int init0 = c.run(pod + "-" + init.getName(), pods.shellCommand(init, pod),
                                pods.env(init, pod), Duration.ofMinutes(3));
                        assertThat(init0).as(c.log(pod + "-" + init.getName())).isZero();
                    }
                    Container main = spec.getContainers().get(0);
                    Map<String, String> e = pods.env(main, pod);
                    if (s.equals("fetcher")) {
                        // what the cluster's DNS and network would give it: websim's names and addresses
                        e.put(FetcherConfig.Dns.HOSTS_FILE.env(), sim.hostsFile().toString());
                        e.put(AddressPolicy.ALLOW_ADDRESSES.env(), "127.0.0.0/8");
                    }
                    KcrawlerImage.start(c, pod, pod, module(main), e, pods.expand(main.getArgs(), e),
                            pods.mounts(spec, main, pod), memory(main), cpus(main));
                }

                Job seedJob = one(objects, Job.class, "kcrawler-seed");
                Container seed = seedJob.getSpec().getTemplate().getSpec().getContainers().get(0);
                Map<String, String> seedEnv = pods.env(seed, "kcrawler-seed");
                List<String> seedArgs = new ArrayList<>(pods.expand(seed.getArgs(), seedEnv));
                seedArgs.addAll(List.of("--hosts-file", sim.hostsFile().toString()));
                LocalContainers.Mounts seedMounts = pods.mounts(seedJob.getSpec().getTemplate().getSpec(), seed,
                        "kcrawler-seed");
                Map<String, String> seedImageEnv = new LinkedHashMap<>(KcrawlerImage.imageEnv());
                seedImageEnv.putAll(seedEnv);
                List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                        .toString()));
                cmd.addAll(List.of(seedImageEnv.get("JAVA_OPTS").trim().split("\\s+")));
                cmd.addAll(c.jvmFlags(memory(seed), cpus(seed)));
                cmd.addAll(List.of("-jar", KcrawlerImage.jar(module(seed)).toString()));
                seedArgs.forEach(a -> cmd.add(seedMounts.map(a)));
                int seeded = c.run("kcrawler-seed", cmd, Map.of(), Duration.ofMinutes(3));
                assertThat(seeded).as(c.log("kcrawler-seed")).isZero();

                int reachable = sim.reachablePages(Integer.MAX_VALUE).cardinality();
                assertThat(reachable).isGreaterThan(100);
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
                while (sim.fetchedPages().cardinality() < reachable) {
                    for (String s : SERVICES) {
                        Process p = c.process(s + "-0");
                        if (!p.isAlive()) {
                            throw new AssertionError(s + "-0 exited with " + p.exitValue() + ":\n"
                                    + c.logTail(s + "-0", 6000));
                        }
                    }
                    if (System.nanoTime() > deadline) {
                        StringBuilder logs = new StringBuilder();
                        SERVICES.forEach(s -> logs.append("--- ").append(s).append('\n')
                                .append(c.logTail(s + "-0", 3000)).append('\n'));
                        throw new AssertionError("crawl incomplete: " + sim.fetchedPages().cardinality() + " of "
                                + reachable + "; " + sim.stats().toJson() + "\n" + logs);
                    }
                    Thread.sleep(1000);
                }
                assertThat(sim.stats().politenessViolations()).as(sim.stats().toJson()).isZero();
                for (String s : SERVICES) {
                    // the pods' probes: /health on the metrics port
                    assertThat(c.httpStatus(s + "-0", 9400, "/health")).as(s + "\n" + c.logTail(s + "-0", 3000))
                            .isEqualTo(200);
                    assertThat(c.log(s + "-0")).as(s + " logs at DEBUG").doesNotContain(" DEBUG ");
                }
            } finally {
                sim.close();
            }
        }
    }

    static void override(Map<String, Map<String, String>> configMaps, String map, String key, String value) {
        assertThat(configMaps).as("ConfigMap " + map).containsKey(map);
        override(configMaps.get(map), key, value);
    }

    static void override(Map<String, String> m, String key, String value) {
        assertThat(m).as("the manifests set " + key + " (the test changes it)").containsKey(key);
        m.put(key, value);
    }

    static String module(Container c) {
        String image = c.getImage();
        String repo = image.substring(0, image.lastIndexOf(':'));
        return repo.substring(repo.lastIndexOf('/') + 1);
    }

    static String memory(Container c) {
        Quantity q = c.getResources() == null || c.getResources().getLimits() == null ? null
                : c.getResources().getLimits().get("memory");
        if (q == null) {
            return null;
        }
        long bytes = Quantity.getAmountInBytes(q).longValue();
        return (bytes / (1024 * 1024)) + "m";
    }

    static int cpus(Container c) {
        Quantity q = c.getResources() == null || c.getResources().getLimits() == null ? null
                : c.getResources().getLimits().get("cpu");
        return q == null ? 0 : (int) Math.ceil(Quantity.getAmountInBytes(q).doubleValue());
    }

    static <T extends HasMetadata> T one(List<HasMetadata> objects, Class<T> type, String name) {
        List<T> found = objects.stream().filter(type::isInstance).map(type::cast)
                .filter(o -> o.getMetadata().getName().equals(name)).toList();
        assertThat(found).as(type.getSimpleName() + " " + name).hasSize(1);
        return found.get(0);
    }

    /** What the kubelet gives a container: environment, volumes, commands. */
    static final class Pods {
        private static final Pattern REF = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");
        private final LocalContainers c;
        private final Map<String, Map<String, String>> configMaps;

        Pods(LocalContainers c, List<HasMetadata> objects, Map<String, Map<String, String>> configMaps) {
            this.c = c;
            this.configMaps = configMaps;
        }

        /** envFrom ConfigMaps, then env (value with $(VAR) of earlier ones, configMapKeyRef, fieldRef name). */
        Map<String, String> env(Container container, String pod) {
            Map<String, String> env = new LinkedHashMap<>();
            for (EnvFromSource from : container.getEnvFrom() == null ? List.<EnvFromSource>of() : container.getEnvFrom()) {
                assertThat(from.getConfigMapRef()).as(container.getName() + " envFrom").isNotNull();
                String name = from.getConfigMapRef().getName();
                assertThat(configMaps).as("ConfigMap " + name + " of " + container.getName()).containsKey(name);
                env.putAll(configMaps.get(name));
            }
            for (EnvVar v : container.getEnv() == null ? List.<EnvVar>of() : container.getEnv()) {
                if (v.getValueFrom() == null) {
                    env.put(v.getName(), expand(v.getValue() == null ? "" : v.getValue(), env));
                } else if (v.getValueFrom().getConfigMapKeyRef() != null) {
                    var ref = v.getValueFrom().getConfigMapKeyRef();
                    assertThat(configMaps.getOrDefault(ref.getName(), Map.of())).as(ref.getName())
                            .containsKey(ref.getKey());
                    env.put(v.getName(), configMaps.get(ref.getName()).get(ref.getKey()));
                } else if (v.getValueFrom().getFieldRef() != null) {
                    assertThat(v.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
                    env.put(v.getName(), pod);
                } else {
                    throw new AssertionError("unsupported env source of " + v.getName() + ": " + v.getValueFrom());
                }
            }
            return env;
        }

        String expand(String value, Map<String, String> env) {
            Matcher m = REF.matcher(value);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                String v = env.get(m.group(1));
                m.appendReplacement(out, Matcher.quoteReplacement(v == null ? m.group() : v));
            }
            m.appendTail(out);
            return out.toString();
        }

        List<String> expand(List<String> args, Map<String, String> env) {
            return args == null ? List.of() : args.stream().map(a -> expand(a, env)).toList();
        }

        /** The container's volume mounts: claims and emptyDirs as directories, ConfigMaps as files. */
        LocalContainers.Mounts mounts(PodSpec spec, Container container, String pod) throws Exception {
            LocalContainers.Mounts m = c.mounts(pod);
            for (VolumeMount vm : container.getVolumeMounts() == null ? List.<VolumeMount>of() : container.getVolumeMounts()) {
                Volume v = spec.getVolumes() == null ? null : spec.getVolumes().stream()
                        .filter(x -> x.getName().equals(vm.getName())).findFirst().orElse(null);
                Path dir = Files.createDirectories(c.work().resolve("volumes").resolve(pod + "-" + vm.getName()));
                if (v != null && v.getConfigMap() != null) {
                    String name = v.getConfigMap().getName();
                    assertThat(configMaps).as("ConfigMap volume " + name).containsKey(name);
                    for (Map.Entry<String, String> f : configMaps.get(name).entrySet()) {
                        Files.writeString(dir.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
                    }
                } else {
                    assertThat(v == null || v.getEmptyDir() != null || v.getPersistentVolumeClaim() != null)
                            .as("volume " + vm.getName()).isTrue();
                }
                m.add(dir.toString(), vm.getMountPath());
            }
            return m;
        }

        /** A {@code sh -c SCRIPT} container of the apache/kafka image, with the image's tools. */
        List<String> shellCommand(Container container, String pod) {
            List<String> cmd = new ArrayList<>(container.getCommand());
            assertThat(cmd.get(0)).isIn("/bin/sh", "bash", "/bin/bash", "sh");
            cmd.replaceAll(a -> a.replace("/opt/kafka/bin/", c.kafkaBin() + "/"));
            return cmd;
        }

        /** The environment a command script exports before {@code marker} (the image's entry point). */
        Map<String, String> commandExports(Container container, String pod, Map<String, String> env, String marker)
                throws Exception {
            List<String> cmd = new ArrayList<>(container.getCommand());
            String script = cmd.get(cmd.size() - 1);
            assertThat(script).contains(marker);
            cmd.set(cmd.size() - 1, script.replace(marker, "env -0"));
            ProcessBuilder pb = new ProcessBuilder(cmd);
            pb.environment().clear();
            pb.environment().putAll(env);
            pb.environment().put("HOSTNAME", pod);
            pb.environment().put("PATH", "/usr/bin:/bin");
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            Map<String, String> result = new LinkedHashMap<>();
            for (String kv : out.split("\u0000")) {
                int eq = kv.indexOf('=');
                if (eq > 0 && !kv.startsWith("PATH=") && !kv.startsWith("PWD=") && !kv.startsWith("SHLVL=")
                        && !kv.startsWith("_=") && !kv.startsWith("HOSTNAME=")) {
                    result.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
            }
            return result;
        }
    }
}
