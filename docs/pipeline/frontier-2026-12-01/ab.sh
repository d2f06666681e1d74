#!/bin/bash
# interleaved A/B of bench e2e defaults on one jar; args: label ... (label "paper" runs --set ranking=ipr-dl1)
cd /tmp/s43/e2e
for label in "$@"; do
  n=1; while [ -e $label-$n.json ]; do n=$((n+1)); done
  extra=""; [ "$label" = paper ] && extra="--set ranking=ipr-dl1"
  echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg) start $label-$n" >> runs.log
  java -Xmx4g -XX:+UseParallelGC -jar /tmp/new.jar bench e2e $extra --summary $label-$n.json > $label-$n.log 2>&1
  echo "$(date +%T) end $label-$n rc=$?" >> runs.log
done
