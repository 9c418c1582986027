import sys, hashlib, os, collections, re
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..'))  # warclist: eval/realsets/warclist.py
from warclist import records
res=set(l.strip() for l in open('/work/shared/data/reserved.sha256') if not l.startswith('#'))
used=set()
for d in ['/work/shared/data/warc','/work/main/eval/realpages/warcs']:
    for f in os.listdir(d):
        if 'warc' in f: used.add(hashlib.sha256(open(os.path.join(d,f),'rb').read()).hexdigest())
for fn in sys.argv[1:]:
    h=hashlib.sha256(open(fn,'rb').read()).hexdigest()
    print('==',fn,os.path.getsize(fn),h,'RESERVED' if h in res else '','USED' if h in used else '')
    if h in res or h in used: continue
    hosts=collections.Counter(); n=0; ex=[]
    try:
        for off,inner,hd,body in records(fn):
            if hd.get('warc-type')!='response': continue
            hb=body[:3000].split(b'\r\n\r\n',1)[0].decode('latin1').lower()
            if 'text/html' not in hb: continue
            u=hd.get('warc-target-uri','').strip('<>'); n+=1
            hosts[re.sub(r'^https?://(www\.)?','',u).split('/')[0]]+=1; ex.append(u)
    except Exception as e: print('ERR',e)
    print(' html',n,hosts.most_common(8)); print('  ','\n   '.join(ex[:12]))
