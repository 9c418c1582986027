import pickle, os, itertools, re
from collections import Counter
pages,out=pickle.load(open('/tmp/label-forums/cands2.pkl','rb'))
P='webarticlecurator__'
def K(f,o):
    r=[k for k in pages if pages[k]['file']==P+f and k[1]==o]; assert len(r)==1,(f,o); return r[0]
EA='extract_article_urls_from_page.warc.gz'; NU='next_page_url.warc.gz'; NA='next_page_of_article.warc.gz'; NO='next_page_of_article_index_origo.warc.gz'
KE='extract_article_urls_from_page_kremmania_forum.warc.gz'; KA='next_page_of_article_kremmania_forum.warc.gz'; KU='next_page_url_kremmania_forum.warc.gz'
SAME="same URL captured twice on the same day for two of the project's test files: "
CL=[
 ([(EA,23106),(NU,255576)], SAME+"identical text (nnk.gov.hu coronavirus notices listing, start=40)"),
 ([(EA,147994),(NU,111566)], SAME+"identical text (semmelweis.hu tag listing, page 8)"),
 ([(EA,178662),(NU,308909)], SAME+"the search-results listing (page 2 of 31) is identical; only the randomly rotated 'Válogatás írásainkból' sidebar differs"),
 ([(EA,254039),(NU,189242)], SAME+"the search-results listing (page 31 of 31, one entry) is identical; only the rotated 'Válogatás írásainkból' sidebar differs"),
 ([(EA,315376),(NU,98487)], SAME+"identical text (nnk.gov.hu coronavirus notices listing)"),
 ([(EA,413675),(NU,290080)], SAME+"identical text (semmelweis.hu tag listing, page 3)"),
 ([(EA,432522),(NU,330124)], SAME+"identical text (blikk.hu daily archive, page 2)"),
 ([(EA,455725),(NU,353336)], SAME+"identical text (blikk.hu daily archive, page 4)"),
 ([(KE,726),(KA,721),(KU,720)], "same URL in three test files, same day: identical text (Krémmánia forum 'latest' topic list, page 0; crawler view of the Discourse forum)"),
 ([(KE,24946),(KA,24945),(KU,24943)], "same URL in three test files, same day: identical text (Krémmánia forum 'latest' topic list, page 2)"),
 ([(KE,50390),(KA,50389),(KU,50388)], "same URL in three test files, same day: identical text (Krémmánia forum 'latest' topic list, page 8)"),
 ([(KE,73048),(KA,73051),(KU,73049)], "same URL in three test files, same day: identical text (Krémmánia forum thread 'Mi sem 50+-osan születtünk', page 5)"),
 ([(KE,108061),(KA,108061),(KU,108062)], "same URL in three test files, same day: identical text (Krémmánia forum thread 'Mi sem 50+-osan születtünk', page 9)"),
 ([('extract_article_urls_from_page_kurucinfo_vadh.warc.gz',14537),('next_page_url_kurucinfo_vadh.warc.gz',147811)], "same URL captured 40 minutes apart: the 'Humor' topic listing page (4 entries) is identical; only the news ticker, one 'most read in 24h' item and the read counters of the sidebar changed"),
 ([('extract_article_urls_from_page_termvil.warc.gz',705),('next_page_url_termvil.warc.gz',691)], SAME+"identical text (termvil.hu article listing, page 1)"),
 ([('extract_article_urls_from_page_termvil.warc.gz',29993),('next_page_url_termvil.warc.gz',29976)], SAME+"identical text (termvil.hu article listing, page 2)"),
 ([('extract_article_urls_from_page_termvil.warc.gz',59989),('next_page_url_termvil.warc.gz',59970)], SAME+"identical text (termvil.hu article listing, page 16)"),
 ([('extract_article_urls_from_page_utazomajom.warc.gz',733),('next_page_url_utazomajom.warc.gz',721)], SAME+"identical text (utazomajom.hu category listing, page 1)"),
 ([('extract_article_urls_from_page_utazomajom.warc.gz',47268),('next_page_url_utazomajom.warc.gz',47248)], SAME+"identical text (utazomajom.hu category listing, page 5)"),
 ([(NA,43948),(NO,233254)], SAME+"identical text (origo.hu BMW X7 test, page 1)"),
 ([(NA,56965),(NO,246271)], SAME+"identical text (origo.hu BMW X7 test, pIdx=1)"),
 ([(NA,150659),(NO,259914)], SAME+"identical text (origo.hu article of 2019-07-09, one page)"),
 ([(NA,490917),(NO,269323)], SAME+"identical text (origo.hu article of 2019-07-09, another page)"),
 ([(NA,160041),(NO,791)], SAME+"identical text (velvet.hu article, first page)"),
 ([(NA,190442),(NO,31192)], SAME+"identical text (velvet.hu article, next page)"),
 ([(NA,246231),(NO,119362)], SAME+"identical text (divany.hu Bocuse d'Or 2017 article, page 1)"),
 ([(NA,500116),(NO,174001)], SAME+"identical text (divany.hu Bocuse d'Or 2017 article, ?p=3)"),
 ([(NA,300883),(NO,57495)], SAME+"identical text (index.hu iPhone 7 article, page 1)"),
 ([(NA,610981),(NO,90130)], SAME+"identical text (index.hu iPhone 7 article, ?p=1)"),
 ([(NA,397799),(NA,425318)], "telex.hu article and the same URL with ?oldal=2: the site ignores the parameter and serves the same article; identical text"),
 ([('next_page_of_article_news_ngvmt.warc.gz',407213),('next_page_of_article_news_ngvmt.warc.gz',654190)], "rangado.24.hu match report and its URL with /3/ (beyond the article's pages): the site serves the same first page; identical text"),
 ([('next_page_url_news_pgvmt.warc.gz',390691),('next_page_url_news_pgvmt.warc.gz',528746),('next_page_url_news_pgvmt.warc.gz',702620)], "888.hu column archives censored/page/12, 889/page/22, bulvar/page/159: the site served one and the same page of latest articles under all three URLs; only the column heading (and a 'Következő' link) differs"),
 ([(EA,163161),(NU,56553)], "budapestbeacon.com last page of the search results (page 436) and last page of the timeline (page 262): both list the same three oldest posts with the same excerpts; only the heading ('5223 results found.' vs 'Timeline'), the pager and a search form differ"),
]
grp={}; note={}
for i,(ms,n) in enumerate(CL):
    for f,o in ms:
        k=K(f,o); assert k not in grp; grp[k]=i; note[k]=n
order=sorted(pages, key=lambda k:(pages[k]['file'],k[1],k[2]))
firsts=sorted(range(len(CL)), key=lambda i: min((P+f,o) for f,o in CL[i][0]))
gname={g:'r%04d'%(j+1) for j,g in enumerate(firsts)}
cid={}; sn=0
for k in order:
    if k in grp: cid[k]=gname[grp[k]]
    else: sn+=1; cid[k]='s-%d'%sn
def O(f1,o1,f2,o2): return frozenset([K(f1,o1),K(f2,o2)])
OVR={
 O(EA,178662,EA,254039): "mosthallottam.hu search results page 2 vs page 31: different entries; the shared text is the 'latest posts' and 'Válogatás' sidebars",
 O(EA,178662,NU,189242): "mosthallottam.hu search results page 2 vs page 31: different entries; the shared text is the sidebars",
 O(NU,308909,EA,254039): "mosthallottam.hu search results page 2 vs page 31: different entries; the shared text is the sidebars",
 O(NU,308909,NU,189242): "mosthallottam.hu search results page 2 vs page 31: different entries; the shared text is the sidebars",
 O(EA,129826,NU,272126): "magyarnemzet.hu archive pages 99000 and 99643: different entries (February 2000 vs January 1999 articles); only the template is shared",
 O(NU,171946,NU,272126): "magyarnemzet.hu archive, last page 99644 (two entries) vs page 99643 (eleven other entries)",
 O(EA,129826,NU,171946): "magyarnemzet.hu archive pages 99000 and 99644: different entries",
 O('extract_article_urls_from_page_epiteszforum.warc.gz',19470,'extract_article_urls_from_page_epiteszforum.warc.gz',35568): "epiteszforum.hu archive page 486 (the last one, ten entries) vs page 487, which is past the end and lists nothing (a page without main content)",
 O('extract_article_urls_from_page_epiteszforum.warc.gz',713,'extract_article_urls_from_page_epiteszforum.warc.gz',35568): "epiteszforum.hu archive page 2 vs page 487, which is past the end and lists nothing",
 O('extract_article_urls_from_page_epiteszforum.warc.gz',713,'extract_article_urls_from_page_epiteszforum.warc.gz',19470): "epiteszforum.hu archive pages 2 and 486: different entries",
 O(NA,397799,NA,463947): "telex.hu article (2022 capture) vs its live-blog page /elo (2021 capture): the live page contains the article's text plus many more dated entries (containment one way)",
 O(NA,425318,NA,463947): "telex.hu article (?oldal=2, 2022 capture) vs its live-blog page /elo: the live page contains it plus many more entries (containment one way)",
 O(EA,43827,NU,16904): "telex.hu coronavirus section page 4 captured on 2021-01-30 and 2022-02-09: entirely different entries (the listing moved on)",
 O('extract_article_urls_from_page_news_pgvmt.warc.gz',87041,'next_page_url_news_pgvmt.warc.gz',911120): "feol.hu 'Ország-világ' page 169 captured on 2021-11-12 and 2021-11-15: the entries shifted, under 10% of the listing text shared",
 O('next_page_of_article_news_ngvmt.warc.gz',869093,'next_page_of_article_news_ngvmt.warc.gz',1008915): "alfahir.hu live report ?page=1 (lead plus a block of dated updates) vs ?page=5 (only the lead, past the last page): page 1 adds substantially more (containment one way)",
 O('next_page_of_article_news_ngvmt.warc.gz',1008915,'next_page_of_article_news_ngvmt.warc.gz',1426315): "alfahir.hu live report ?page=5 (only the lead) vs the first page (lead plus many dated updates): containment one way",
 O('next_page_of_article_news_ngvmt.warc.gz',869093,'next_page_of_article_news_ngvmt.warc.gz',1426315): "alfahir.hu live report first page vs ?page=1: the same lead, different blocks of dated updates",
 O('extract_article_urls_from_page_hataratkelo.warc.gz',757,'extract_article_urls_from_page_hataratkelo.warc.gz',19696): "hataratkelo.blog.hu blog pages 2 and 686: different posts; the shared text is the large blog sidebar",
 O('extract_article_urls_from_page_htro.warc.gz',139478,'extract_article_urls_from_page_htro.warc.gz',207019): "tv.transindex.ro two video categories: different featured video and different video lists; shared text is navigation",
 O(EA,328435,EA,398789): "nol.hu archive pages 37 and 3000: different entries; the shared text is navigation and the sidebar",
}
def host(u): return re.sub(r'^https?://(www\.)?','',u).split('/')[0]
def stem(u):
    u=re.sub(r'^https?://(www\.)?','',u); u=u.split('?')[0].rstrip('/'); u=re.sub(r'/(\d{1,3}|elo)$','',u); return u
def kind(k):
    f=pages[k]['file']
    return 'article' if 'next_page_of_article' in f and not ('kremmania' in f) else 'listing'
rows=[]; dup=0
for o in out:
    a,b=o['a'],o['b']; A,B=pages[a],pages[b]
    if cid[a]==cid[b] and cid[a].startswith('r'): v='dup'; r=note[a]
    else:
        v='different'; r=OVR.get(frozenset([a,b]))
        EMPTY={'https://lelato.transindex.ro/helyszini/4':'lelato.transindex.ro/helyszini/4 is past the last page of its section: only navigation, a pager and sidebars, no entries (a page without main content, singleton)'}
        if not r and (A['uri'] in EMPTY or B['uri'] in EMPTY):
            r=EMPTY.get(A['uri']) or EMPTY.get(B['uri'])
        if not r:
            ha,hb=host(A['uri']),host(B['uri']); ka,kb=kind(a),kind(b)
            ms='main text shared %.0f%%/%.0f%%'%(100*o['ma'],100*o['mb']) if A['mw'] and B['mw'] else 'whole visible text shared %.0f%%/%.0f%%'%(100*o['wa'],100*o['wb'])
            if o['sameurl']:
                r='same URL captured at different times (%s, %s): the content changed substantially; %s'%(A['date'][:10],B['date'][:10],ms)
            elif ha!=hb:
                r='different sites (%s, %s); shared text is at most generic navigation'%(ha,hb) if o['ma']<0.3 and o['mb']<0.3 else None
            elif ka=='listing' and kb=='listing':
                r='different listing pages of %s (different page, section or search): different entries; shared text is navigation/sidebar (%s)'%(ha,ms)
            elif ka=='article' and kb=='article':
                if stem(A['uri'])==stem(B['uri']):
                    r='different pages of one multi-page article, live report or thread on %s: different parts of the text, or one page holds only part of the other (%s)'%(ha,ms)
                else:
                    r='different articles or threads on the same template (%s); shared text is navigation/sidebar (%s)'%(ha,ms)
            else:
                r='article vs a listing page of %s that does not reproduce it; shared text is navigation/sidebar (%s)'%(ha,ms)
        assert r, (A['uri'],B['uri'],o['ma'],o['mb'])
    if v=='dup': dup+=1
    jac=o['jac']
    if jac is None and 'drop-def' in o['src']: jac=1
    rows.append((A['file'],a[1],B['file'],b[1],v,'' if jac is None else ('%.3f'%jac if jac<1 else '1'),'%.3f'%o['sh5'],r,a[2],b[2],','.join(o['src'])))
for ms,n in CL:
    for x,y in itertools.combinations(ms,2):
        kx,ky=K(*x),K(*y)
        assert any(r[4]=='dup' and {(r[0],r[1]),(r[2],r[3])}=={(pages[kx]['file'],kx[1]),(pages[ky]['file'],ky[1])} for r in rows),(x,y)
D='/work/wt-label-forums/eval/realsets/forums'
with open(D+'/judged_pairs.tsv','w') as f:
    f.write('file_a\toffset_a\tfile_b\toffset_b\tverdict\tjaccard_job\tshingle5\treason\tinner_offset_a\tinner_offset_b\tfound_by\n')
    for r in rows: f.write('\t'.join(map(str,r))+'\n')
with open(D+'/truth.tsv','w') as f:
    f.write('file\toffset\tinner_offset\trecord_id\turi\tcluster\tnote\n')
    for k in order:
        p=pages[k]; f.write('\t'.join(map(str,[p['file'],k[1],k[2],p['record_id'],p['uri'],cid[k],note.get(k,'')]))+'\n')
cs=Counter(cid.values()); multi={c:n for c,n in cs.items() if c.startswith('r')}
print('pages',len(pages),'clusters',len(cs),'multi',len(multi),Counter(multi.values()),'dup pairs',sum(n*(n-1)//2 for n in multi.values()),'possible drops',sum(n-1 for n in multi.values()),'judged',len(rows),'dup judged',dup)
print(Counter(r[7].split('(')[0].split(':')[0][:70] for r in rows if r[4]=='different').most_common(20))
