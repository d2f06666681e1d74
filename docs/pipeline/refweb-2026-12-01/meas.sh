#!/bin/bash
export REFWEB=/tmp/refweb
log=/tmp/s42/meas.log
for i in 1 2 3; do
  echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg) start order-$i" >> $log
  java -Xmx4g -XX:+UseParallelGC -jar /tmp/s42/merge.jar bench order --graph /work/shared/data/cnr-2000 \
     --seed-pages /work/shared/data/cnr-2000.seeds-scc100.txt --summary /tmp/s42/order/order-$i.json > /tmp/s42/order/order-$i.log 2>&1
  echo "$(date +%T) end order-$i rc=$?" >> $log
done
cd /tmp/s42/refroot
for i in 1 2 3; do
  echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg) start ref-$i" >> $log
  /work/shared/refweb/run.sh s42-$i 300 150000 > /tmp/s42/ref-$i.log 2>&1
  echo "$(date +%T) end ref-$i rc=$?" >> $log
done
