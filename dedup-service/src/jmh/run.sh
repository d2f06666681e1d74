#!/usr/bin/env bash
# Runs the dedup benchmarks from the build tree, offline:
#   src/jmh/run.sh jmh [JMH options]       e.g. run.sh jmh SbflDecrementJmh -f 1 -wi 2 -i 3
#   src/jmh/run.sh bench BENCH [options]   e.g. run.sh bench sbfl-decrement -log2 26 -decrements 2e8
#                                               run.sh bench url-seen -graph ../../shared/data/cnr-2000
#                                               run.sh bench url-seen-memory -graph ../../shared/data/cnr-2000 -plot target/url-seen
# Compiles the module (main, tests and src/jmh/java) first; JMH never runs as part of the build. The benches' launcher
# (BenchMain) is the lab's (crawler-lab, issue 24): `bench` runs it from the lab's shaded jar, built if missing.
set -euo pipefail
module="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$module"
mvn -B -q -o test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test >&2
cp="target/jmh-classes:target/test-classes:target/classes:$(cat target/bench.classpath)"
what="${1:-help}"
shift || true
case "$what" in
  jmh) exec java ${BENCH_JAVA_OPTS:--Xmx4g} -cp "$cp" org.openjdk.jmh.Main "$@" ;;
  bench)
    lab="$module/../crawler-lab/target/crawler-lab-0.1.0-SNAPSHOT-all.jar"
    [ -f "$lab" ] || (cd "$module/.." && mvn -B -q -o -DskipTests -pl crawler-lab -am package >&2)
    exec java ${BENCH_JAVA_OPTS:--Xmx6g -XX:+UseParallelGC} -cp "$lab" io.github.kcrawler.lab.dedup.bench.BenchMain "$@" ;;
  *) echo "usage: $0 jmh [JMH options] | bench BENCH [options]" >&2; exit 2 ;;
esac
