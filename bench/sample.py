#!/usr/bin/env python3
"""Sampled launches against the H100 and against coalsim's own runs (issue 30).

For every launch of gpu/outside/fullsize.list (the outside set at full size) run
  coalsim --json --hier --sample MODE <the line's options>       (default MODE auto)
and, for its small counterpart in gpu/outside/launches.list (fs_NAME -> NAME_time,
the size the time set runs it at), the same with --sample off; print one table
row a launch: wall seconds and peak RSS of both, the full-size run's sample,
its global requests and sectors and warps launched against ncu's on the H100
(gpu/results/h100/fullsize/counters.txt), its predicted time against the
H100's cudaEvent median (times.txt), and the error the report states.

  usage: python3 bench/sample.py [--mode auto|N] [--only REGEX] [--threads N] [--full REGEX] [--sass [DIR]]
(--full: those launches also run whole at full size, the sample's time and DRAM bytes against them;
--sass: each launch (both sizes) runs its SASS listing, DIR/UNIT.nvdisasm, default the H100's
gpu/results/h100/outside/sass, with its .cu as --ptx: the SASS interpreter instead of the PTX one)
Run from the repository root after `make`.  Nothing here needs a GPU.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "gpu", "outside"))
from compare import unit_of  # noqa: E402
RES = os.path.join(ROOT, "gpu/results/h100/fullsize")
METRICS = {
    "gld_req": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "gld_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "gst_req": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "gst_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "warps": "smsp__warps_launched.sum",
}


def read_list(path, sass=None):
    out = {}
    for line in open(path):
        if not line.strip() or line.startswith("#"):
            continue
        f = shlex.split(line)
        out[f[0]] = f[2:]          # FILE and options
        if sass:
            out[f[0]] = [os.path.join(sass, unit_of(f[2], f[3:]) + ".nvdisasm"), "--ptx"] + f[2:]
    return out


def run(args, threads):
    cmd = [os.path.join(ROOT, "build/coalsim"), "--json", "--hier"]
    if threads:
        cmd += ["--threads", str(threads)]
    cmd += args
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)          # this child's own peak RSS
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - t0
    rss = ru.ru_maxrss / 1024.0
    err = b"exit %d" % p.returncode
    if p.returncode != 0:
        return None, wall, rss, err.decode(errors="replace").strip()
    return json.loads(out), wall, rss, ""


def h100():
    ctr, times = {}, {}
    for line in open(os.path.join(RES, "counters.txt")):
        if line.startswith("#"):
            continue
        f = line.split()
        if len(f) == 3:
            ctr.setdefault(f[0], {})[f[1]] = float(f[2])
    for line in open(os.path.join(RES, "times.txt")):
        f = line.split()
        if len(f) > 3 and not line.startswith("#") and f[1] == "time":
            times[f[0]] = float(f[2])
    return ctr, times


def pct(a, b):
    return 100.0 * (a - b) / b if b else (0.0 if a == b else float("inf"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="auto")
    ap.add_argument("--only", default="")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--full", default="", metavar="REGEX",
                    help="also run these launches whole at full size (slow) and compare the sample with them")
    ap.add_argument("--sass", nargs="?", const=os.path.join(ROOT, "gpu", "results", "h100", "outside", "sass"),
                    help="run the SASS listings (default the H100's) instead of the PTX")
    a = ap.parse_args()
    full = read_list(os.path.join(ROOT, "gpu/outside/fullsize.list"), a.sass)
    small = read_list(os.path.join(ROOT, "gpu/outside/launches.list"), a.sass)
    ctr, times = h100()
    print("| launch | small wall s | full wall s | ratio | full RSS MB | blocks run / all | "
          "ld req | ld sec | st req | st sec | warps | stated error (req, sec, inst) | time us | H100 us | time err |")
    print("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|")
    errs, walls, fulls = [], [], []
    for name, args in full.items():
        if a.only and not re.search(a.only, name):
            continue
        base = name[3:] + "_time"
        sw = None
        if base in small:
            _, sw, _, e = run(small[base] + ["--sample", "off"], a.threads)
        d, fw, frss, e = run(args + ["--sample", a.mode], a.threads)
        if d is None:
            print(f"| {name} | {sw or '-'} | failed: {e[:120]} |")
            continue
        m = d["metrics"]
        g = ctr.get(name, {})
        cells = []
        for k in ("gld_req", "gld_sec", "gst_req", "gst_sec", "warps"):
            ours, theirs = m.get(METRICS[k], 0), g.get(METRICS[k])
            cells.append("-" if theirs is None else ("exact" if ours == theirs else f"{pct(ours, theirs):+.2f}%"))
        s = d.get("sample")
        if s:
            ran = f"{s['run']} / {s['blocks']}"
            fig = s["figures"]
            stated = ", ".join("-" if fig[k]["error"] is None else f"{100 * fig[k]['error']:.2f}%"
                               for k in ("requests", "sectors", "instructions"))
        else:
            ran, stated = "all", "(exact)"
        t = d.get("hierarchy", {}).get("time", {}).get("total_us")
        hw = times.get(name)
        te = pct(t, hw) if t and hw else None
        if te is not None:
            errs.append(abs(te))
        ratio = fw / sw if sw else None
        if ratio:
            walls.append(ratio)
        print(f"| {name} | {sw:.2f} | {fw:.2f} | {ratio:.2f} | {frss:.0f} | {ran} | " if sw else
              f"| {name} | - | {fw:.2f} | - | {frss:.0f} | {ran} | ", end="")
        print(" | ".join(cells) + f" | {stated} | {t:.1f} | {hw if hw else '-'} | " +
              (f"{te:+.1f}%" if te is not None else "-") + " |")
        sys.stdout.flush()
        if a.full and re.search(a.full, name):
            w, ww, wrss, e = run(args + ["--sample", "off"], a.threads)
            if w is None:
                fulls.append(f"| {name} | failed: {e} |")
                continue
            hs, hw = d["hierarchy"], w["hierarchy"]
            same = sum(m.get(k) == w["metrics"].get(k) for k in METRICS.values())
            fulls.append(f"| {name} | {fw:.2f} | {ww:.2f} | {wrss:.0f} | {same}/{len(METRICS)} | "
                         f"{pct(hs['time']['total_us'], hw['time']['total_us']):+.2f}% | "
                         f"{pct(hs['dram_read_bytes'], hw['dram_read_bytes']):+.2f}% | "
                         f"{pct(hs['dram_write_bytes'], hw['dram_write_bytes']):+.2f}% |")
    if fulls:
        print("\n| launch | sampled wall s | whole wall s | whole RSS MB | counts equal | time | DRAM read | DRAM write |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        print("\n".join(fulls))
    if errs:
        errs.sort()
        print(f"\ntime: mean |error| {sum(errs) / len(errs):.1f}%, median {errs[len(errs) // 2]:.1f}%, "
              f"within 10%: {sum(e <= 10 for e in errs)}/{len(errs)}")
    if walls:
        walls.sort()
        print(f"wall, full size over small: median {walls[len(walls) // 2]:.2f}x, max {walls[-1]:.2f}x")


if __name__ == "__main__":
    main()
