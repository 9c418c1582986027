import pickle, re, difflib, os
from collections import Counter, defaultdict
pages,out=pickle.load(open('/tmp/label-forums/cands.pkl','rb'))
host=lambda u: re.sub(r'^https?://(www\.)?','',u).split('/')[0]
def norm(u):
    u=re.sub(r'^https?://(www\.)?','',u); u=re.sub(r':80(?=/|$)','',u); return u.rstrip('/')
# template lines: lines found on pages of >=2 distinct URLs of the host (when host has >=3 distinct URLs), else >=2 distinct URLs
urls=defaultdict(set); lu=defaultdict(lambda: defaultdict(set))
for k,p in pages.items():
    h=host(p['uri']); nu=norm(p['uri']); urls[h].add(nu)
    for l in set(p['lines']): lu[h][l].add(nu)
def W(s): return re.findall(r'\w+', s.lower())
for k,p in pages.items():
    h=host(p['uri']); n=len(urls[h])
    thr = 2 if n>=3 else 99
    p['main2']=[l for l in p['lines'] if len(lu[h][l])<thr]
    p['mw']=W(' '.join(p['main2']))
    p['aw']=W(p['title']+' '+' '.join(p['lines']))
def share(a,b):
    if not a or not b: return 0,0
    sm=difflib.SequenceMatcher(None,a,b,autojunk=False)
    m=sum(x.size for x in sm.get_matching_blocks())
    return m/len(a), m/len(b)
res=[]
for o in out:
    A,B=pages[o['a']],pages[o['b']]
    ma,mb=share(A['mw'],B['mw'])
    wa,wb=share(A['aw'],B['aw'])
    o['ma'],o['mb'],o['wa'],o['wb']=ma,mb,wa,wb
    o['sameurl']=norm(A['uri'])==norm(B['uri']); o['samehost']=host(A['uri'])==host(B['uri'])
pickle.dump((pages,out),open('/tmp/label-forums/cands2.pkl','wb'))
for o in sorted(out,key=lambda o:-min(o['ma'],o['mb'])):
    A,B=pages[o['a']],pages[o['b']]
    print('%.2f/%.2f all %.2f/%.2f %s%s |%d|%d %s:%d %s | %s:%d %s | %s' % (o['ma'],o['mb'],o['wa'],o['wb'],'U' if o['sameurl'] else '-','H' if o['samehost'] else '-',len(A['mw']),len(B['mw']),A['file'][19:35],o['a'][1],A['uri'][8:70],B['file'][19:35],o['b'][1],B['uri'][8:70],','.join(o['src'])))
