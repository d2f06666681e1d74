#!/bin/bash
cd /work/main
for i in 1 2 3; do
  for v in old nocache; do
    echo "$(date -u +%H:%M:%S) $v-$i uptime: $(uptime | sed 's/.*average: //')" >> /tmp/s40/cache.log
    java -Xmx4g -XX:+UseParallelGC -jar /tmp/s40/lab-$v.jar bench e2e --store-metrics --summary /tmp/s40/cache-$v-$i.json > /tmp/s40/cache-$v-$i.out 2>&1
    python3 - "$v-$i" >> /tmp/s40/cache.log <<'PY'
import json,sys
n=sys.argv[1]; d=json.load(open('/tmp/s40/cache-%s.json'%n)); c=d['cpuMsPerPage']; r=d['recordsPerPage']
other=c['total']-c['ranker']
print(n, 'pps', round(d['pagesPerSecond']), 'slow', round(d['slowestWindowPagesPerSecond']), 'cpu', round(c['total'],3), 'ranker', round(c['ranker'],3), 'rk/other', round(c['ranker']/other,3), 'rocksdb', c.get('rocksdb'), 'rec', round(r['total'],2), 'rankpages', round(r.get('ranker-rank-pages-changelog',0),2), 'dup', d['duplicateFetches'], 'viol', d['politenessViolations'])
PY
  done
done
echo done >> /tmp/s40/cache.log
