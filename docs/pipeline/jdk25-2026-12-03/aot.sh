#!/bin/bash
cd /tmp/s52/jdk
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
echo "$(date +%T) train uptime $(cut -d' ' -f1-3 /proc/loadavg)" >> aot.log
rm -rf d-train
$J -XX:AOTCacheOutput=app.aot -Xmx4g -XX:+UseParallelGC -jar lab.jar bench e2e --pages 60000 --max-pages 30000 --ips 1024 --data-dir d-train > train.log 2>&1
echo "$(date +%T) trained rc=$? $(ls -la app.aot)" >> aot.log
rm -rf d-train
for i in 1 2 3; do
 for v in aot plain; do
  if [ $v = aot ]; then X="-XX:AOTCache=app.aot"; else X=""; fi
  echo "$(date +%T) run $v-$i uptime $(cut -d' ' -f1-3 /proc/loadavg)" >> aot.log
  rm -rf d-$v-$i
  $J $X -Xmx4g -XX:+UseParallelGC -jar lab.jar bench e2e --summary e2e-25$v-$i.json --data-dir d-$v-$i > e2e-25$v-$i.log 2>&1
  rm -rf d-$v-$i
 done
done
echo done >> aot.log
