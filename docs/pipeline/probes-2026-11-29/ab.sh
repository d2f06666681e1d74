#!/bin/bash
# Interleaved A / B x 3 of `bench e2e --store-metrics` with two lab jars: ab.sh NAME A B runs /tmp/s40/lab-A.jar and
# /tmp/s40/lab-B.jar and appends one line per run to /tmp/s40/NAME.log. Run as `ab.sh cache old nocache` and
# `ab.sh held old held` (2026-11-29).
name=$1; a=$2; b=$3
cd /work/main
for i in 1 2 3; do
  for v in $a $b; do
    echo "$(date -u +%H:%M:%S) $v-$i uptime: $(uptime | sed 's/.*average: //')" >> /tmp/s40/$name.log
    java -Xmx4g -XX:+UseParallelGC -jar /tmp/s40/lab-$v.jar bench e2e --store-metrics \
        --summary /tmp/s40/$name-$v-$i.json > /tmp/s40/$name-$v-$i.out 2>&1
    python3 - "$name" "$v-$i" >> /tmp/s40/$name.log <<'PY'
import json,sys
name,n=sys.argv[1],sys.argv[2]; d=json.load(open('/tmp/s40/%s-%s.json'%(name,n))); c=d['cpuMsPerPage']; r=d['recordsPerPage']
other=c['total']-c['ranker']
print(n, 'pps', round(d['pagesPerSecond']), 'slow', round(d['slowestWindowPagesPerSecond']), 'cpu', round(c['total'],3), 'ranker', round(c['ranker'],3), 'rk/other', round(c['ranker']/other,3), 'rocksdb', c.get('rocksdb'), 'rec', round(r['total'],2), 'rankpages', round(r.get('ranker-rank-pages-changelog',0),2), 'dup', d['duplicateFetches'], 'viol', d['politenessViolations'])
PY
  done
done
echo done >> /tmp/s40/$name.log
