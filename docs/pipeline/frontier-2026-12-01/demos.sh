#!/bin/bash
# waits for the bench order runs, then interleaves default demos: ours (default) and the paper's ranking
while pgrep -f after.sh > /dev/null; do sleep 5; done
cd /work/ci44/main
for label in frontier paper frontier paper frontier paper; do
  n=1; while [ -e /tmp/s43/demo-$label-$n.json ]; do n=$((n+1)); done
  extra=""; [ "$label" = paper ] && extra="--set ranking=ipr-dl1"
  echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg) start demo-$label-$n" >> /tmp/s43/demos.log
  ./crawler demo --no-progress --status-port -1 $extra --summary /tmp/s43/demo-$label-$n.json > /tmp/s43/demo-$label-$n.log 2>&1
  echo "$(date +%T) end demo-$label-$n rc=$?" >> /tmp/s43/demos.log
done
