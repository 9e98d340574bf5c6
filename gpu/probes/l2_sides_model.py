"""A two-partition L2, line by line, against the H100's probes (gpu/probes/README.md: l2_rates.cu,
l2_sides.cu, l2_pairs.cu, l2_home.cu).  Not coalsim's model (sim/model/hier.c keeps one LRU cache):
the rule the probes found, tried on their own access orders before it goes into C.

Each of 132 SMs is on one of two sides (66 each, at random: the map is the chip's); each line has a
home side (at random: the address's hash).  A read looks in its SM's partition, then in the other
(a far hit, copied to the reader's side), else comes from DRAM into its home and is copied to the
reader's side.  Each partition is PART MiB, 16-way; a full set lets a line go by POLICY:
lru, random, lru_copyfirst, random_copyfirst (copies of other homes' lines first), or mix:Q
(least recently used with probability Q, else one at random).  The orders: `read` (a sweep, each
line read by the next warp round by round, 64 warps a SM, 4 lines a warp in flight), `own` (each
warp the same lines every pass), `A` (only one side's SMs read, 32 warps a SM), `all_sides` (every
SM, 32 warps).  Prints the DRAM reads a pass after the first, as a share of the footprint.

  usage: python3 gpu/probes/l2_sides_model.py PART_MIB POLICY      (pure Python, no GPU; minutes)
"""
import random, sys
from collections import OrderedDict

class Part:
    def __init__(s, lines, ways, policy, rnd):
        s.sets = lines // ways; s.ways = ways; s.policy = policy; s.rnd = rnd
        s.d = [OrderedDict() for _ in range(s.sets)]   # line -> is_home
    def idx(s, L): return (L * 0x9E3779B1 >> 7) % s.sets
    def has(s, L):
        st = s.d[s.idx(L)]
        if L in st:
            if s.policy != 'random': st.move_to_end(L)
            return True
        return False
    def put(s, L, home):
        st = s.d[s.idx(L)]
        if L in st:
            st[L] = st[L] or home; st.move_to_end(L); return
        if len(st) >= s.ways:
            if s.policy == 'lru':
                st.popitem(last=False)
            elif s.policy == 'lru_copyfirst':
                victim = next((k for k, h in st.items() if not h), None)
                if victim is None: st.popitem(last=False)
                else: del st[victim]
            elif s.policy.startswith('mix'):
                q = float(s.policy.split(':')[1])
                if s.rnd.random() < q: st.popitem(last=False)
                else:
                    k = s.rnd.choice(list(st.keys())); del st[k]
            elif s.policy == 'random':
                k = s.rnd.choice(list(st.keys())); del st[k]
            elif s.policy == 'random_copyfirst':
                copies = [k for k, h in st.items() if not h]
                k = s.rnd.choice(copies) if copies else s.rnd.choice(list(st.keys())); del st[k]
        st[L] = home

def run(F_mib, part_mib, mode, policy, passes=8, seed=1, sms=132, warps_per_sm=64, lines_in_flight=4):
    rnd = random.Random(seed)
    n = int(F_mib * 2**20 / 128); cap = int(part_mib * 2**20 / 128)
    P = [Part(cap, 16, policy, rnd), Part(cap, 16, policy, rnd)]
    side_of_sm = [0]*66 + [1]*66; rnd.shuffle(side_of_sm)
    home = [rnd.randrange(2) for _ in range(n)]       # per line (by address hash)
    if mode in ('A', 'all_sides'):
        readers = [s for s in range(sms) if side_of_sm[s] == 0] if mode == 'A' else list(range(sms))
    else:
        readers = list(range(sms))
    W = len(readers) * warps_per_sm
    step = lines_in_flight * W
    miss = [0]*passes
    total = passes * n
    # the global order: a sweep; access k reads line k % n by warp (k mod step) // lines_in_flight-ish
    own = mode == 'own'
    if own:
        n -= n % step
        total = passes * n
    for k in range(total):
        L = k % n; p = k // n
        w = (k % step) % W                    # which warp (round-robin over warps within a round)
        sm = readers[w // warps_per_sm]
        s = side_of_sm[sm]
        if P[s].has(L): continue
        if P[1 - s].has(L):
            P[s].put(L, home[L] == s); continue
        miss[p] += 1
        P[home[L]].put(L, True)
        if s != home[L]: P[s].put(L, False)
    return [m / n for m in miss]

if __name__ == '__main__':
    part = float(sys.argv[1]); policy = sys.argv[2]
    for mode, sizes in (('read', (24, 32, 40, 48)), ('own', (32, 40, 48)), ('A', (24, 36, 44, 48)), ('all_sides', (24, 36, 44, 48))):
        out = []
        for F in sizes:
            r = run(F, part, mode, policy, warps_per_sm=64 if mode in ('read', 'own') else 32)
            out.append('%d:%.1f' % (F, 100 * sum(r[1:]) / len(r[1:])))
        print(mode, ' '.join(out))
