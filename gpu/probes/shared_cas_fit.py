#!/usr/bin/env python3
"""The passes of gpu/probes/shared_cas.cu's cases against two rules for the warps' retries: linear (a part R of
a pass for each other add to the word) and saturating (a pass wins 1 in e^x, x e^x = R c, c the other adds a
lane's add): the mean and largest error over the cases of 2 or more warps for several R, then each case at
the R given.  The intra-warp passes are the most lanes a bank has in a phase (32 lanes, 16 for doubles).
sim/frontend/ptx/ptx_ops_mem.c (spin_plan) uses the saturating rule, R = 0.75 (PTX_CAS_WINDOW).
  usage: python3 gpu/probes/shared_cas_fit.py [lin|poi] [R] [TABLE]"""
import math, random, sys, re
rows = []
for l in open(sys.argv[3] if len(sys.argv) > 3 else 'gpu/probes/runs/h100-shared-cas/table.txt'):
    f = l.split()
    if len(f) < 5 or f[0] not in ('float', 'double') or not f[3].isdigit(): continue
    t, pat, k, it, atom = f[0], f[1], int(f[2]), int(f[3]), float(f[4])
    rows.append((t, pat, k, it, atom))
def lambertw(z):
    w = math.log1p(z)
    for _ in range(50): w -= (w * math.exp(w) - z) / (math.exp(w) + w * math.exp(w))
    return w
random.seed(1)
def words(pat, k):
    # per warp: dict word -> lanes
    out = []
    for wi in range(k):
        d = {}
        ll = []
        for l in range(32):
            w = {'one': 0, 'lane': l, 'quad': l // 4, 'warpown': 1000 + wi, 'none': wi * 32 + l, 'rand': random.randrange(256)}[pat]
            d[w] = d.get(w, 0) + 1
            ll.append((l, w))
        out.append((d, ll))
    return out
def bankmax(d_lanes, dbl):
    # d_lanes: list of (lane, word)
    best = 0
    groups = [range(0, 16), range(16, 32)] if dbl else [range(32)]
    for g in groups:
        cnt = {}
        for l, w in d_lanes:
            if l in g:
                b = (w % 16) if dbl else (w % 32)
                cnt[b] = cnt.get(b, 0) + 1
        best = max(best, max(cnt.values()) if cnt else 0)
    return best
def predict(pat, k, model, r, dbl=False):
    tot = 0; n = 0
    for rep in range(20 if pat == 'rand' else 1):
        ws = words(pat, k)
        U = {}
        for d, ll in ws:
            for w, u in d.items(): U[w] = U.get(w, 0) + u
        for d, ll in ws:
            best = 0
            for w, u in d.items():
                O = U[w] - u
                if model == 'lin': e = r * O
                else:
                    c = O / u
                    e = u * (math.exp(lambertw(c * r)) - 1) if c > 0 else 0
                best = max(best, e)
            tot += best + max(bankmax(ll, dbl), max(d.values())); n += 1
    return tot / n
for model in ('lin', 'poi'):
    for r in ([0.25, 0.3, 0.33, 0.35, 0.4, 0.45] if model == 'lin' else [0.6, 0.7, 0.8, 0.9, 1.0]):
        errs = []
        for t, pat, k, it, atom in rows:
            if pat in ('warpown', 'none'): continue
            p = predict(pat, k, model, r, t == 'double')
            errs.append(abs(p / atom - 1))
        print(model, r, 'mean %.1f%% max %.1f%%' % (100 * sum(errs) / len(errs), 100 * max(errs)))
r = float(sys.argv[2]) if len(sys.argv) > 2 else 0.9
model = sys.argv[1] if len(sys.argv) > 1 else 'poi'
for t, pat, k, it, atom in rows:
    if pat in ('warpown', 'none'): continue
    print('%-6s %-5s %2d %d meas %7.2f  pred %7.2f  %.2f' % (t, pat, k, it, atom, predict(pat, k, model, r, t == 'double'), predict(pat, k, model, r, t == 'double') / atom))
