# Thirty-third session probe: where the ranker score of a newly linked URL comes from (in place or via crawl.rank.deltas).
# Run: python3 score-stages.py DUMP.tsv
import sys, json, re
pid = re.compile(r'/p/(\d+)$')
def pg(u):
    m = pid.search(u); return int(m.group(1)) if m else None
INF = float('inf')
t1 = {}; dl = {}; sc = {}; t0 = {}
for line in open(sys.argv[1]):
    f = line.rstrip('\n').split('\t', 6)
    t, ts, v = f[0], int(f[4]), f[6]
    if v == 'null': continue
    if t == 'crawl.fetch.results':
        j = json.loads(v); fa = j['fetchedAt']
        for l in j.get('links') or []:
            w = pg(l['url'])
            if w is not None and fa < t0.get(w, INF): t0[w] = fa; t1[w] = ts
    elif t == 'crawl.rank.deltas':
        for l in json.loads(v)['deltas']:
            w = pg(l['url'])
            if w is not None and w not in dl: dl[w] = ts
    elif t == 'crawl.rank.scores':
        for l in json.loads(v)['scores']:
            w = pg(l['url'])
            if w is not None and w not in sc: sc[w] = ts
def q(xs, ps=(1, 10, 25, 50, 75, 90)):
    xs = sorted(xs)
    return 'n=%d ' % len(xs) + ' '.join('p%d %.0f' % (p, xs[min(len(xs) - 1, len(xs) * p // 100)]) for p in ps)
us = [u for u in t1 if u in sc]
print('first delta of U - result appended:', q([dl[u] - t1[u] for u in us if u in dl]))
print('first score of U - first delta of U:', q([sc[u] - dl[u] for u in us if u in dl]))
print('U with no delta record (own partition, in place):', sum(1 for u in us if u not in dl), 'of', len(us))
print('score - result, U without delta:', q([sc[u] - t1[u] for u in us if u not in dl]))
# score batches: times between score records per partition
import collections
