#!/usr/bin/env python3
"""Per-IP pacing of a demo run against when each URL could first have been known (BENCHMARKS.md, issue 19,
twenty-first session).

Usage: ip-backlog.py DATA_DIR T_MS IP [IP ...]
  DATA_DIR  a demo's --data-dir after the run: websim-access.tsv and warc/*.warc.gz
  T_MS      the politeness interval the crawl ran with

For each IP: its page requests per 10 s, its efficiency (requests x T / span), and its backlog every 5 s: URLs of
the IP that some already fetched page linked to (from the WARC's HTML) and that were not fetched yet. A gap longer
than T while the backlog is positive is lost to the pipeline, not to discovery.
"""
import collections
import glob
import gzip
import re
import sys
from urllib.parse import urljoin

HREF = re.compile(rb'href="([^"]*)"')
TARGET = re.compile(rb'WARC-Target-URI: <?http://([^/\s>]+)/p/(\d+)')
PAGE = re.compile(r'/p/(\d+)')


def outlinks(data_dir):
    """page id -> page ids it links to, from every response record of the run's WARC files."""
    links = {}
    for f in glob.glob(data_dir + '/warc/*.warc.gz'):
        for rec in gzip.open(f).read().split(b'WARC/1.')[1:]:
            if b'WARC-Type: response' not in rec:
                continue
            target = TARGET.search(rec)
            if not target:
                continue
            base = 'http://%s/p/%s' % (target.group(1).decode(), target.group(2).decode())
            out = []
            for h in HREF.finditer(rec):
                m = PAGE.search(urljoin(base, h.group(1).decode('latin1')))
                if m:
                    out.append(int(m.group(1)))
            links[int(target.group(2))] = out
    return links


def main():
    data_dir, t_ms, ips = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    rows = [line.rstrip('\n').split('\t') for line in open(data_dir + '/websim-access.tsv')][1:]
    start = min(float(r[0]) for r in rows)
    fetched_at = {}
    for r in rows:
        if r[6] == 'PAGE':
            fetched_at.setdefault(int(r[7]), float(r[0]))
    first_linked = {}
    for page, targets in outlinks(data_dir).items():
        t = fetched_at.get(page)
        if t is None:
            continue
        for q in targets:
            if q not in first_linked or t < first_linked[q]:
                first_linked[q] = t
    for ip in ips:
        requests = sorted((float(r[0]), int(r[7])) for r in rows if r[1] == ip and r[6] == 'PAGE')
        if len(requests) < 2:
            print(f'{ip}: fewer than two page requests')
            continue
        span = requests[-1][0] - requests[0][0]
        per10 = collections.Counter(int((t - requests[0][0]) // 10_000) for t, _ in requests)
        print(f'{ip}: {len(requests)} requests, span {span / 1000:.1f} s, efficiency {len(requests) * t_ms / span:.3f}')
        print('  requests per 10 s:', [per10[k] for k in range(max(per10) + 1)])
        pages = [p for _, p in requests]
        for s in range(0, int((requests[-1][0] - start) / 1000) + 5, 5):
            t = start + s * 1000
            known = sum(1 for p in pages if first_linked.get(p, start) <= t)
            done = sum(1 for tf, _ in requests if tf <= t)
            print(f'  t = {s:4d} s: linked {known:5d}, fetched {done:5d}, backlog {known - done:5d}')
            if done == len(requests):
                break


if __name__ == '__main__':
    main()
