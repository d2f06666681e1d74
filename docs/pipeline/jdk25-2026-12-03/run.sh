#!/bin/bash
cd /tmp/s52/jdk
for i in 1 2 3; do
 for v in 17 25; do
  if [ $v = 17 ]; then J=java; else J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java; fi
  echo "$(date +%T) run $v-$i uptime $(cut -d' ' -f1-3 /proc/loadavg)" >> series.log
  rm -rf d-$v-$i
  $J -Xmx4g -XX:+UseParallelGC -jar lab.jar bench e2e --summary e2e-$v-$i.json --data-dir d-$v-$i > e2e-$v-$i.log 2>&1
  rm -rf d-$v-$i
 done
done
echo done >> series.log
