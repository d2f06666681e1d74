"""Execution samples of a JFR recording by thread (digits folded), and one thread group's top and inclusive frames.
Usage: jfr print --events jdk.ExecutionSample --stack-depth 40 REC.jfr > samples.txt; python3 THIS [THREAD_SUBSTRING]"""
import re,sys,collections
txt=open('samples.txt').read()
evs=txt.split('jdk.ExecutionSample {')[1:]
bythread=collections.Counter(); top=collections.defaultdict(collections.Counter); incl=collections.defaultdict(collections.Counter)
def grp(t):
    t=re.sub(r'\d+','N',t)
    return t
for e in evs:
    m=re.search(r'sampledThread = "(.*?)"',e)
    t=grp(m.group(1)) if m else '?'
    frames=re.findall(r'^\s+([\w$.<>]+)\(.*?line:',e,re.M)
    bythread[t]+=1
    if frames:
        top[t][frames[0]]+=1
        seen=set()
        for f in frames:
            if f not in seen:
                incl[t][f]+=1; seen.add(f)
want=sys.argv[1] if len(sys.argv)>1 else None
if not want:
    for t,c in bythread.most_common(25): print(c,t)
else:
    ts=[t for t in bythread if want in t]
    tot=sum(bythread[t] for t in ts); print('total',tot)
    T=collections.Counter(); I=collections.Counter()
    for t in ts: T.update(top[t]); I.update(incl[t])
    print('--top'); 
    for f,c in T.most_common(30): print(c,f)
    print('--inclusive')
    for f,c in I.most_common(70): print(c,f)
