#!/usr/bin/env bash
# Runs the scheduler benchmarks from the build tree, offline:
#   src/jmh/run.sh jmh [JMH options]       e.g. run.sh jmh PolitenessWheelJmh -f 1 -wi 2 -i 3
# Compiles the module (main, tests and src/jmh/java) first; JMH never runs as part of the build.
set -euo pipefail
module="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$module"
mvn -B -q -o test-compile -Dmaven.test.skip.exec=true dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test >&2
cp="target/jmh-classes:target/test-classes:target/classes:$(cat target/bench.classpath)"
what="${1:-help}"
shift || true
case "$what" in
  jmh) exec java ${BENCH_JAVA_OPTS:--Xmx2g} -cp "$cp" org.openjdk.jmh.Main "$@" ;;
  *) echo "usage: $0 jmh [JMH options]" >&2; exit 2 ;;
esac
