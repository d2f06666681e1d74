#!/usr/bin/env python3
"""Where each of the 10 busiest IPs lost its polite rate in a demo run (BENCHMARKS.md, issue 19, twenty-fourth
session).

Usage: ip-gaps.py SUMMARY.json DATA_DIR
  SUMMARY.json  the demo's --summary (its politenessEfficiency.ips lists the 10 busiest IPs)
  DATA_DIR      the demo's --data-dir after the run (websim-access.tsv)

For each IP, from websim's access log: its efficiency (requests x T / span) and the time lost against one request
per T, split into gaps under 1.5 T (the guard's T + response time per request), longer gaps in the IP's first 8 s,
and longer gaps after that (the largest three listed: a single gap of several seconds is an IP whose last pages were
discovered late).
"""
import collections
import json
import sys

summary = json.load(open(sys.argv[1]))
T = summary['politenessMs']
rows = [line.rstrip('\n').split('\t') for line in open(sys.argv[2] + '/websim-access.tsv')][1:]
by_ip = collections.defaultdict(list)
for r in rows:
    by_ip[r[1]].append(float(r[0]))
for x in summary['politenessEfficiency']['ips']:
    t = sorted(by_ip[x['ip']])
    gaps = [t[i + 1] - t[i] for i in range(len(t) - 1)]
    base = sum(g - T for g in gaps if g < 1.5 * T) / 1000
    early = sum(g - T for i, g in enumerate(gaps) if g >= 1.5 * T and t[i] - t[0] < 8000) / 1000
    later = sum(g - T for i, g in enumerate(gaps) if g >= 1.5 * T and t[i] - t[0] >= 8000) / 1000
    print(f"{x['ip']} requests {len(t)} efficiency {x['efficiency']:.3f} span {x['spanSeconds']:.1f} s; lost: "
          f"short gaps {base:.1f} s, long gaps in the first 8 s {early:.1f} s, later {later:.1f} s "
          f"(largest {[round(g / 1000, 1) for g in sorted(gaps)[-3:]]} s)")
