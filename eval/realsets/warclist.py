import gzip, sys, zlib, io
def members(path):
    data=open(path,'rb').read()
    if data[:2]!=b'\x1f\x8b':
        # uncompressed: split on WARC/ headers sequentially
        pos=0
        while pos < len(data):
            he=data.find(b'\r\n\r\n',pos)
            if he<0: break
            hdr=data[pos:he].decode('latin1')
            cl=0
            for l in hdr.split('\r\n'):
                if l.lower().startswith('content-length:'): cl=int(l.split(':',1)[1])
            yield pos, data[pos:he+4+cl]
            if he+4+cl<=pos: break
            pos=he+4+cl
            while data[pos:pos+1] in (b'\r',b'\n'): pos+=1
        return
    pos=0; mv=memoryview(data)
    while pos < len(data):
        d=zlib.decompressobj(31); outs=[]; p=pos
        while not d.eof and p < len(data):
            chunk=mv[p:p+65536]; outs.append(d.decompress(chunk))
            if d.eof:
                p += len(chunk)-len(d.unused_data)
            else:
                p += len(chunk)
        outs.append(d.flush())
        yield pos,b''.join(outs)
        if p<=pos: break
        pos=p
def records(path):
    for off,blob in members(path):
        inner=0
        while inner < len(blob):
            he=blob.find(b'\r\n\r\n',inner)
            if he<0: break
            hdr=blob[inner:he].decode('latin1')
            h={}
            for l in hdr.split('\r\n')[1:]:
                if ':' in l:
                    k,v=l.split(':',1); h[k.strip().lower()]=v.strip()
            cl=int(h.get('content-length',0))
            body=blob[he+4:he+4+cl]
            yield off,inner,h,body
            inner=he+4+cl
            while blob[inner:inner+1] in (b'\r',b'\n'): inner+=1
if __name__=='__main__':
    for off,inner,h,body in records(sys.argv[1]):
        ct=''
        if h.get('warc-type') in ('response','resource'):
            hb=body.split(b'\r\n\r\n',1)[0][:2000].decode('latin1')
            for l in hb.split('\r\n'):
                if l.lower().startswith('content-type'): ct=l
            st=hb.split('\r\n')[0][:20]
        else: st=''
        print(off,inner,h.get('warc-type'),h.get('warc-target-uri',''),len(body),st,ct[:40])
