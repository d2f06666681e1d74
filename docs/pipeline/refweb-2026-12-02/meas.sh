#!/bin/bash
cd /work/ci44/main; export REFWEB=/tmp/refweb
for n in 1 2 3; do
  echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg) start s43-$n" >> /tmp/s43/refweb.log
  ../shared/refweb/run.sh s43-$n 300 150000 > /tmp/s43/refweb-$n.log 2>&1
  echo "$(date +%T) end s43-$n rc=$?" >> /tmp/s43/refweb.log
done
