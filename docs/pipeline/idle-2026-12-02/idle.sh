#!/bin/bash
# Idle CPU of the crawler process by thread name: crawl of one unreachable seed, all services idle.
# Run from the project root: bash docs/pipeline/idle-2026-12-02/idle.sh /tmp/idle (writes /tmp/idle.a, .b, .threads; prints CPU by thread name)
# usage: idle.sh OUT [extra java opts]
OUT=$1; shift
rm -rf /tmp/idle-data
JAR=crawler-app/target/crawler-app-0.1.0-SNAPSHOT-all.jar
java -Xmx2g -XX:+UseParallelGC "$@" -jar $JAR crawl --seeds http://127.0.0.1:9/ --allow-addresses 127.0.0.0/8 \
  --data-dir /tmp/idle-data --politeness-ms 100 --metrics-port 19481 --max-seconds 200 > /tmp/idle.log 2>&1 &
PID=$!
sleep 60
snap() { for t in /proc/$PID/task/*; do tid=${t##*/}; s=$(cat $t/stat 2>/dev/null) || continue; s=${s##*) }; set -- $s; echo "$tid ${12} ${13}"; done; }
snap > $OUT.a; cat /proc/$PID/stat | awk '{print $14+$15}' > $OUT.pa
sleep 60
snap > $OUT.b; cat /proc/$PID/stat | awk '{print $14+$15}' > $OUT.pb
jcmd $PID Thread.print > $OUT.threads 2>/dev/null
kill $PID; wait $PID
python3 - "$OUT" <<'PY'
import sys,re,collections
out=sys.argv[1]
a={l.split()[0]:(int(l.split()[1])+int(l.split()[2])) for l in open(out+'.a')}
b={l.split()[0]:(int(l.split()[1])+int(l.split()[2])) for l in open(out+'.b')}
names={}
for l in open(out+'.threads'):
    m=re.match(r'^"(.+?)".*nid=(0x[0-9a-f]+)',l)
    if m: names[str(int(m.group(2),16))]=m.group(1)
pa=int(open(out+'.pa').read()); pb=int(open(out+'.pb').read())
print("process CPU over 60 s: %.2f s (%.1f %% of a core)"%((pb-pa)/100,(pb-pa)/60))
d=collections.Counter()
for t,v in b.items():
    dv=v-a.get(t,0)
    n=names.get(t,'?'+t)
    n=re.sub(r'\d+','N',n)
    d[n]+=dv
for n,v in d.most_common(40):
    if v>0: print("%7.2f s  %s"%(v/100,n))
PY
