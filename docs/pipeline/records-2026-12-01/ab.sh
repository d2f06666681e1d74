#!/bin/bash
# interleaved A/B of bench e2e defaults; args: label:jar ...
cd /tmp/s42/e2e
for round in "$@"; do
  label=${round%%:*}; jar=${round#*:}
  n=1; while [ -e $label-$n.json ]; do n=$((n+1)); done
  echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg) start $label-$n" >> runs.log
  java -Xmx4g -XX:+UseParallelGC -jar $jar bench e2e --summary $label-$n.json > $label-$n.log 2>&1
  echo "$(date +%T) end $label-$n rc=$?" >> runs.log
done
