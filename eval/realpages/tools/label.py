import pickle, json, os, itertools
from collections import defaultdict
pages,out=pickle.load(open('cands.pkl','rb')); E=pickle.load(open('ents.pkl','rb'))
off={}
for k,p in pages.items(): off[(p['file'][:4],p['offset'])]=k
def K(o): return off[('ipwb',o)]
CL = [
 ([368302,401433,416950,432480], "same post 'On Our Radar' roundup of 11 Apr 2013: the tag pages FEMEN, Homonationalism, immigration reform list only this post and print its whole text (no teaser break); they differ only in the tag heading, the post page adds the closing lines"),
 ([1008028,1045814,1062387,1131340,1147906], "same post 'On Our Radar' roundup of 10 Apr 2013: the tag pages cyberbullying, guns in school, Talib Kweli, twerking list only this post and print its whole text (an earlier copy with typos, e.g. 'agression', 'commiting', later fixed in the post); they differ only in the tag heading"),
 ([210035,261163], "identical one-entry tag listings (excerpt of the Kacey Musgraves review); only the tag heading differs"),
 ([962217,977287], "identical one-entry tag listings (excerpt of the Spring Breakers post); only the tag heading differs"),
]
cl={}; note={}
for i,(ms,n) in enumerate(CL):
    for o in ms: cl[K(o)]=None; note[K(o)]=n
# number clusters by first member in file/offset order
order=sorted(pages, key=lambda k:(pages[k]['file'],k[1],k[2]))
cid={}; rn=0; sn=0; grp={}
for i,(ms,n) in enumerate(CL):
    for o in ms: grp[K(o)]=i
firsts=sorted(range(len(CL)), key=lambda i: min((pages[K(o)]['file'],o) for o in CL[i][0]))
gname={g:'r%04d'%(j+1) for j,g in enumerate(firsts)}
for k in order:
    if k in grp: cid[k]=gname[grp[k]]
    else: sn+=1; cid[k]='s-%d'%sn
OVR = {
 frozenset([655946,673701]): "two tag listings (comics, RuPaul's Drag Race) sharing 8 of their 10 entries, each with 2 of its own; main text shared 77%/78%, under the 80% guide",
 frozenset([586124,624928]): "tag 'ms opinionated' vs the column's blog index: 8 of 10 entries shared, the blog adds a column description and 2 other posts; main text shared 90%/76%",
 frozenset([509341,586124]): "tag listings advice vs ms opinionated: 6 of 10 entries shared",
 frozenset([509341,624928]): "tag advice vs the Ms. Opinionated blog index: 5 of 10 entries shared",
 frozenset([720375,761881]): "tag dystopian vs the 'Girls of Color in Dystopia' blog index: 4 shared entries of 6 and 5",
 frozenset([384170,368302]): "tag DSM lists the whole 11 Apr roundup plus a second post's excerpt; roundup text is only 40% of the tag page",
 frozenset([368302,1008028]): "two different daily news roundups (11 and 10 Apr 2013) with the same title 'On Our Radar: Today's Feminist News Roundup'; different items",
 frozenset([853878,870223]): "post vs tag 'Frances Perkins', which excerpts it (first paragraphs) next to a second post",
 frozenset([('pywb',657746),('pywb',773766)]): "IANA Root Zone Management page contains the DNSSEC section as one of several sections; the DNSSEC page is a short link list",
}
def ov(a,b):
    x=frozenset([a[1],b[1]]) if a[0].endswith('ipwb__sample-1.warc.gz') and b[0].endswith('ipwb__sample-1.warc.gz') else None
    if x in OVR: return OVR[x]
    y=frozenset([(pages[a]['file'][:4],a[1]),(pages[b]['file'][:4],b[1])])
    return OVR.get(y)
kind=lambda k: ('post' if '/post/' in pages[k]['uri'] else 'iana' if 'iana' in pages[k]['uri'] else 'list')
rows=[]; dup=0
for o in out:
    a,b=o['a'],o['b']
    if cid[a]==cid[b] and cid[a].startswith('r'):
        v='dup'; r=note[a]
    else:
        v='different'; r=ov(a,b)
        if not r:
            ka,kb=kind(a),kind(b)
            if 'iana' in (ka,kb):
                r='different IANA pages on the same site template; shared text is navigation and footer' if ka==kb else 'different sites'
            elif ka=='post' and kb=='post':
                r='different posts on the same template (template siblings); shared text is navigation/sidebar'
            else:
                s=set(E.get(a,[]))&set(E.get(b,[]))
                if ka=='post' or kb=='post':
                    P,L=(a,b) if ka=='post' else (b,a)
                    mi=len(pages[P]['M']&pages[L]['M']); cp=mi/len(pages[P]['M']); cl_=mi/len(pages[L]['M'])
                    if s and cp>=0.8: r='listing vs item: the listing prints the whole post plus %d other entries (contains substantially more; post text is %.0f%% of the listing)'%(len(E[L])-1, 100*cl_)
                    elif s: r='listing vs item: the listing shows only an excerpt of the post' + ('' if len(E[L])==1 else ' among %d entries'%len(E[L]))
                    else: r='post vs a listing that does not include it; shared text is navigation/sidebar'
                else:
                    if not s: r='listings with no shared entries (template siblings); shared text is navigation/sidebar'
                    else: r='listings share %d of %d/%d entries (under 80%%)'%(len(s),len(E[a]),len(E[b]))
    if v=='dup': dup+=1
    jac = o['jac']
    if jac is None and 'drop-default' in o['src']: jac=1
    rows.append((pages[a]['file'],a[1],pages[b]['file'],b[1],v,'' if jac is None else ('%.3f'%jac if jac<1 else '1'),'%.3f'%o['sh5'],r,a[2],b[2],','.join(o['src'])))
# dup pairs must all be candidates
for ms,n in CL:
    for x,y in itertools.combinations(ms,2):
        a,b=sorted([K(x),K(y)])
        assert any(r[1]==a[1] and r[3]==b[1] and r[4]=='dup' for r in rows), (x,y)
os.makedirs('set/warcs',exist_ok=True)
with open('set/judged_pairs.tsv','w') as f:
    f.write('file_a\toffset_a\tfile_b\toffset_b\tverdict\tjaccard_job\tshingle5\treason\tinner_offset_a\tinner_offset_b\tfound_by\n')
    for r in rows: f.write('\t'.join(map(str,r))+'\n')
with open('set/truth.tsv','w') as f:
    f.write('file\toffset\tinner_offset\trecord_id\turi\tcluster\tnote\n')
    for k in order:
        p=pages[k]; f.write('\t'.join(map(str,[p['file'],k[1],k[2],p['record_id'],p['uri'],cid[k],note.get(k,'')]))+'\n')
from collections import Counter
cs=Counter(cid.values()); multi={c:n for c,n in cs.items() if c.startswith('r')}
print('pages',len(pages),'clusters',len(cs),'multi',multi,'dup pairs',sum(n*(n-1)//2 for n in multi.values()),'possible drops',sum(n-1 for n in multi.values()),'judged',len(rows),'dup judged',dup)
print(Counter(r[7] if not r[7].startswith('listings share') else 'listings share' for r in rows).most_common())
