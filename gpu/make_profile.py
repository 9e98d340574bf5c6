#!/usr/bin/env python3
"""A device profile (gpu/profiles/NAME.txt) from what the harness measured.

usage: python3 gpu/make_profile.py MEMORY SM [--clock-mhz MHZ] [--other] [--note TEXT] [--pages PAGES] > gpu/profiles/NAME.txt

MEMORY: `harness profile`'s output (rates, latencies, block cost: the memory
side), copied as it is.  SM: `harness sm`'s output (the instruction side),
from which the keys the time model reads are made by these rules:

  sm_clock_mhz          measured (or --clock-mhz: a clock read elsewhere, e.g.
                        ncu's sm__cycles_elapsed.avg.per_second on that device)
  issue_per_cycle       thr_ffma: the FFMA loop is issue-bound (one FFMA a cycle a
                        sub-partition is both the FMA pipe's and the issue limit)
  pipe_fma              thr_ffma
  pipe_alu              thr_setp_selp (ISETP and SEL, both ALU)
  pipe_fmaheavy         thr_imad
  pipe_fp64             thr_dfma
  pipe_xu               thr_ex2 (MUFU.EX2)
  pipe_conv             thr_cvt (I2FP and F2I alternating)
  pipe_lsu              thr_lds (conflict-free LDS: an LSU instruction a cycle a SM)
  lat_KEY               lat_KEY for ffma iadd imad dfma ex2 hfma2 cvt shfl remu divf lds bar
                        (cvt: the pair's latency over its two instructions, as measured);
                        a latency measured as 0 (a chain the compiler removed) is left out
  smem_wavefronts_per_cycle, l1_lines_per_cycle, atomic_same_ns, l2_bytes: as measured
  atomic_sector_ns      atomic_request_ns / 4: the probe's reductions (sm_red_distinct)
                        are coalesced warp requests of 32 distinct words, 4 sectors each
  launch_b2b_us         launch_added_us: what back-to-back launches add to a kernel of
                        known length (5 to 100 us spinning); else the interval between
                        empty kernels (launch_b2b_us; the first H200 run's launch_us)

--pages PAGES: gpu/probes/dram_pages.cu's output on the device; adds
  dram_piece            ns a 64-byte fetch at stride 512 for runs of 64, 128 and 192 bytes
                        (a 256-byte piece read by 1, 2, 3 fetches) over the same for runs
                        of 256 (the whole piece), each at least 1

--other: SM was measured on another device of the same SM (the H200's for
the H100): its device-wide keys (l2_bytes) are left out.

Every key the SM file has is also kept as a comment, so the profile says
where each number came from.
"""
import sys

PIPES = [("issue_per_cycle", "thr_ffma"), ("pipe_fma", "thr_ffma"), ("pipe_alu", "thr_setp_selp"),
         ("pipe_fmaheavy", "thr_imad"), ("pipe_fp64", "thr_dfma"), ("pipe_xu", "thr_ex2"), ("pipe_conv", "thr_cvt"),
         ("pipe_lsu", "thr_lds")]
LATS = ["ffma", "iadd", "imad", "dfma", "ex2", "hfma2", "cvt", "shfl", "remu", "divf", "lds", "bar"]
COPY = ["smem_wavefronts_per_cycle", "l1_lines_per_cycle", "atomic_same_ns", "l2_bytes"]


def keys(path):
    d, order = {}, []
    for line in open(path):
        if "=" in line and not line.startswith("#"):
            k, v = (x.strip() for x in line.split("=", 1))
            d[k] = v
            order.append(k)
    return d, order


def pages_block(path):
    """The profile's lines for the DRAM page probe's output PATH."""
    ns = {}
    for line in open(path):
        f = line.split()
        if line.startswith("#") or len(f) < 7:
            continue
        ns[(int(f[0]), int(f[1]), int(f[2]))] = float(f[6])
    whole = ns[(512, 256, 0)]
    f = [max(1.0, ns[(512, run, 0)] / whole) for run in (64, 128, 192)]
    return ["# ---- DRAM pieces (gpu/make_profile.py --pages %s) ----" % path,
            "# ns a 64-byte fetch at stride 512, runs of 64, 128, 192, 256 bytes: %s" %
            " ".join("%.5f" % ns[(512, run, 0)] for run in (64, 128, 192, 256)),
            "dram_piece = %s" % " ".join("%.3f" % x for x in f)]


def main():
    args = sys.argv[1:]
    clock = note = pages = None
    other = "--other" in args
    if other:
        args.remove("--other")
    while "--clock-mhz" in args or "--note" in args or "--pages" in args:
        for opt in ("--clock-mhz", "--note", "--pages"):
            if opt in args:
                i = args.index(opt)
                if opt == "--clock-mhz":
                    clock = args[i + 1]
                elif opt == "--pages":
                    pages = args[i + 1]
                else:
                    note = args[i + 1]
                del args[i:i + 2]
    if len(args) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    mem, sm = args
    s, order = keys(sm)
    out = [line.rstrip("\n") for line in open(mem)]
    out.append("# ---- the SM's side (gpu/make_profile.py from %s) ----" % sm)
    if note:
        out.append("# " + note)
    out.append("sm_clock_mhz = %s" % (clock or s["sm_clock_mhz"]))
    for key, src in PIPES:
        if float(s.get(src, 0)) > 0:
            out.append("%s = %s" % (key, s[src]))
    for k in LATS:
        if float(s.get("lat_" + k, 0)) > 0:
            out.append("lat_%s = %s" % (k, s["lat_" + k]))
    for k in COPY:
        if k in s and not (other and k == "l2_bytes"):
            out.append("%s = %s" % (k, s[k]))
    if float(s.get("atomic_request_ns", 0)) > 0:
        out.append("atomic_sector_ns = %.6f" % (float(s["atomic_request_ns"]) / 4))
    b2b = s.get("launch_added_us", s.get("launch_b2b_us", s.get("launch_us")))
    if b2b:
        out.append("launch_b2b_us = %s" % b2b)
    line = "# measured by harness sm:"
    for k in order:
        if len(line) > 90:
            out.append(line)
            line = "#  "
        line += " %s=%s" % (k, s[k])
    out.append(line)
    if pages:
        out += pages_block(pages)
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
