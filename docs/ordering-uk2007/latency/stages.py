# Thirty-third session probe: per-stage latency of a link through the pipeline, from a Dump.java.txt dump of a
# bench order crawl run on a broker with log.message.timestamp.type=LogAppendTime (every record stamped when appended).
# Run: python3 stages.py DUMP.tsv   (reads websim times only through fetchedAt; all times in ms)
import sys, json, re
DUMP = sys.argv[1]
pid = re.compile(r'/p/(\d+)$')
def pg(u):
    m = pid.search(u); return int(m.group(1)) if m else None
INF = float('inf')
t0 = {}     # U -> earliest fetchedAt of a page linking to U
t1 = {}     # U -> append time of that result (the first result listing U)
disc = {}   # U -> first discovered append
adm = {}    # U -> first admitted append
sc = {}     # U -> first score append
req = {}    # U -> first request append
fet = {}    # U -> fetchedAt
res = {}    # U -> result append
nbatch = {}
for line in open(DUMP):
    f = line.rstrip('\n').split('\t', 6)
    t, ts, v = f[0], int(f[4]), f[6]
    if v == 'null': continue
    j = json.loads(v)
    if t == 'crawl.fetch.results':
        u = pg(j['url'])
        if u is not None and u not in fet:
            fet[u] = j['fetchedAt']; res[u] = ts
        fa = j['fetchedAt']
        for l in j.get('links') or []:
            w = pg(l['url'])
            if w is not None and fa < t0.get(w, INF):
                t0[w] = fa; t1[w] = ts
    elif t == 'crawl.fetch.requests':
        u = pg(j['url'])
        if u is not None and u not in req: req[u] = ts
    else:
        key = 'urls' if 'urls' in j else 'deltas' if 'deltas' in j else 'scores'
        d = {'crawl.urls.discovered': disc, 'crawl.urls.admitted': adm, 'crawl.rank.scores': sc}.get(t)
        if d is None: continue
        for l in j[key]:
            w = pg(l['url'])
            if w is not None and w not in d: d[w] = ts
def q(xs, ps=(1, 10, 25, 50, 75, 90)):
    xs = sorted(xs)
    if not xs: return 'n=0'
    return 'n=%d ' % len(xs) + ' '.join('p%d %.0f' % (p, xs[min(len(xs) - 1, len(xs) * p // 100)]) for p in ps)
us = [u for u in fet if u in t0 and t0[u] <= fet[u]]
print('end to end: fetchedAt(U) - first fetchedAt(linking P):', q([fet[u] - t0[u] for u in us]))
print('A  P fetched -> P result appended:', q([t1[u] - t0[u] for u in us]))
print('B  result appended -> U discovered appended (other partitions):', q([disc[u] - t1[u] for u in us if u in disc and disc[u] >= t1[u]]))
print('C  U discovered -> U admitted:', q([adm[u] - disc[u] for u in us if u in adm and u in disc]))
print('   U in admitted:', sum(1 for u in us if u in adm), 'U in discovered:', sum(1 for u in us if u in disc), 'of', len(us))
print('D  first score of U - result appended:', q([sc[u] - t1[u] for u in us if u in sc]))
print('E  request appended - result appended (P):', q([req[u] - t1[u] for u in us if u in req]))
print('E2 request appended - max(admitted or result):', q([req[u] - (adm[u] if u in adm else t1[u]) for u in us if u in req]))
print('F  U fetchedAt - request appended:', q([fet[u] - req[u] for u in us if u in req]))
print('G  U result appended - U fetchedAt:', q([res[u] - fet[u] for u in us]))
print('--- gating')
both = [u for u in us if u in req and u in sc]
print('request before first score: %d of %d' % (sum(1 for u in both if req[u] < sc[u]), len(both)))
print('H  request - first score (when after):', q([req[u] - sc[u] for u in both if req[u] >= sc[u]]))
print('I  admitted - result appended:', q([adm[u] - t1[u] for u in us if u in adm]))
print('J  first score - admitted:', q([sc[u] - adm[u] for u in us if u in adm and u in sc]))
# fastest 1000 links: stage split
fast = sorted(us, key=lambda u: fet[u] - t0[u])[:1000]
import statistics as st
for name, f in [('A P fetch->result', lambda u: t1[u]-t0[u]), ('I result->admitted', lambda u: adm[u]-t1[u]), ('score-result', lambda u: sc[u]-t1[u] if u in sc else 0), ('E2 admitted->request', lambda u: req[u]-adm[u]), ('F request->fetch', lambda u: fet[u]-req[u])]:
    print('fastest 1000, median %s: %.0f' % (name, st.median([f(u) for u in fast])))
