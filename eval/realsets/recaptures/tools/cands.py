import pickle, json, re, itertools, os, glob
from collections import Counter, defaultdict
pages = pickle.load(open('/tmp/label-recaptures/pages.pkl','rb'))
K = sorted(pages, key=lambda k:(os.path.basename(k[0]),k[1],k[2]))
host = lambda u: re.sub(r'^https?://(www\.)?','',u).split('/')[0]
def norm(u):
    u = re.sub(r'^https?://(www\.)?','',u); u = re.sub(r':80(?=/|$)','',u); return u.rstrip('/')
def words(s): return re.findall(r'\w+', s.lower())
def sh(ws, n=5): return {tuple(ws[i:i+n]) for i in range(max(1,len(ws)-n+1))} if ws else set()
# boilerplate lines per host
lc = defaultdict(Counter); hc = Counter()
for k in K:
    h = host(pages[k]['uri']); hc[h]+=1
    for l in set(pages[k]['lines']): lc[h][l]+=1
for k in K:
    p = pages[k]; h = host(p['uri'])
    thr = max(3, 0.2*hc[h])
    p['main'] = [l for l in p['lines'] if lc[h][l] < thr]
    p['S'] = sh(words(p['title']+' '+' '.join(p['lines'])))
    p['M'] = sh(words(' '.join(p['main'])))
    p['text'] = '\n'.join([p['title']]+p['lines'])
cand = defaultdict(set); jj = {}
def key(d, pre=''): return (d[pre+'file'], d[pre+'offset'], d[pre+'inner_offset'])
for run in ['def','tau01','sb0','ss01']:
    for fn in glob.glob(f'/tmp/label-recaptures/out-{run}/pairs-*.jsonl'):
        for l in open(fn):
            d = json.loads(l); a,b = sorted([key(d,'a_'),key(d,'b_')])
            cand[(a,b)].add('job-'+run)
            if run=='tau01' or (run=='def' and (a,b) not in jj): jj[(a,b)] = d['jaccard']
    for fn in glob.glob(f'/tmp/label-recaptures/out-{run}/decisions-*.jsonl'):
        for l in open(fn):
            d = json.loads(l)
            if d['keep']: continue
            ks = [k for k in K if pages[k]['record_id']==d['kept_by'] and pages[k]['uri']==d.get('kept_by_uri')]
            for kk in ks:
                a,b = sorted([key(d), kk]); cand[(a,b)].add('drop-'+run)
for a,b in itertools.combinations(K,2):
    A,B = pages[a],pages[b]
    if norm(A['uri'])==norm(B['uri']): cand[(a,b)].add('url')
    if A['title'] and A['title']==B['title']: cand[(a,b)].add('title')
    if A['lines']==B['lines']: cand[(a,b)].add('text')
    i = len(A['S']&B['S']); u = len(A['S']|B['S'])
    j = i/u if u else 0; c = i/min(len(A['S']),len(B['S'])) if min(len(A['S']),len(B['S'])) else 0
    A.setdefault('sh',{}); 
    if j>=0.3: cand[(a,b)].add('sh5-j')
    if c>=0.6: cand[(a,b)].add('sh5-c')
    mi = len(A['M']&B['M'])
    if A['M'] and B['M'] and mi/min(len(A['M']),len(B['M']))>=0.3: cand[(a,b)].add('main-c')
out=[]
for (a,b),src in sorted(cand.items()):
    A,B = pages[a],pages[b]
    i = len(A['S']&B['S']); u = len(A['S']|B['S'])
    mi = len(A['M']&B['M'])
    out.append(dict(a=a,b=b,src=sorted(src),jac=jj.get((a,b)),sh5=i/u if u else 0,
        mca=mi/len(A['M']) if A['M'] else 0, mcb=mi/len(B['M']) if B['M'] else 0))
pickle.dump((pages,out),open('/tmp/label-recaptures/cands.pkl','wb'))
print(len(out),'candidate pairs'); 
c=Counter(s for o in out for s in o['src']); print(c)
for o in out:
    print('%-45s %-45s %s jac=%s sh5=%.2f main %.2f/%.2f' % (pages[o['a']]['uri'][-45:], pages[o['b']]['uri'][-45:], ','.join(o['src']), o['jac'] and round(o['jac'],3), o['sh5'], o['mca'], o['mcb']))
