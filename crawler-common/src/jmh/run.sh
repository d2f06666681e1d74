#!/usr/bin/env bash
# Runs crawler-common's JMH benchmarks from the build tree, offline:
#   src/jmh/run.sh [JMH options]       e.g. run.sh SerdeJmh -f 1 -wi 2 -i 3
# Compiles the module (main, tests and src/jmh/java) first; JMH never runs as part of the build.
set -euo pipefail
module="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$module"
mvn -B -q -o test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test >&2
exec java ${BENCH_JAVA_OPTS:--Xmx2g} -cp "target/jmh-classes:target/test-classes:target/classes:$(cat target/bench.classpath)" \
  org.openjdk.jmh.Main "$@"
