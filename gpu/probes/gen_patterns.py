#!/usr/bin/env python3
"""Generate the single-instruction probe patterns (gpu/probes/patterns.txt).

Each pattern is one warp-wide memory instruction (ld/st, global/shared,
1/2/4/8/16 bytes) at per-lane byte offsets chosen here.  probe.cu executes
every pattern as its own kernel launch so that Nsight Compute's counters
(sectors, requests, wavefronts) belong to exactly that instruction.

Line format (whitespace separated):
    NAME SPACE OP SIZE WARPS WSTRIDE REPEAT o0 o1 ... o31
  oN      byte offset of lane N from the buffer base, or '-' (lane inactive)
  WARPS   the block runs the pattern in this many warps; warp w adds
          w*WSTRIDE to every offset
  REPEAT  the probe launches the pattern this many times (to see noise)

Deterministic: the random patterns use a fixed seed.
"""
import random
import sys

SIZES = (1, 2, 4, 8, 16)
SHARED_LIMIT = 48 * 1024
GLOBAL_LIMIT = 16 * 1024 * 1024


def families(space, size, rng):
    """Yield (family, offsets) with offsets a list of 32 ints or None."""
    s = size
    lanes = range(32)
    yield "unit", [l * s for l in lanes]
    yield "reverse", [(31 - l) * s for l in lanes]
    yield "xor1", [(l ^ 1) * s for l in lanes]
    yield "xor5", [(l ^ 5) * s for l in lanes]
    yield "bcast0", [0] * 32
    yield "bcast4k", [4096] * 32
    # misalignment against 32-byte sectors / 128-byte rows
    for k in (4, 32, 64):
        if k % s == 0:
            yield f"offset{k}", [l * s + k for l in lanes]
    if s < 4:
        yield "offset1elem", [(l + 1) * s for l in lanes]
    for m in (2, 3, 4, 8, 16, 32, 33):
        yield f"stride{m}", [l * s * m for l in lanes]
    if space == "global":
        for b in (128, 256, 4096, 65536):
            if b > s * 32:
                yield f"bytestride{b}", [l * b for l in lanes]
        yield "twolines", [(l % 16) * s + (l // 16) * 4096 for l in lanes]
        yield "sector_sharing", [(l // 4) * 32 + (l % 4) * s for l in lanes]
    # lanes sharing addresses / words
    for g in (2, 4, 8, 16):
        yield f"group{g}", [(l // g) * s for l in lanes]      # runs of g lanes share
    for m in (2, 4, 8, 16):
        yield f"mod{m}", [(l % m) * s for l in lanes]         # lane i == lane i+m
    yield "pairs_xor2", [((l & ~2) ) * s for l in lanes]      # T(n) == T(n^2)
    yield "halves_same", [(l % 16) * s for l in lanes]
    yield "halves_far", [(l % 16) * s + (l // 16) * 1024 for l in lanes]
    yield "halves_swap", [((l + 16) % 32) * s for l in lanes]
    yield "quarter_bcast", [(l // 8) * 128 for l in lanes]
    yield "two_addrs_samebank", [(l % 2) * 128 for l in lanes]
    # inactive lanes
    yield "even_only", [l * s if l % 2 == 0 else None for l in lanes]
    yield "odd_only", [l * s if l % 2 else None for l in lanes]
    yield "first_half", [l * s if l < 16 else None for l in lanes]
    yield "second_half", [l * s if l >= 16 else None for l in lanes]
    yield "lane0_only", [0 if l == 0 else None for l in lanes]
    yield "lanes0_31", [l * s * 32 if l in (0, 31) else None for l in lanes]
    yield "stride32_even", [l * s * 32 if l % 2 == 0 else None for l in lanes]
    # 2-D tiles of SIZE-byte elements: rows of 32 (+pad) elements
    for pad in (0, 1, 2, 4):
        yield f"col32_pad{pad}", [l * (32 + pad) * s for l in lanes]
    for pad in (0, 1, 2):
        # 16x32 tile (row = lane%16, col = lane/16): the seed's rectangular column read
        yield f"rect16x32_col_pad{pad}", [((l % 16) * (32 + pad) + l // 16) * s for l in lanes]
    for c in (0, 5):
        yield f"col32_swizzle_c{c}", [(l * 32 + (c ^ l)) * s for l in lanes]
    # 16x16 float-like transpose tile read by column (seed transposeSmem)
    yield "tile16_col", [((l % 16) * 16 + l // 16) * s for l in lanes]
    yield "tile16_col_pad1", [((l % 16) * 17 + l // 16) * s for l in lanes]
    # random addresses
    limit = SHARED_LIMIT if space == "shared" else GLOBAL_LIMIT
    for rng_range in (256, 1024, 8192, 32768):
        r = min(rng_range, limit)
        yield f"rand{rng_range}", [rng.randrange(0, r // s) * s for _ in lanes]
    yield "rand_dups", [rng.choice((0, 64, 128, 136, 512, 1040)) // s * s for _ in lanes]
    yield "rand_masked", [rng.randrange(0, 2048 // s) * s if rng.random() < 0.6 else None
                          for _ in lanes]


def compact(keys):
    """Map each lane's key to its rank among the distinct keys (None stays None)."""
    order = sorted({k for k in keys if k is not None})
    return [None if k is None else order.index(k) for k in keys]


def pairing_families(size):
    """Second round ('_pq_' in the name): how 8- and 16-byte shared accesses
    pair lanes.  The first round showed that a load whose lanes satisfy
    addr[n] == addr[n^1] (or n^2) for all n is served twice as many lanes per
    wavefront; these patterns ask what happens with inactive partners, mixed
    pairings, other xor distances and per-half conflicts."""
    s = size
    lanes = range(32)
    yield "even_packed", [(l // 2) * s if l % 2 == 0 else None for l in lanes]
    yield "odd_packed", [(l // 2) * s if l % 2 else None for l in lanes]
    yield "group2_no_lane3mod4", [(l // 2) * s if l % 4 != 3 else None for l in lanes]
    yield "group2_break31", [(l // 2) * s if l != 31 else 4096 for l in lanes]
    yield "group2_lane31_off", [(l // 2) * s if l != 31 else None for l in lanes]
    yield "mixed_xor1_xor2", [((l // 2) if l < 16 else (8 + (l & 1) + 2 * ((l - 16) // 4))) * s
                              for l in lanes]
    for x in (4, 8, 16):
        yield f"pairs_xor{x}_compact", [k * s for k in compact([l & ~x for l in lanes])]
    # pairs share addresses; a 2-way conflict in each half, on different banks:
    # one full-warp pass costs 2, two half-warp passes 4
    pair_addr = [0, 8, 16, 24, 128, 40, 48, 56, 64, 72, 80, 88, 192, 104, 112, 120]
    yield "pairs_xor1_halfconflict", [pair_addr[l // 2] * s // 8 for l in lanes]
    yield "group2_far", [(l // 2) * s * 8 for l in lanes]
    yield "group4_far", [(l // 4) * s * 16 for l in lanes]
    yield "group2_quarter_only", [(l // 2) * s if l < 8 else None for l in lanes]
    yield "xor2_compact_masked", [k * s if l % 3 else None for l, k in zip(lanes, compact([l & ~2 for l in lanes]))]


def main(out):
    rng = random.Random(20261122)
    rows = []
    for space in ("global", "shared"):
        for op in ("ld", "st"):
            for size in SIZES:
                seen = set()
                for fam, offs in families(space, size, rng):
                    if all(o is None for o in offs):
                        continue
                    key = tuple(offs)
                    if key in seen:          # drop exact duplicates within a combo
                        continue
                    seen.add(key)
                    limit = SHARED_LIMIT if space == "shared" else GLOBAL_LIMIT
                    assert all(o is None or (0 <= o < limit and o % size == 0) for o in offs), fam
                    name = f"{space[0]}{op}{size}_{fam}"
                    rows.append((name, space, op, size, 1, 0, 1, offs))
    # many warps at once: the seed's 32x32 tile stored and loaded row- and
    # column-wise by a whole 1024-thread block, repeated to show run-to-run noise
    for op in ("ld", "st"):
        rows.append((f"s{op}4_block32_row", "shared", op, 4, 32, 128, 3,
                     [l * 4 for l in range(32)]))
        rows.append((f"s{op}4_block32_col", "shared", op, 4, 32, 4, 3,
                     [l * 128 for l in range(32)]))
        rows.append((f"s{op}4_block32_colpad", "shared", op, 4, 32, 4, 3,
                     [l * 132 for l in range(32)]))
        rows.append((f"s{op}16_block8_unit", "shared", op, 16, 8, 512, 3,
                     [l * 16 for l in range(32)]))
        rows.append((f"g{op}4_block32_row", "global", op, 4, 32, 128, 3,
                     [l * 4 for l in range(32)]))
    for space_op in ("ld", "st"):
        for size in (4, 8, 16):
            for fam, offs in pairing_families(size):
                assert all(o is None or (0 <= o < SHARED_LIMIT and o % size == 0) for o in offs), fam
                rows.append((f"s{space_op}{size}_pq_{fam}", "shared", space_op, size, 1, 0, 1, offs))
    with open(out, "w") as f:
        f.write("# coalsim probe patterns, generated by gpu/probes/gen_patterns.py; do not edit\n")
        f.write("# NAME SPACE OP SIZE WARPS WSTRIDE REPEAT o0..o31 ('-' = inactive lane)\n")
        for name, space, op, size, warps, wstride, rep, offs in rows:
            o = " ".join("-" if x is None else str(x) for x in offs)
            f.write(f"{name} {space} {op} {size} {warps} {wstride} {rep} {o}\n")
    print(f"{len(rows)} patterns -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "gpu/probes/patterns.txt")
