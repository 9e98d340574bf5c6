#!/usr/bin/env python3
"""Loops sampled against blocks sampled alone (issue 30): each launch of
gpu/outside/launches.list named on the command line, run with --sample 16 by
this tree's build/coalsim (blocks and loops) and by OLD (a build from before
loops were sampled, e.g. a worktree of 0b956c9, with its own profile): the
same blocks run, so any difference is the loops'.

  usage: python3 bench/loop_compare.py [--sass [DIR]] OLD_COALSIM OLD_PROFILE NAME[,NAME..]
--sass runs each launch's SASS listing (DIR/UNIT.nvdisasm, default the H100's
gpu/results/h100/outside/sass) with its .cu as --ptx: the SASS interpreter's
loops (sass_loop.c) instead of the PTX interpreter's.
Run from the repository root after `make`.  Nothing here needs a GPU.
"""
import json
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gpu", "outside"))
from compare import unit_of  # noqa: E402

METRICS = ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
           "smsp__inst_executed.sum")


def run(binary, args, profile):
    cmd = [binary, "--json", "--hier", "--profile", profile, "--sample", "16"] + args
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("%s: %s" % (" ".join(cmd), p.stderr.strip()))
    d = json.loads(p.stdout)
    h = d["hierarchy"]
    return d, h["time"]["total_us"], [d.get("metrics", {}).get(m) for m in METRICS], h.get("dram_read_bytes", 0), \
        h.get("dram_write_bytes", 0), h.get("dirty_bytes_left", 0)


def main():
    argv, sass = sys.argv[1:], None
    if argv and argv[0] == "--sass":
        argv = argv[1:]
        sass = "gpu/results/h100/outside/sass"
        if len(argv) == 4:
            sass, argv = argv[0], argv[1:]
    if len(argv) != 3:
        sys.exit(__doc__)
    old, old_profile, names = argv[0], argv[1], argv[2].split(",")
    rows = {}
    for line in open("gpu/outside/launches.list"):
        if line.strip() and not line.startswith("#"):
            f = shlex.split(line)
            rows[f[0]] = f[2:]
            if sass:
                rows[f[0]] = [os.path.join(sass, unit_of(f[2], f[3:]) + ".nvdisasm"), "--ptx"] + f[2:]
    print("| launch | warp iterations jumped | time us, blocks / loops too | sectors, instructions | DRAM read | DRAM write | dirty left |")
    print("|---|---:|---|---|---:|---:|---|")
    for n in names:
        if n not in rows:
            sys.exit("%s: not in gpu/outside/launches.list" % n)
        _, ta, ma, ra, wa, da = run(old, rows[n], old_profile)
        d, tb, mb, rb, wb, db = run("build/coalsim", rows[n], "gpu/profiles/h100.txt")
        loops = (d.get("sample") or {}).get("loops") or {}
        pct = lambda a, b: "%+.1f%%" % (100 * (b / a - 1)) if a else ("=" if a == b else "%s -> %s" % (a, b))
        print("| %s | %s | %.2f / %.2f (%s) | %s | %s | %s | %s -> %s |" % (
            n, loops.get("iterations", 0), ta, tb, pct(ta, tb), "equal" if ma == mb else "%s -> %s" % (ma, mb),
            pct(ra, rb), pct(wa, wb), da, db))


if __name__ == "__main__":
    main()
