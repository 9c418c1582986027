# verdicts for the recaptures set: clusters decided by reading (see README), reasons per pair
import pickle, os, itertools, re
from collections import Counter
pages,out=pickle.load(open('/tmp/label-recaptures/cands.pkl','rb'))
OUT='/work/wt-label-recaptures/eval/realsets/recaptures'
idx={(os.path.basename(k[0]),k[1],k[2]):k for k in pages}
for k in list(idx): idx.setdefault(k[:2],idx[k])  # (file, offset) names the page when inner_offset is 0
idx={k:v for k,v in idx.items() if len(k)==3 or v[2]==0}
CL=[
 ([('ipwb__baconIpsum.warc.gz',879),('ipwb__baconIpsum_chunked.warc',1171),('ipwb__baconIpsum_chunked_httpTrailors.warc',1171)],
  "one wget capture of baconIpsum.html (2017-03-02 03:03:29) stored three ways (gzip, chunked with a chunk extension, chunked with an HTTP trailer); identical text"),
 ([('ipwb__baconIpsum.warc.gz',12897),('ipwb__baconIpsum_chunked.warc',41957),('ipwb__baconIpsum_chunked_httpTrailors.warc',42015)],
  "wget_arguments.txt of the same 2017-03-01 baconIpsum wget run, in its three re-encoded copies; identical text"),
 ([('ipwb__baconIpsum.warc.gz',13322),('ipwb__baconIpsum_chunked.warc',42509),('ipwb__baconIpsum_chunked_httpTrailors.warc',42567)],
  "wget.log of the same 2017-03-01 baconIpsum wget run, in its three re-encoded copies; identical text"),
 ([('ipwb__broken.warc',1747),('ipwb__frogTest.warc',1747)],
  "the same 2017-01-04 capture of matkelly.com/frogsLeft ('About 25 frogs left until the JCDL 2017 full paper deadline.') in two test files"),
 ([('node-warc__parseMe.warc',4687),('node-warc__parseMe.warc.gz',1956)],
  "the same 2017-07-16 capture of stringjs.com (same record ID) in the plain and the gzipped copy of one file; identical text"),
 ([('pywb__example-extra.warc',0),('webrecorder__example.com.gz.warc',824),('mcp-server-webcrawl__example.warc.gz',818),('py-wacz__example-iana.warc',279),
   ('scoop-c560927__example.com.warc.gz',0,1195),('scoop-c560927__example.com.warc.gz',0,35445),('scoop__example-https.warc',1289),('scoop__example-https.warc',35535),('scoop-eaaf7ad__example.com.warc.gz',0,1269)],
  "example.com captured by seven crawls (2014, 2018, 2021, three Scoop browser captures of 2023, 2025), with the browser-rendered DOM snapshot beside two of the Scoop captures: 2014 and 2018 identical, 2021-2025 identical; the newer wording rewords two phrases ('is for use in', 'in literature'), 89%/83% of words shared in order (natural edit)"),
 ([('scoop-c560927__example.com.warc.gz',0,83385),('scoop__example-https.warc',83477)],
  "Scoop provenance summaries of two captures of example.com (2023-01-06 http, 2023-01-27 https): same report text, only the URL scheme and one tmpFolderPath line differ (97%/99.6% of words shared in order)"),
 ([('wabac.js-fd13451__embed-test.warc',0),('wabac.js-ab4c886__embed-test.warc',3316)],
  "the archival-embed page of one tweet (webrecorder_io status 1192184193347796992) captured 2019-11-24 and 2019-11-27; identical tweet text"),
 ([('wabac.js-fd13451__embed-test.warc',31739),('wabac.js-ab4c886__embed-test.warc',35084)],
  "Twitter widget iframe (two builds, different hash in the URL) captured 2019-11-24 and 2019-11-27: no main content, visible text (title 'Twitter Widget Iframe') byte-identical"),
 ([('wabac.js-fd13451__embed-test.warc',136543),('wabac.js-fd13451__embed-test.warc',139704),('wabac.js-ab4c886__embed-test.warc',140144),('wabac.js-ab4c886__embed-test.warc',143281)],
  "platform.twitter.com/jot.html fetched twice in each of two captures: no main content, visible text (title 'Twitter Widget Log Helper') byte-identical"),
 ([('wabac.js-fd13451__embed-test.warc',143258),('wabac.js-ab4c886__embed-test.warc',295647)],
  "the same twitter video-player URL in the two captures: app shell with no visible text at all in either (byte-identical empty text)"),
]
cid={}; note={}
order=sorted(pages,key=lambda k:(os.path.basename(k[0]),k[1],k[2]))
firsts=sorted(range(len(CL)),key=lambda i:min(idx[m] and (os.path.basename(idx[m][0]),idx[m][1],idx[m][2]) for m in CL[i][0]))
gname={g:'r%04d'%(j+1) for j,g in enumerate(firsts)}
grp={}
for i,(ms,n) in enumerate(CL):
    for m in ms: grp[idx[m]]=i; note[idx[m]]=n
sn=0
for k in order:
    if k in grp: cid[k]=gname[grp[k]]
    else: sn+=1; cid[k]='s-%d'%sn
def kind(k):
    u=pages[k]['uri']
    if u.startswith('metadata://'): return 'wgetmeta'
    if 'twitter.com' in u: return 'twitter'
    return 'page'
rows=[]
for o in out:
    a,b=o['a'],o['b']
    if a==b: continue  # a drop resolved to the page itself (record IDs repeat across the re-encoded copies)
    if cid[a]==cid[b] and cid[a].startswith('r'): v='dup'; r=note[a]
    else:
        v='different'; ka,kb=kind(a),kind(b); ua,ub=pages[a]['uri'],pages[b]['uri']
        if ka=='wgetmeta' and kb=='wgetmeta':
            if ua==ub: r='%s of two different wget runs (%s vs %s): different arguments/URLs/dates, different text'%(ua.split('/')[-1],pages[a]['date'][:10],pages[b]['date'][:10])
            else: r='wget_arguments.txt vs wget.log: different metadata records'
        elif ka=='twitter' and kb=='twitter':
            r='different Twitter helper pages without main content (iframe / log helper / video player); visible text (title) differs, only the empty body is shared'
        elif 'provenance-summary' in ua+ub:
            r='Scoop provenance summary (a capture report) vs the captured page / its DOM snapshot: different documents'
        elif 'iana.org' in ua and 'iana.org' in ub:
            r='different iana.org pages (%s vs %s) on one site template; shared text is navigation and footer'%(ua.split('iana.org')[1] or '/',ub.split('iana.org')[1] or '/')
        else: r='different pages'
    jac=o['jac']
    if jac is None and any(s.startswith('drop-def') for s in o['src']): jac=1
    rows.append((pages[a]['file'],a[1],pages[b]['file'],b[1],v,'' if jac is None else ('%.3f'%jac if jac<1 else '1'),'%.3f'%o['sh5'],r,a[2],b[2],','.join(o['src'])))
for ms,n in CL:
    for x,y in itertools.combinations(ms,2):
        a,b=sorted([idx[x],idx[y]])
        assert any(r[0]==pages[a]['file'] and r[1]==a[1] and r[2]==pages[b]['file'] and r[3]==b[1] and r[4]=='dup' for r in rows),(x,y)
with open(OUT+'/judged_pairs.tsv','w') as f:
    f.write('file_a\toffset_a\tfile_b\toffset_b\tverdict\tjaccard_job\tshingle5\treason\tinner_offset_a\tinner_offset_b\tfound_by\n')
    for r in rows: f.write('\t'.join(map(str,r))+'\n')
with open(OUT+'/truth.tsv','w') as f:
    f.write('file\toffset\tinner_offset\trecord_id\turi\tcluster\tnote\n')
    for k in order:
        p=pages[k]; f.write('\t'.join(map(str,[p['file'],k[1],k[2],p['record_id'],p['uri'],cid[k],note.get(k,'')]))+'\n')
cs=Counter(cid.values()); multi={c:n for c,n in cs.items() if c.startswith('r')}
print('pages',len(pages),'clusters',len(cs),'multi',sorted(Counter(multi.values()).items()),'dup pairs',sum(n*(n-1)//2 for n in multi.values()),'possible drops',sum(n-1 for n in multi.values()),'judged',len(rows),'dup judged',sum(r[4]=='dup' for r in rows))
for r in rows:
    if r[4]=='different': print(r[0][:30],r[1],r[2][:30],r[3],r[7][:90],r[10])
