#!/bin/bash
# interleaved bench e2e old/new × 3 (defaults), JVM defaults as the launcher gives bench
mkdir -p /tmp/s41/e2e; cd /tmp/s41/e2e
for i in 1 2 3; do
  for v in new old; do
    echo "== $v run $i $(date +%T) uptime $(uptime | sed 's/.*average: //')" >> e2e.log
    java -Xmx4g -XX:+UseParallelGC -jar /tmp/s41/jars/$v.jar bench e2e --data-dir /tmp/s41/e2e/dd --summary /tmp/s41/e2e/$v-$i.json > /tmp/s41/e2e/$v-$i.log 2>&1
    echo "exit $?" >> e2e.log
    python3 -c "
import json;d=json.load(open('/tmp/s41/e2e/$v-$i.json'))
print('pps',round(d['pagesPerSecond']),'slowest',round(d['slowestWindowPagesPerSecond']),'cpu',round(d['cpuMsPerPage']['total'],3),'rec',round(d['recordsPerPage']['total'],2),'dups',d.get('duplicateFetches'),'viol',d.get('politenessViolations'),'elapsed',d.get('elapsedSeconds'))" >> e2e.log 2>&1
    rm -rf /tmp/s41/e2e/dd
  done
done
echo DONE >> e2e.log
