#!/bin/bash
# interleaved: default, scaling 3, scaling 10; x3
cd /work/main
for i in 1 2 3; do
  for v in def s3 s10; do
    case $v in
      def) opts="-Xmx4g -XX:+UseParallelGC";;
      s3) opts="-Xmx4g -XX:+UseParallelGC -XX:CompileThresholdScaling=3";;
      s10) opts="-Xmx4g -XX:+UseParallelGC -XX:CompileThresholdScaling=10";;
    esac
    echo "$(date -u +%H:%M:%S) $v-$i uptime: $(uptime | sed 's/.*average: //')" >> /tmp/s40/jit.log
    CRAWLER_JAVA_OPTS="$opts" ./crawler bench e2e --summary /tmp/s40/jit-$v-$i.json > /tmp/s40/jit-$v-$i.out 2>&1
    python3 - "$v-$i" >> /tmp/s40/jit.log <<'PY'
import json,sys
n=sys.argv[1]; d=json.load(open('/tmp/s40/jit-%s.json'%n)); c=d['cpuMsPerPage']
print(n, 'pps', round(d['pagesPerSecond']), 'slow', round(d['slowestWindowPagesPerSecond']), 'cpu', round(c['total'],3), 'jit', c.get('jit'), 'dup', d['duplicateFetches'], 'viol', d['politenessViolations'], 'el', d['elapsedSeconds'])
PY
  done
done
echo done >> /tmp/s40/jit.log
