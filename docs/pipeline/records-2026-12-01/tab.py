import json,sys,glob
rows=[]
for f in sys.argv[1:]:
    d=json.load(open(f)); c=d['cpuMsPerPage']; r=d['recordsPerPage']; b=d['bytesPerPage']
    print(f"{f:18s} pps {d['pagesPerSecond']:7.0f} slow {d['slowestWindowPagesPerSecond']:6.0f} cpu {c['total']:.3f} jit {c['jit']:.3f} brk {c['broker']:.3f} fet {c['fetcher']:.3f} fio {c['fetcherIo']:.3f} rnk {c['ranker']:.3f} ddp {c['dedup']:.3f} sch {c['scheduler']:.3f} web {c['websim']:.3f} rec {r['total']:.2f} links {r.get('crawl.links',0):.2f} res {r.get('crawl.fetch.results',0):.2f} bytes {b['total']:.0f} resB {b.get('crawl.fetch.results',0):.0f} dup {d['duplicateFetches']} viol {d['politenessViolations']} pages {d['pagesFetched']}")
