import pickle,re,itertools
pages,out=pickle.load(open('cands.pkl','rb'))
E={}
for k,p in pages.items():
    if 'bitch' not in p['uri']: continue
    L=p['lines']; E[k]=[L[i-2]+' | '+L[i] for i in range(2,len(L)) if L[i].startswith('post by ')]
pickle.dump(E,open('ents.pkl','wb'))
ks=sorted(E,key=lambda k:k[1])
for a,b in itertools.combinations(ks,2):
    A,B=set(E[a]),set(E[b]); s=A&B
    if not s: continue
    ma=len(pages[a]['M']&pages[b]['M'])
    ca=ma/len(pages[a]['M']) if pages[a]['M'] else 0; cb=ma/len(pages[b]['M']) if pages[b]['M'] else 0
    if len(s)/len(A)>=0.5 or len(s)/len(B)>=0.5 or (ca>=0.5 and cb>=0.5):
        print('%-40s %-40s ents %d/%d shared %d  main %.2f/%.2f' % (pages[a]['uri'][24:64], pages[b]['uri'][24:64], len(A),len(B),len(s),ca,cb))
