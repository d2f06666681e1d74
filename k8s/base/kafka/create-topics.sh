#!/bin/sh
# Creates every kcrawler topic with one partition count (the co-partitioning contract: partition p of every topic
# holds the same server IPs) and checks that existing topics have that count. Idempotent: run it before every
# start. Used by the compose `topics` service and the Kubernetes `kcrawler-topics` Job (apache/kafka image).
#
# Environment: BOOTSTRAP_SERVERS (required), PARTITIONS (required), REPLICATION_FACTOR (required),
#              TOPIC_PREFIX (default empty), KAFKA_BIN (default /opt/kafka/bin), WAIT_SECONDS (default 180),
#              COMMAND_CONFIG (optional: a client properties file passed as --command-config, holding
#              security.protocol, sasl.* and ssl.* for a secured cluster; mount it from a Secret).
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
CHANGELOG_TOPICS="dedup-url-seen-changelog dedup-content-by-url-changelog dedup-content-db-changelog scheduler-scheduler-pending-changelog scheduler-scheduler-revisit-satl-changelog ranker-rank-pages-changelog"

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
