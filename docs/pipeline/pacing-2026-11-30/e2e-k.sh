#!/bin/bash
cd /tmp/s41/e2e
for spec in "k32-1:--set steps-in-flight=32" "new-4:" "k32-2:--set steps-in-flight=32"; do
  name=${spec%%:*}; args=${spec#*:}
  echo "== $name $(date +%T) uptime $(uptime | sed 's/.*average: //') args=[$args]" >> e2e.log
  java -Xmx4g -XX:+UseParallelGC -jar /tmp/s41/jars/new.jar bench e2e --data-dir /tmp/s41/e2e/dd --summary /tmp/s41/e2e/$name.json $args > /tmp/s41/e2e/$name.log 2>&1
  echo "exit $?" >> e2e.log
  python3 -c "
import json;d=json.load(open('/tmp/s41/e2e/$name.json'))
print('pps',round(d['pagesPerSecond']),'slowest',round(d['slowestWindowPagesPerSecond']),'cpu',round(d['cpuMsPerPage']['total'],3),'sched',round(d['cpuMsPerPage'].get('scheduler',0),3),'rec',round(d['recordsPerPage']['total'],2),'dups',d.get('duplicateFetches'),'viol',d.get('politenessViolations'),'elapsed',d.get('elapsedSeconds'))" >> e2e.log 2>&1
  rm -rf /tmp/s41/e2e/dd
done
echo DONE2 >> e2e.log
