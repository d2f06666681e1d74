/**
 * An in-process single-node Kafka (KRaft) broker for the embedded mode of the crawler and for tests.
 *
 * <ul>
 *   <li>{@link io.github.kcrawler.kafka.embedded.EmbeddedKafkaBroker}: the broker; formats its data directory on the
 *       first start and reopens it afterwards (same cluster id, topics, records and client port).</li>
 *   <li>{@link io.github.kcrawler.kafka.embedded.TopicProvisioner}: creates topics on any cluster and waits until
 *       they are writable (KAFKA-15591).</li>
 *   <li>{@link io.github.kcrawler.kafka.embedded.KafkaTestCluster}: broker + admin + string client settings +
 *       reading topics back, for tests of other modules.</li>
 * </ul>
 *
 * <p>Services should depend on this module in test scope only, so that no service image ships a broker.
 */
package io.github.kcrawler.kafka.embedded;
