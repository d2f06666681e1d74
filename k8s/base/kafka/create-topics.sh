#!/bin/sh
# Creates every kcrawler topic with one partition count (the co-partitioning contract: partition p of every topic
# holds the same server IPs) and checks that existing topics have that count. Idempotent: run it before every
# start. Used by the compose `topics` service and the Kubernetes `kcrawler-topics` Job (apache/kafka image).
#
# Environment: BOOTSTRAP_SERVERS (required), PARTITIONS (required), REPLICATION_FACTOR (required),
#              TOPIC_PREFIX (default empty), KAFKA_BIN (default /opt/kafka/bin), WAIT_SECONDS (default 180),
#              COMMAND_CONFIG (optional: a client properties file passed as --command-config, holding
#              security.protocol, sasl.* and ssl.* for a secured cluster; mount it from a Secret; without it,
#              CRAWLER_KAFKA_* variables, as the services take them, are written to such a file),
#              TRANSACTION_VERSION (default 1; `keep` leaves the cluster's feature level alone).
#
# Transactions v2 (KIP-890 part 2, transaction.version=2) is what `kafka-storage.sh format` gives a Kafka 4.x
# cluster by default, and so what the apache/kafka image runs. With it a Streams producer can retry one batch
# forever mid-crawl (KAFKA-18202: a non-zero first sequence on a partition without producer state is treated as
# retriable), so the crawl stalls. Exactly-once in kcrawler needs only transaction.version 1 (KIP-447 EOS v2), which
# is what the embedded broker is formatted with (EmbeddedKafkaBroker). This script therefore sets the finalized
# feature level with Kafka's own `kafka-features.sh` before any kcrawler client starts: the same broker as the
# embedded one, on any cluster, without a custom image or format flag. Set TRANSACTION_VERSION=keep on a shared
# cluster whose operators manage features themselves (and run it at version 1 there: docs/DEPLOYMENT.md).
#
# The Streams changelog topics are created here too, compacted, because a producer can stall on a topic created
# moments before it writes (KAFKA-15591); deploy-tests checks both lists against the code.
set -eu

: "${BOOTSTRAP_SERVERS:?BOOTSTRAP_SERVERS is required}"
: "${PARTITIONS:?PARTITIONS is required}"
: "${REPLICATION_FACTOR:?REPLICATION_FACTOR is required}"
PREFIX="${TOPIC_PREFIX:-}"
KAFKA_BIN="${KAFKA_BIN:-/opt/kafka/bin}"
WAIT_SECONDS="${WAIT_SECONDS:-180}"
TOPICS_CMD="$KAFKA_BIN/kafka-topics.sh"
FEATURES_CMD="$KAFKA_BIN/kafka-features.sh"
TRANSACTION_VERSION="${TRANSACTION_VERSION:-1}"
if [ -z "${COMMAND_CONFIG:-}" ]; then
  # CRAWLER_KAFKA_SASL_JAAS_CONFIG=... -> sasl.jaas.config=... (the services' rule: after the prefix _ is ., __ is _)
  for n in $(env | sed -n 's/^\(CRAWLER_KAFKA_[A-Z0-9_]*\)=.*/\1/p'); do
    [ -n "${COMMAND_CONFIG:-}" ] || COMMAND_CONFIG="$(mktemp)"
    key="$(printf '%s' "${n#CRAWLER_KAFKA_}" | tr 'A-Z' 'a-z' | sed 's/__/#/g; s/_/./g; s/#/_/g')"
    printf '%s=%s\n' "$key" "$(printenv "$n")" >> "$COMMAND_CONFIG"
  done
fi
topics() {
  if [ -n "${COMMAND_CONFIG:-}" ]; then
    "$TOPICS_CMD" --command-config "$COMMAND_CONFIG" --bootstrap-server "$BOOTSTRAP_SERVERS" "$@"
  else
    "$TOPICS_CMD" --bootstrap-server "$BOOTSTRAP_SERVERS" "$@"
  fi
}

# topics: crawler-common Topics.all()
PIPELINE_TOPICS="crawl.urls.discovered crawl.urls.admitted crawl.urls.forget crawl.fetch.requests crawl.fetch.results crawl.links crawl.rank.deltas crawl.rank.scores crawl.content.refs crawl.content.duplicates crawl.deadletter"
# changelogs: DedupService, SchedulerService and RankerService internalTopics() with default settings
CHANGELOG_TOPICS="dedup-url-seen-changelog dedup-content-db-changelog scheduler-scheduler-pending-changelog scheduler-scheduler-revisit-satl-changelog ranker-rank-pages-changelog"

echo "kcrawler topics: waiting for Kafka at $BOOTSTRAP_SERVERS"
waited=0
until topics --list >/dev/null 2>&1; do
  waited=$((waited + 2))
  if [ "$waited" -ge "$WAIT_SECONDS" ]; then
    echo "kcrawler topics: Kafka at $BOOTSTRAP_SERVERS did not answer within $WAIT_SECONDS s" >&2
    exit 1
  fi
  sleep 2
done

features() {
  if [ -n "${COMMAND_CONFIG:-}" ]; then
    "$FEATURES_CMD" --command-config "$COMMAND_CONFIG" --bootstrap-server "$BOOTSTRAP_SERVERS" "$@"
  else
    "$FEATURES_CMD" --bootstrap-server "$BOOTSTRAP_SERVERS" "$@"
  fi
}
if [ "$TRANSACTION_VERSION" != "keep" ]; then
  level="$(features describe | awk '{ for (i = 1; i < NF; i++) { if ($i == "Feature:") f = $(i + 1);
      if ($i == "FinalizedVersionLevel:" && f == "transaction.version") print $(i + 1) } }' | head -n 1)"
  level="${level:-0}"
  if [ "$level" = "$TRANSACTION_VERSION" ]; then
    echo "kcrawler topics: transaction.version is $level"
  else
    if [ "$level" -gt "$TRANSACTION_VERSION" ]; then op=downgrade; else op=upgrade; fi
    echo "kcrawler topics: transaction.version $level -> $TRANSACTION_VERSION (KAFKA-18202, see the script's header)"
    features "$op" --feature "transaction.version=$TRANSACTION_VERSION"
  fi
fi

existing="$(topics --list)"
create() {
  name="$PREFIX$1"; shift
  if printf '%s\n' "$existing" | grep -qxF "$name"; then
    echo "kcrawler topics: $name exists"
  else
    topics --create --if-not-exists --topic "$name" \
      --partitions "$PARTITIONS" --replication-factor "$REPLICATION_FACTOR" "$@"
  fi
}
for t in $PIPELINE_TOPICS; do
  create "$t"
done
for t in $CHANGELOG_TOPICS; do
  create "$t" --config cleanup.policy=compact
done

described="$(topics --describe --exclude-internal)"
failed=0
for t in $PIPELINE_TOPICS $CHANGELOG_TOPICS; do
  name="$PREFIX$t"
  count="$(printf '%s\n' "$described" | awk -v n="$name" '$1 == "Topic:" && $2 == n {
      for (i = 1; i < NF; i++) if ($i == "PartitionCount:") print $(i + 1) }' | head -n 1)"
  if [ "$count" != "$PARTITIONS" ]; then
    echo "kcrawler topics: $name has ${count:-no} partitions, expected $PARTITIONS (all topics must be co-partitioned)" >&2
    failed=1
  fi
done
[ "$failed" -eq 0 ] || exit 1
echo "kcrawler topics: ready ($PARTITIONS partitions each, prefix '${PREFIX}')"
