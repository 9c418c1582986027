import os, json,glob,sys,re
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..'))  # warclist: eval/realsets/warclist.py
from warclist import records
import importlib.util
spec=importlib.util.spec_from_file_location('ex','/tmp/label-recaptures/tools/extract_lib.py'); ex=importlib.util.module_from_spec(spec); spec.loader.exec_module(ex)
out=sys.argv[1]
dec=[json.loads(l) for f in glob.glob(out+'/decisions-*.jsonl') for l in open(f)]
want={(d['file'],d['offset'],d['inner_offset']):d for d in dec}
pages={}
for fn in sorted({d['file'] for d in dec}):
    for off,inner,h,body in records(fn):
        k=(fn,off,inner)
        if k in want:
            if h.get('warc-type')=='resource':
                txt=body.decode('utf-8','replace'); t=''; lines=[re.sub(r'\s+',' ',l).strip() for l in txt.split('\n')]; lines=[l for l in lines if l]
            else:
                if b'\r\n\r\n' not in body[:4000] and b'\r\n\n' in body[:4000]:
                    i=body.index(b'\r\n\n'); body=body[:i]+b'\r\n\r\n'+body[i+3:]
                t,lines=ex.page_text(body)
            d=want[k]
            pages[k]=dict(file=fn.split('/')[-1],offset=off,inner_offset=inner,record_id=d['record_id'],uri=d['uri'],date=h.get('warc-date',''),title=t,lines=lines,keep=d['keep'],kept_by=d.get('kept_by'))
import pickle; pickle.dump(pages,open(sys.argv[2],'wb'))
for k,p in sorted(pages.items()):
    print('##',p['file'][-40:],p['offset'],p['date'],p['uri'][:80],'keep' if p['keep'] else 'DROP', '|',p['title'][:60],'|',len(p['lines']),'lines |',' / '.join(p['lines'])[:300])
