# Candidate pairs (adapted from eval/realpages/tools/cands.py) plus in-order word share of the main texts.
import pickle, json, re, itertools, os, glob, sys, difflib
from urllib.parse import unquote, urlparse, parse_qs
from collections import Counter, defaultdict
W = '/tmp/label-templates'
pages = pickle.load(open(W+'/work/pages.pkl','rb'))
K = sorted(pages, key=lambda k:(k[0],k[1],k[2]))
host = lambda u: re.sub(r'^https?://(www\.)?','',u).split('/')[0]
def norm(u):
    u = re.sub(r'^https?://web\.archive\.org/web/\d+[a-z_]*/', '', u)
    u = re.sub(r'^https?://(www\.)?','',u); u = re.sub(r':80(?=/|$)','',u); return u.rstrip('/')
def queried(u):
    # the URL a Wayback CDX query asks for, decoded until stable, normalized
    q = parse_qs(urlparse(u).query).get('url', [''])[0]
    for _ in range(3): q = unquote(q)
    return norm(q).lower()
def words(s): return re.findall(r'\w+', s.lower())
def sh(ws, n=5): return {tuple(ws[i:i+n]) for i in range(max(1,len(ws)-n+1))} if ws else set()
lc = defaultdict(Counter); hc = Counter()
for k in K:
    h = host(pages[k]['uri']); hc[h]+=1
    for l in set(pages[k]['lines']): lc[h][l]+=1
for k in K:
    p = pages[k]; h = host(p['uri'])
    thr = max(3, 0.2*hc[h])
    p['main'] = [l for l in p['lines'] if lc[h][l] < thr]
    p['W'] = words(p['title']+' '+' '.join(p['lines']))
    p['MW'] = words(' '.join(p['main']))
    p['S'] = sh(p['W']); p['M'] = sh(p['MW'])
    p['q'] = queried(p['uri'])
cand = defaultdict(set); jj = {}
def key(d, pre=''): return (os.path.basename(d[pre+'file']), d[pre+'offset'], d[pre+'inner_offset'])
for run in ['def','tau01','sb0','ss01']:
    for fn in glob.glob(f'{W}/out-{run}/pairs-*.jsonl'):
        for l in open(fn):
            d = json.loads(l); a,b = sorted([key(d,'a_'),key(d,'b_')])
            cand[(a,b)].add('job-'+run)
            if run=='tau01' or (run=='def' and (a,b) not in jj): jj[(a,b)] = d['jaccard']
    for fn in glob.glob(f'{W}/out-{run}/decisions-*.jsonl'):
        for l in open(fn):
            d = json.loads(l)
            if d['keep']: continue
            kk = (os.path.basename(d['kept_by_file']), d['kept_by_offset'], d['kept_by_inner_offset'])
            a,b = sorted([key(d), kk]); cand[(a,b)].add('drop-'+run)
for a,b in itertools.combinations(K,2):
    A,B = pages[a],pages[b]
    if norm(A['uri'])==norm(B['uri']) or (A['q'] and A['q']==B['q']): cand[(a,b)].add('url')
    if A['title'] and A['title']==B['title']: cand[(a,b)].add('title')
    if A['lines']==B['lines']: cand[(a,b)].add('text')
    i = len(A['S']&B['S']); u = len(A['S']|B['S'])
    j = i/u if u else 0; m = min(len(A['S']),len(B['S'])); c = i/m if m else 0
    if j>=0.3: cand[(a,b)].add('sh5-j')
    if c>=0.6: cand[(a,b)].add('sh5-c')
    mi = len(A['M']&B['M'])
    if A['M'] and B['M'] and mi/min(len(A['M']),len(B['M']))>=0.3: cand[(a,b)].add('main-c')
def share(x, y):
    if not x or not y: return 0.0, 0.0
    sm = difflib.SequenceMatcher(None, x, y, autojunk=False)
    n = sum(bl.size for bl in sm.get_matching_blocks())
    return n/len(x), n/len(y)
out=[]
for (a,b),src in sorted(cand.items()):
    A,B = pages[a],pages[b]
    i = len(A['S']&B['S']); u = len(A['S']|B['S'])
    wa, wb = share(A['MW'], B['MW'])
    out.append(dict(a=a,b=b,src=sorted(src),jac=jj.get((a,b)),sh5=i/u if u else 0, wa=wa, wb=wb))
pickle.dump((pages,out),open(W+'/work/cands.pkl','wb'))
print(len(out),'candidate pairs'); print(Counter(s for o in out for s in o['src']))
