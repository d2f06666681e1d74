package io.github.kcrawler.deploy;

import io.github.kcrawler.common.config.KafkaSettings;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.github.kcrawler.common.config.Settings;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * k8s/overlays/strimzi rendered (kubectl kustomize, or the committed rendering that RenderedManifestsTest keeps equal
 * to it): a KafkaTopic for every topic and changelog the code uses and no other, with the partitions of the
 * kcrawler-common ConfigMap and the create-topics script's replication and configs; one SCRAM KafkaUser per workload
 * whose Secret is wired to that workload's CRAWLER_KAFKA_SASL_JAAS_CONFIG, in every container that talks to Kafka
 * (the services, their wait-for-topics init containers, the topic and seed Jobs), beside the shared CRAWLER_KAFKA_*
 * settings and the cluster CA; the ACLs cover what each workload uses (its topics, its group, its transactional ids,
 * its internal topics); and every service's settings, the client settings included, pass its own parser.
 */
class StrimziOverlayTest {
    private static List<HasMetadata> objects;
    private static Map<String, String> common;
    private static String prefix;

    @BeforeAll
    static void render() throws Exception {
        objects = RenderedManifestsTest.strimzi();
        common = one(ConfigMap.class, "kcrawler-common").getData();
        prefix = common.getOrDefault(KafkaSettings.TOPIC_PREFIX.env(), "");
    }

    @Test
    void aKafkaTopicForEveryTopicAndChangelogOfTheCodeAsTheScriptMakesThem() {
        int partitions = Integer.parseInt(common.get(KafkaSettings.PARTITIONS.env()));
        Map<String, Map<String, Object>> specs = new LinkedHashMap<>();
        for (GenericKubernetesResource t : custom("KafkaTopic")) {
            Map<String, Object> spec = spec(t);
            specs.put(String.valueOf(spec.getOrDefault("topicName", t.getMetadata().getName())), spec);
        }
        List<String> pipeline = Deployable.pipelineTopics().stream().map(t -> prefix + t).toList();
        List<String> changelogs = Deployable.changelogTopics().stream().map(t -> prefix + t).toList();
        Set<String> expected = new TreeSet<>(pipeline);
        expected.addAll(changelogs);
        assertThat(new TreeSet<>(specs.keySet())).as("KafkaTopics = Topics.all() + every service's changelogs")
                .isEqualTo(expected);
        // the script's lists are the code's lists too (ComposeFileTest), so both ways create the same topics
        assertThat(Repo.shellList(Repo.file("k8s/base/kafka/create-topics.sh"), "PIPELINE_TOPICS"))
                .containsExactlyElementsOf(Deployable.pipelineTopics());
        int replication = Integer.parseInt(envOf(topicsJob()).get("REPLICATION_FACTOR"));
        specs.forEach((name, spec) -> {
            assertThat(((Number) spec.get("partitions")).intValue()).as(name + " partitions").isEqualTo(partitions);
            assertThat(((Number) spec.get("replicas")).intValue()).as(name + " replicas").isEqualTo(replication);
            @SuppressWarnings("unchecked")
            Map<String, Object> config = (Map<String, Object>) spec.getOrDefault("config", Map.of());
            if (changelogs.contains(name)) {
                assertThat(config).as(name).isEqualTo(Map.of("cleanup.policy", "compact"));
            } else {
                assertThat(config).as(name + ": the script gives pipeline topics the broker's defaults").isEmpty();
            }
        });
        assertThat(custom("KafkaTopic")).allSatisfy(t -> assertThat(t.getMetadata().getLabels())
                .containsEntry("strimzi.io/cluster", cluster()));
    }

    @Test
    void everyWorkloadGetsItsKafkaUsersSecretAndTheSharedClientSettings() {
        Map<String, Container> containers = new LinkedHashMap<>();
        Map<String, PodSpec> pods = new LinkedHashMap<>();
        for (Deployable d : Deployable.values()) {
            PodSpec spec = one(StatefulSet.class, d.serviceName).getSpec().getTemplate().getSpec();
            containers.put(d.serviceName, spec.getContainers().get(0));
            pods.put(d.serviceName, spec);
            assertThat(spec.getInitContainers()).as(d.serviceName + " init containers").hasSize(1);
            containers.put(d.serviceName + "/" + spec.getInitContainers().get(0).getName(), spec.getInitContainers().get(0));
            pods.put(d.serviceName + "/" + spec.getInitContainers().get(0).getName(), spec);
        }
        for (String job : List.of("kcrawler-topics", "kcrawler-seed")) {
            PodSpec spec = one(Job.class, job).getSpec().getTemplate().getSpec();
            containers.put(job, spec.getContainers().get(0));
            pods.put(job, spec);
        }
        Map<String, String> users = new HashMap<>();
        for (GenericKubernetesResource u : custom("KafkaUser")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> auth = (Map<String, Object>) spec(u).get("authentication");
            users.put(u.getMetadata().getName(), String.valueOf(auth.get("type")));
            assertThat(u.getMetadata().getLabels()).containsEntry("strimzi.io/cluster", cluster());
        }
        Map<String, String> client = one(ConfigMap.class, "kcrawler-kafka-client").getData();
        String truststore = client.get(Settings.kafkaEnvName("ssl.truststore.location"));
        assertThat(client).containsEntry(Settings.kafkaEnvName("security.protocol"), "SASL_SSL")
                .containsEntry(Settings.kafkaEnvName("sasl.mechanism"), "SCRAM-SHA-512")
                .containsEntry(Settings.kafkaEnvName("ssl.truststore.type"), "PEM");
        assertThat(common.get(KafkaSettings.BOOTSTRAP_SERVERS.env())).isEqualTo(cluster() + "-kafka-bootstrap:9093");

        Set<String> usedUsers = new TreeSet<>();
        containers.forEach((name, c) -> {
            EnvVar jaas = c.getEnv().stream()
                    .filter(e -> e.getName().equals(Settings.kafkaEnvName("sasl.jaas.config"))).findFirst()
                    .orElseThrow(() -> new AssertionError(name + " has no CRAWLER_KAFKA_SASL_JAAS_CONFIG"));
            var ref = jaas.getValueFrom().getSecretKeyRef();
            assertThat(ref).as(name + ": the password from a Secret").isNotNull();
            assertThat(ref.getKey()).isEqualTo("sasl.jaas.config");
            assertThat(users).as(name + ": its Secret is a KafkaUser's").containsEntry(ref.getName(), "scram-sha-512");
            String workload = name.contains("/") ? name.substring(0, name.indexOf('/')) : name;
            assertThat(ref.getName()).as(name + ": its own user").isEqualTo(workload.startsWith("kcrawler-")
                    ? workload : "kcrawler-" + workload);
            usedUsers.add(ref.getName());
            assertThat(c.getEnvFrom()).extracting(EnvFromSource::getConfigMapRef).extracting("name")
                    .as(name + " shared client settings").contains("kcrawler-kafka-client");
            Volume ca = pods.get(name).getVolumes().stream().filter(v -> v.getSecret() != null
                    && v.getSecret().getSecretName().equals(cluster() + "-cluster-ca-cert")).findFirst()
                    .orElseThrow(() -> new AssertionError(name + " pod mounts no cluster CA"));
            assertThat(c.getVolumeMounts()).as(name + " trust store " + truststore).anyMatch(m -> m.getName()
                    .equals(ca.getName()) && truststore.equals(m.getMountPath() + "/ca.crt"));
            assertThat(ca.getSecret().getItems()).anyMatch(i -> i.getKey().equals("ca.crt") && i.getPath().equals("ca.crt"));
        });
        assertThat(usedUsers).as("every KafkaUser is used").isEqualTo(new TreeSet<>(users.keySet()));

        // each service, as its container is configured (a JAAS value standing in for the Secret's): its own parser,
        // and Kafka's typed client settings
        for (Deployable d : Deployable.values()) {
            Map<String, String> env = new HashMap<>(Repo.dockerfileCrawlerEnv());
            env.putAll(envOf(containers.get(d.serviceName)));
            env.put(Settings.kafkaEnvName("sasl.jaas.config"),
                    "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"p\";");
            List<String> args = containers.get(d.serviceName).getArgs() == null ? List.of()
                    : containers.get(d.serviceName).getArgs();
            assertThat(d.configure(env, args)).as(d.serviceName).isNotNull();
            Properties props = new Properties();
            props.putAll(Settings.kafkaFromEnv(env));
            props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, common.get(KafkaSettings.BOOTSTRAP_SERVERS.env()));
            props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, org.apache.kafka.common.serialization.StringDeserializer.class);
            props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, org.apache.kafka.common.serialization.StringDeserializer.class);
            ConsumerConfig parsed = new ConsumerConfig(props);
            assertThat(parsed.getString(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG)).isEqualTo("SASL_SSL");
            assertThat(parsed.getPassword("sasl.jaas.config")).isNotNull();
        }
        // the topic Job's script leaves the features alone: its user may not alter the cluster
        assertThat(envOf(topicsJob())).containsEntry("TRANSACTION_VERSION", "keep");
    }

    @Test
    void eachUsersAclsCoverWhatItsWorkloadUses() {
        List<String> pipeline = Deployable.pipelineTopics().stream().map(t -> prefix + t).toList();
        List<String> changelogs = Deployable.changelogTopics().stream().map(t -> prefix + t).toList();
        for (Deployable d : Deployable.values()) {
            String user = "kcrawler-" + d.serviceName;
            String id = prefix + d.serviceName; // application.id of a Streams service, group of the fetcher
            for (String topic : pipeline) {
                assertThat(allows(user, "topic", topic, "Read") && allows(user, "topic", topic, "Write")
                        && allows(user, "topic", topic, "Describe")).as(user + " reads and writes " + topic).isTrue();
            }
            assertThat(allows(user, "group", id, "Read")).as(user + " group " + id).isTrue();
            assertThat(allows(user, "transactionalId", id + "-x", "Write")
                    && allows(user, "transactionalId", id + "-x", "Describe")).as(user + " transactional ids").isTrue();
            assertThat(allows(user, "group", prefix + "someone-else", "Read")).as(user + ": only its own group")
                    .isFalse();
            for (String changelog : changelogs) {
                boolean own = changelog.startsWith(id + "-");
                assertThat(allows(user, "topic", changelog, "Write")).as(user + " writes " + changelog).isEqualTo(own);
                if (own) {
                    assertThat(allows(user, "topic", changelog, "Create")
                            && allows(user, "topic", changelog, "DescribeConfigs")).isTrue();
                }
            }
        }
        assertThat(allows("kcrawler-seed", "topic", prefix + "crawl.urls.discovered", "Write")).isTrue();
        assertThat(allows("kcrawler-seed", "topic", prefix + "crawl.urls.discovered", "Read")).isFalse();
        List<String> all = new ArrayList<>(pipeline);
        all.addAll(changelogs);
        for (String topic : all) {
            assertThat(allows("kcrawler-topics", "topic", topic, "Create")
                    && allows("kcrawler-topics", "topic", topic, "Describe")).as("the topic Job checks " + topic).isTrue();
            assertThat(allows("kcrawler-topics", "topic", topic, "Write")).isFalse();
        }
        assertThat(allows("kcrawler-topics", "cluster", "kafka-cluster", "Alter")).isFalse();
    }

    // ---------------------------------------------------------------------------------------------------------

    /** Does {@code user}'s simple authorization allow {@code operation} on the resource (literal or prefix ACLs)? */
    @SuppressWarnings("unchecked")
    private static boolean allows(String user, String type, String name, String operation) {
        GenericKubernetesResource u = custom("KafkaUser").stream().filter(x -> x.getMetadata().getName().equals(user))
                .findFirst().orElseThrow(() -> new AssertionError("no KafkaUser " + user));
        Map<String, Object> authorization = (Map<String, Object>) spec(u).get("authorization");
        assertThat(authorization).containsEntry("type", "simple");
        for (Map<String, Object> acl : (List<Map<String, Object>>) authorization.get("acls")) {
            Map<String, Object> r = (Map<String, Object>) acl.get("resource");
            if (!type.equals(r.get("type"))) {
                continue;
            }
            String pattern = String.valueOf(r.getOrDefault("patternType", "literal"));
            String rn = String.valueOf(r.get("name"));
            boolean matches = pattern.equals("prefix") ? name.startsWith(rn) : name.equals(rn) || rn.equals("*");
            List<String> ops = (List<String>) acl.get("operations");
            if (matches && (ops.contains(operation) || ops.contains("All"))
                    && !"deny".equalsIgnoreCase(String.valueOf(acl.getOrDefault("type", "allow")))) {
                return true;
            }
        }
        return false;
    }

    private static String cluster() {
        return custom("KafkaUser").get(0).getMetadata().getLabels().get("strimzi.io/cluster");
    }

    private static Container topicsJob() {
        return one(Job.class, "kcrawler-topics").getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    /** A container's plain environment: its ConfigMaps, then its own literal values (Secret references left out). */
    private static Map<String, String> envOf(Container c) {
        Map<String, String> env = new LinkedHashMap<>();
        for (EnvFromSource from : c.getEnvFrom() == null ? List.<EnvFromSource>of() : c.getEnvFrom()) {
            env.putAll(one(ConfigMap.class, from.getConfigMapRef().getName()).getData());
        }
        for (EnvVar e : c.getEnv() == null ? List.<EnvVar>of() : c.getEnv()) {
            if (e.getValue() != null) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)")
                        .matcher(e.getValue());
                StringBuilder v = new StringBuilder();
                while (m.find()) { // $(VAR) as the kubelet expands it
                    m.appendReplacement(v, java.util.regex.Matcher.quoteReplacement(env.getOrDefault(m.group(1), m.group())));
                }
                m.appendTail(v);
                env.put(e.getName(), v.toString());
            } else if (e.getValueFrom().getFieldRef() != null) {
                env.put(e.getName(), "pod-0"); // metadata.name
            }
        }
        return env;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource r) {
        return (Map<String, Object>) r.getAdditionalProperties().get("spec");
    }

    private static List<GenericKubernetesResource> custom(String kind) {
        List<GenericKubernetesResource> found = objects.stream()
                .filter(o -> o instanceof GenericKubernetesResource g && g.getKind().equals(kind))
                .map(o -> (GenericKubernetesResource) o).collect(Collectors.toList());
        assertThat(found).as(kind).isNotEmpty();
        assertThat(found).allSatisfy(r -> assertThat(r.getApiVersion()).isEqualTo("kafka.strimzi.io/v1beta2"));
        return found;
    }

    private static <T extends HasMetadata> T one(Class<T> type, String name) {
        return KustomizeWithoutClusterIT.one(objects, type, name);
    }
}
