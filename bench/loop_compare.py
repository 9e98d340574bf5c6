#!/usr/bin/env python3
"""Loops sampled against blocks sampled alone (issue 30): each launch of
gpu/outside/launches.list named on the command line, run with --sample 16 by
this tree's build/coalsim (blocks and loops) and by OLD (a build from before
loops were sampled, e.g. a worktree of 0b956c9, with its own profile): the
same blocks run, so any difference is the loops'.

  usage: python3 bench/loop_compare.py OLD_COALSIM OLD_PROFILE NAME[,NAME..]
Run from the repository root after `make`.  Nothing here needs a GPU.
"""
import json
import shlex
import subprocess
import sys

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
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    old, old_profile, names = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
    rows = {}
    for line in open("gpu/outside/launches.list"):
        if line.strip() and not line.startswith("#"):
            f = shlex.split(line)
            rows[f[0]] = f[2:]
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
