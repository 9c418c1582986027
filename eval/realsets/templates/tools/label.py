# Verdicts and set files (adapted from eval/realpages/tools/label.py). Run after cands.py.
import pickle, os, itertools, sys
from collections import Counter
W = '/tmp/label-templates'
SET = sys.argv[1] if len(sys.argv) > 1 else '/work/wt-label-templates/eval/realsets/templates'
pages, out = pickle.load(open(W+'/work/cands.pkl','rb'))
F = 'copycat__topic-1--20201003083220753-00000.warc.gz'
K = lambda o: (F, o, 0)
# Clusters, decided by reading the two listings side by side (see README).
CL = [
 ([551853, 612138], "same Wayback CDX listing: the query for en.wikipedia.org/wiki/Akuma_Obama was made twice; identical list of 7 captures"),
 ([552482, 631667], "same Wayback CDX listing: the query for en.wikipedia.org/wiki/2008_Barack_Obama_assassination_scare_in_Tennessee was made twice; identical list of 25 captures"),
 ([554775, 589904, 641521], "same Wayback CDX listing of en.wikipedia.org/wiki/Barack_Obama,_Sr, queried as %2C, %252C (double-encoded) and again; identical list of 12 captures"),
 ([559175, 642338], "same Wayback CDX listing: the query for en.wikipedia.org/wiki/Barack_Obama_Sr. was made twice; identical list of 11 captures"),
 ([559947, 646633], "same Wayback CDX listing: the query for en.wikipedia.org/wiki/Barack_obama was made twice; identical list of 840 captures"),
 ([585099, 671786], "same Wayback CDX listing: the query for en.wikipedia.org/wiki/Barnard_Obama was made twice; identical list of 3 captures"),
 ([596870, 617808], "same Wayback CDX listing: the query for en.wikipedia.org/wiki/Category:Family_trees was made twice; identical list of 9 captures"),
 ([614714, 674291], "same Wayback CDX listing: the query for en.wikipedia.org/wiki/Kezia_Obama was made twice; identical list of 7 captures"),
]
OVR = {
 frozenset([7896, 8391]): "capture listings of two different about.com genealogy blog archive pages (2004_03_08.htm vs 2004_03_23.htm), 4 captures each at different times with different digests; no capture line shared, only the line format and the common URL prefix (word share in order 0.76/0.76)",
 frozenset([425303, 426233]): "capture listings of suntimes.com DNC vs RNC election index pages: different URLs, different capture times and digests; no capture line shared",
 frozenset([616708, 617195]): "capture listings of Malia_A_Obama vs Malia_Ann_Obama (two Wikipedia redirect names): different URLs and captures; no capture line shared",
}
order = sorted(pages, key=lambda k:(k[0],k[1],k[2]))
grp = {}
for i,(ms,n) in enumerate(CL):
    for o in ms: grp[K(o)] = i
firsts = sorted(range(len(CL)), key=lambda i: min(CL[i][0]))
gname = {g:'r%04d'%(j+1) for j,g in enumerate(firsts)}
cid = {}; note = {}; sn = 0
for k in order:
    if k in grp: cid[k] = gname[grp[k]]; note[k] = CL[grp[k]][1]
    else: sn += 1; cid[k] = 's-%d'%sn
def short(q):
    return q
rows = []; dup = 0
for o in out:
    a,b = o['a'],o['b']; A,B = pages[a],pages[b]
    if cid[a]==cid[b] and cid[a].startswith('r'):
        v='dup'; r=note[a]; dup+=1
    else:
        v='different'
        r = OVR.get(frozenset([a[1],b[1]]))
        if not r:
            assert not (set(A['lines']) & set(B['lines'])) and A['q']!=B['q'], (a,b)
            r = ('capture listings of two different URLs (%s vs %s): no capture line shared; the shared words are the CDX line format and the common SURT/URL prefix (template siblings; word share in order %.2f/%.2f)'
                 % (A['q'], B['q'], o['wa'], o['wb']))
    jac = o['jac']
    if jac is None and 'drop-def' in o['src']: jac = 1
    rows.append((A['file'],a[1],B['file'],b[1],v,'' if jac is None else ('%.3f'%jac if jac<1 else '1'),'%.3f'%o['sh5'],r,a[2],b[2],','.join(o['src'])))
for ms,n in CL:
    for x,y in itertools.combinations(ms,2):
        a,b = sorted([K(x),K(y)])
        assert any(r[1]==a[1] and r[3]==b[1] and r[4]=='dup' for r in rows), (x,y)
with open(SET+'/judged_pairs.tsv','w') as f:
    f.write('file_a\toffset_a\tfile_b\toffset_b\tverdict\tjaccard_job\tshingle5\treason\tinner_offset_a\tinner_offset_b\tfound_by\n')
    for r in rows: f.write('\t'.join(map(str,r))+'\n')
with open(SET+'/truth.tsv','w') as f:
    f.write('file\toffset\tinner_offset\trecord_id\turi\tcluster\tnote\n')
    for k in order:
        p = pages[k]; f.write('\t'.join(map(str,[p['file'],k[1],k[2],p['record_id'],p['uri'],cid[k],note.get(k,'')]))+'\n')
cs = Counter(cid.values()); multi = {c:n for c,n in cs.items() if c.startswith('r')}
print('pages',len(pages),'clusters',len(cs),'multi',multi,'dup pairs',sum(n*(n-1)//2 for n in multi.values()),
      'possible drops',sum(n-1 for n in multi.values()),'judged',len(rows),'dup judged',dup)
print(Counter(s for r in rows for s in r[10].split(',')))
