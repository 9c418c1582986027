import json, sys, os, re, zlib, gzip, html, itertools, pickle
from html.parser import HTMLParser
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../realsets'))  # warclist: eval/realsets/warclist.py
from warclist import records

BLOCK = set('p div br li ul ol h1 h2 h3 h4 h5 h6 tr td th table section article header footer nav aside blockquote pre dt dd dl form option title hr main figure figcaption label select button'.split())
SKIP = set('script style noscript template svg'.split())
class P(HTMLParser):
    def __init__(s):
        super().__init__(convert_charrefs=True); s.out=[]; s.skip=0; s.title=''; s.intitle=False
    def handle_starttag(s, t, a):
        if t in SKIP: s.skip+=1
        if t=='title': s.intitle=True
        if t in BLOCK: s.out.append('\n')
    def handle_endtag(s, t):
        if t in SKIP and s.skip: s.skip-=1
        if t=='title': s.intitle=False
        if t in BLOCK: s.out.append('\n')
    def handle_data(s, d):
        if s.skip: return
        if s.intitle: s.title+=d; return
        s.out.append(d)
def dechunk(b):
    out=b''; i=0
    try:
        while True:
            j=b.index(b'\r\n',i); n=int(b[i:j].split(b';')[0].strip(),16)
            if n==0: break
            out+=b[j+2:j+2+n]; i=j+2+n+2
        return out
    except Exception: return out or b
def page_text(body):
    hb, _, pl = body.partition(b'\r\n\r\n')
    if not _:
        hb, _, pl = body.partition(b'\n\n')
    hdr = hb.decode('latin1').lower()
    if 'transfer-encoding: chunked' in hdr: pl = dechunk(pl)
    if 'content-encoding: gzip' in hdr:
        try: pl = zlib.decompress(pl, 31)
        except Exception: pass
    m = re.search(r'charset=["\']?([\w-]+)', hdr) or re.search(rb'charset=["\']?([\w-]+)', pl[:3000])
    cs = m.group(1) if m else 'utf-8'
    if isinstance(cs, bytes): cs = cs.decode()
    try: t = pl.decode(cs, 'replace')
    except LookupError: t = pl.decode('utf-8', 'replace')
    p = P(); p.feed(t); p.close()
    lines = [re.sub(r'\s+', ' ', l).strip() for l in ''.join(p.out).split('\n')]
    lines = [l for l in lines if l]
    title = re.sub(r'\s+', ' ', p.title).strip()
    return title, lines

dec = [json.loads(l) for l in open(sys.argv[1])]
want = {(d['file'], d['offset'], d['inner_offset']): d for d in dec}
pages = {}
for fn in sorted({d['file'] for d in dec}):
    for off, inner, h, body in records(fn):
        k = (fn, off, inner)
        if k in want:
            title, lines = page_text(body)
            d = want[k]
            pages[k] = dict(file=os.path.basename(fn), offset=off, inner_offset=inner, record_id=d['record_id'], uri=d['uri'], date=h.get('warc-date',''), title=title, lines=lines, keep=d['keep'])
print(len(pages), 'of', len(want))
pickle.dump(pages, open('/work/realpages-work/pages.pkl', 'wb'))
