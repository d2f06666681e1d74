#!/bin/bash
cd /work/main
for i in 1 2 3; do
  for v in def f100; do
    case $v in
      def) set="";;
      f100) set="--set commit-interval-ms=100";;
    esac
    echo "$(date -u +%H:%M:%S) $v-$i uptime: $(uptime | sed 's/.*average: //')" >> /tmp/s40/commit.log
    ./crawler bench e2e $set --summary /tmp/s40/commit-$v-$i.json > /tmp/s40/commit-$v-$i.out 2>&1
    python3 - "$v-$i" >> /tmp/s40/commit.log <<'PY'
import json,sys
n=sys.argv[1]; d=json.load(open('/tmp/s40/commit-%s.json'%n)); c=d['cpuMsPerPage']; b=d['brokerRequestsPerPage']; l=d['brokerLocalMsPerPage']
print(n, 'pps', round(d['pagesPerSecond']), 'slow', round(d['slowestWindowPagesPerSecond']), 'cpu', round(c['total'],3), 'broker', round(c['broker'],3), 'fetcher', round(c['fetcher'],3), 'jit', c.get('jit'), 'endtxn', b.get('EndTxn'), 'req', b.get('total'), 'localms', l.get('total'), 'rec', d['recordsPerPage']['total'], 'dup', d['duplicateFetches'], 'viol', d['politenessViolations'])
PY
  done
done
echo done >> /tmp/s40/commit.log
