# Independent reader for the PCL sample clouds (struct + a straight LZF port in Python), used
# once to compute the oracle values in test_real_clouds.cpp: python3 pcl_samples_oracle.py FILES...
import struct, math, sys
def lzf(data, outlen):
    out = bytearray(); i = 0
    while i < len(data):
        c = data[i]; i += 1
        if c < 32:
            out += data[i:i+c+1]; i += c+1
        else:
            l = c >> 5
            if l == 7: l += data[i]; i += 1
            ref = len(out) - ((c & 0x1f) << 8) - data[i] - 1; i += 1
            for k in range(l+2): out.append(out[ref+k])
    assert len(out) == outlen
    return bytes(out)
def read(path):
    b = open(path,'rb').read()
    pos = 0; hdr = {}
    while True:
        e = b.index(b'\n', pos); line = b[pos:e].decode().strip(); pos = e+1
        if not line or line.startswith('#'): continue
        k, *v = line.split(); hdr[k] = v
        if k == 'DATA': break
    fields = hdr['FIELDS']; sizes = list(map(int,hdr['SIZE'])); types = hdr['TYPE']
    n = int(hdr['POINTS'][0]); w=int(hdr['WIDTH'][0]); h=int(hdr['HEIGHT'][0])
    fmt = {('F',4):'f',('U',4):'I',('U',1):'B',('F',8):'d'}
    cols = {f: [] for f in fields}
    if hdr['DATA'][0] == 'ascii':
        for line in b[pos:].decode().split('\n'):
            t = line.split()
            if not t: continue
            for f, v, s, ty in zip(fields, t, sizes, types):  # F 4 values are floats
                cols[f].append(struct.unpack('<f', struct.pack('<f', float(v)))[0] if (ty, s) == ('F', 4) else float(v))
    elif hdr['DATA'][0] == 'binary':
        ps = sum(sizes)
        for i in range(n):
            off = pos + i*ps
            for f, s, t in zip(fields, sizes, types):
                cols[f].append(struct.unpack_from('<'+fmt[(t,s)], b, off)[0]); off += s
    else:
        cs, us = struct.unpack_from('<II', b, pos)
        d = lzf(b[pos+8:pos+8+cs], us); off = 0
        for f, s, t in zip(fields, sizes, types):
            cols[f] = list(struct.unpack_from('<%d%s' % (n, fmt[(t,s)]), d, off)); off += s*n
    keep = [i for i in range(n) if all(math.isfinite(cols[a][i]) for a in 'xyz')]
    print(path.split('/')[-1], 'n', n, 'w', w, 'h', h, 'kept', len(keep))
    for a in 'xyz':
        vals = [cols[a][i] for i in keep]
        print('  ', a, 'min %.17g max %.17g sum %.17g' % (min(vals), max(vals), sum(vals)))
    cf = 'rgb' if 'rgb' in cols else 'rgba' if 'rgba' in cols else None
    if cf:
        t = types[fields.index(cf)]
        def packed(v):
            return struct.unpack('<I', struct.pack('<f', v))[0] if t == 'F' else int(v)
        p = [packed(cols[cf][i]) for i in keep]
        r = sum((q >> 16) & 255 for q in p); g = sum((q >> 8) & 255 for q in p); bb = sum(q & 255 for q in p)
        print('   colour sums r %d g %d b %d; first %s' % (r, g, bb, [(p[0]>>16)&255, (p[0]>>8)&255, p[0]&255]))
    print('   first kept index', keep[0], 'point', [cols[a][keep[0]] for a in 'xyz'])
for f in sys.argv[1:]: read(f)
