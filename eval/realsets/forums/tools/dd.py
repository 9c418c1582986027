import pickle,difflib,sys
pages,out=pickle.load(open('/tmp/label-forums/cands2.pkl','rb'))
def find(fp,off): 
    r=[k for k in pages if pages[k]['file'][19:].startswith(fp) and k[1]==int(off)]; assert len(r)==1,(fp,off); return r[0]
args=sys.argv[1:]; ctx=int(args.pop(0)); mx=int(args.pop(0))
for i in range(0,len(args),4):
    A,B=pages[find(args[i],args[i+1])],pages[find(args[i+2],args[i+3])]
    print('=====',A['uri'],A['date'][:16],len(A['lines']),'|',B['uri'],B['date'][:16],len(B['lines']))
    n=0
    for l in difflib.unified_diff(A['lines'],B['lines'],n=ctx,lineterm=''):
        if l.startswith('---') or l.startswith('+++'): continue
        print('  ',l[:140]); n+=1
        if n>mx: print('   ...'); break
