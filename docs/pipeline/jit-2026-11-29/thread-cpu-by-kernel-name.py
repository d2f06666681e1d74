import os, sys, time, re, collections, json
pid = sys.argv[1]; out = sys.argv[2]
tck = os.sysconf('SC_CLK_TCK')
last = {}
series = []
t0 = time.time()
while os.path.exists('/proc/%s' % pid):
    try:
        for t in os.listdir('/proc/%s/task' % pid):
            try:
                comm = open('/proc/%s/task/%s/comm' % (pid, t)).read().strip()
                st = open('/proc/%s/task/%s/stat' % (pid, t)).read()
                f = st[st.rfind(')') + 2:].split()
                last[t] = (comm, (int(f[11]) + int(f[12])) / tck)
            except Exception:
                pass
        st = open('/proc/%s/stat' % pid).read(); f = st[st.rfind(')') + 2:].split()
        proc = (int(f[11]) + int(f[12])) / tck
    except Exception:
        break
    jit = sum(c for (n, c) in last.values() if 'CompilerThre' in n)
    gc = sum(c for (n, c) in last.values() if n.startswith('GC Thread'))
    series.append((round(time.time() - t0, 1), round(proc, 2), round(jit, 2), round(gc, 2)))
    time.sleep(2)
g = collections.Counter()
for t, (comm, cpu) in last.items():
    g[re.sub(r'[0-9#]+', 'N', comm)] += cpu
json.dump({'groups': dict(g.most_common()), 'series': series}, open(out, 'w'), indent=0)
