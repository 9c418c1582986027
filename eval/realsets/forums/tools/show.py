import pickle,sys
from collections import Counter
pages,out=pickle.load(open('/tmp/label-forums/cands2.pkl','rb'))
def find(fp,off):
    r=[k for k in pages if pages[k]['file'][19:].startswith(fp) and k[1]==int(off)]
    assert len(r)==1,(fp,off,r); return r[0]
a=find(sys.argv[1],sys.argv[2]); b=find(sys.argv[3],sys.argv[4])
mode=sys.argv[5] if len(sys.argv)>5 else 'main2'
A,B=pages[a],pages[b]
print('A',A['uri'],A['date'],A['title']); print('B',B['uri'],B['date'],B['title'])
la,lb=A[mode],B[mode]; ca,cb=Counter(la),Counter(lb)
com=[l for l in la if l in cb]
print('lines A %d B %d common(A) %d'%(len(la),len(lb),len(com)))
n=int(sys.argv[6]) if len(sys.argv)>6 else 40
print('--- only A'); [print('  ',l[:160]) for l in [l for l in la if l not in cb][:n]]
print('--- only B'); [print('  ',l[:160]) for l in [l for l in lb if l not in ca][:n]]
print('--- common (first)'); [print('  ',l[:160]) for l in com[:15]]
