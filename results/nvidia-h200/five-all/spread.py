#!/usr/bin/env python3
"""spread.py DIR - for each case family of DIR/all1-5.json (two runs each): how far its
runs spread within a document (run-sd), how far the documents' means spread (docmean-sd),
what the runs alone would let the means spread by (run-sd / sqrt 2), and the ratio of the
two variances: about 1 where nothing moves between documents that the runs do not show."""
import json,sys,math,statistics as st,collections
D=[json.load(open(f'{sys.argv[1]}/all{i}.json')) for i in range(1,6)]
CTX = {"timed", "iters", "steps", "calibrated_iters", "load_steps"}
def key(r): return (r['module'],r['case'],json.dumps({k:v for k,v in r['params'].items() if k not in CTX},sort_keys=True))
M=[{key(r):r for r in d['results'] if r.get('status')=='ok' and (r.get('runs') or {}).get('median_s') and len(r['runs']['median_s'])==2 and all(isinstance(x,(int,float)) and x>0 for x in r['runs']['median_s'])} for d in D]
keys=set(M[0]); [keys.__iand__(set(m)) for m in M[1:]]
fam=collections.defaultdict(lambda:[0,0,0])
for k in keys:
    L=[[math.log(x) for x in m[k]['runs']['median_s']] for m in M]
    if any(not all(math.isfinite(v) for v in l) for l in L): continue
    w=st.mean([st.variance(l) for l in L])        # run var within doc, 5 df
    b=st.variance([st.mean(l) for l in L])        # var of doc means, 4 df
    f=k[0]+' '+'/'.join(k[1].split('/')[:2])
    fam[f][0]+=1; fam[f][1]+=w; fam[f][2]+=b
print(f"{'family':46} {'n':>3} {'run-sd':>7} {'docmean-sd':>10} {'from-runs':>9} {'ratio':>6}")
for f,(n,w,b) in sorted(fam.items()):
    w/=n; b/=n
    print(f"{f:46} {n:3} {100*math.sqrt(w):6.2f}% {100*math.sqrt(b):9.2f}% {100*math.sqrt(w/2):8.2f}% {b/(w/2):6.2f}")
