#!/bin/bash
# interleaved A/B of the demo web: old (367213b) vs new (2f6035f), C1, explicit web args
cd /tmp/s41/ab
for i in 1 2 3; do
  for v in old new; do
    echo "== $v run $i $(date +%T) uptime $(uptime | sed 's/.*average: //')" >> ab.log
    java -Xmx4g -XX:+UseParallelGC -XX:TieredStopAtLevel=1 -jar /tmp/s41/jars/$v.jar demo --pages 15000 --ips 64 --pages-per-host 5 --seeds 100 \
      --no-progress --status-port -1 --data-dir /tmp/s41/ab/dd-$v-$i --summary /tmp/s41/ab/$v-$i.json > /tmp/s41/ab/$v-$i.log 2>&1
    echo "exit $?" >> ab.log
    grep -A12 "^Crawl finished" /tmp/s41/ab/$v-$i.log | grep -i "crawl fin\|duplicate\|pages/s\|efficiency" >> ab.log
    rm -rf /tmp/s41/ab/dd-$v-$i/kafka /tmp/s41/ab/dd-$v-$i/state
  done
done
echo DONE >> ab.log
