#!/bin/bash
cd /work/ci44/main
echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg) start demo" >> /tmp/s43/after.log
./crawler demo --no-progress --status-port -1 --summary /tmp/s43/demo-fresh-clone.json > /tmp/s43/demo.log 2>&1
echo "$(date +%T) end demo rc=$?" >> /tmp/s43/after.log
cp crawler-lab/target/crawler-lab-0.1.0-SNAPSHOT-all.jar /tmp/ci44-lab.jar
for n in 1 2 3; do
  echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg) start order-$n" >> /tmp/s43/after.log
  java -Xmx4g -XX:+UseParallelGC -jar /tmp/ci44-lab.jar bench order --graph ../shared/data/cnr-2000 \
    --seed-pages ../shared/data/cnr-2000.seeds-scc100.txt --set ranking=ipr-dl1-frontier \
    --data-dir /tmp/s43/order/data --summary /tmp/s43/order/order-frontier-$n.json > /tmp/s43/order/order-$n.log 2>&1
  echo "$(date +%T) end order-$n rc=$?" >> /tmp/s43/after.log
done
