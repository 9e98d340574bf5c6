#!/usr/bin/env python3
"""One line a launch from run_stalls.sh's stalls.csv (Nsight Compute's raw page).

usage: python3 gpu/outside/stalls.py OUT/stalls.csv [OUT/launches.txt]

Columns: the launch (named from launches.txt, else the kernel), ncu's time,
the SM's active cycles, issue slots used a scheduler cycle, warps resident
and eligible a scheduler cycle, L1 and L2 sector hit rates, L1's data-pipe
wavefronts a SM cycle, DRAM/L2/L1 throughput as % of peak, then each stall
reason that takes at least 5% of a warp's cycles: cycles a warp spends in it
for each instruction issued (ncu's ..._per_issue_active ratios; their sum is
the mean cycles between a warp's issues).
"""
import csv
import sys

SHORT = {
    "long_scoreboard": "lsb", "short_scoreboard": "ssb", "barrier": "bar", "mio_throttle": "mio",
    "lg_throttle": "lg", "math_pipe_throttle": "math", "not_selected": "nsel", "selected": "sel",
    "wait": "wait", "dispatch_stall": "disp", "branch_resolving": "br", "no_instruction": "noinst",
    "drain": "drain", "membar": "membar", "tex_throttle": "tex", "misc": "misc", "sleeping": "sleep",
    "imc_miss": "imc", "gmma": "gmma",
}


def num(s):
    try:
        return float(s.replace(",", ""))
    except ValueError:
        return 0.0


def main():
    rows = list(csv.reader(open(sys.argv[1])))
    head = rows[0]
    names = []
    if len(sys.argv) > 2:
        names = [l.split()[1] for l in open(sys.argv[2]) if l.startswith("LAUNCH ")]
    data = [r for r in rows[1:] if r and r[0].isdigit()]
    col = {h: i for i, h in enumerate(head)}

    def g(r, m):
        return num(r[col[m]]) if m in col else 0.0

    print("# launch                      us  active_cyc  issue/cyc warps elig  L1hit L2hit  wf/cyc  dram%  l2%  l1%  stalls (cycles per issue)")
    for k, r in enumerate(data):
        name = names[k] if k < len(names) else r[col["Kernel Name"]][:28]
        us = g(r, "gpu__time_duration.sum") / 1e3
        cyc = g(r, "sm__cycles_active.avg")
        wf = g(r, "l1tex__data_pipe_lsu_wavefronts.sum") / 132 / max(cyc, 1)
        st = []
        for reason, short in SHORT.items():
            v = g(r, "smsp__average_warps_issue_stalled_%s_per_issue_active.ratio" % reason)
            st.append((v, short))
        total = sum(v for v, _ in st)
        shown = " ".join("%s=%.1f" % (s, v) for v, s in sorted(st, reverse=True) if total and v >= 0.05 * total)
        print("%-26s %8.1f %10.0f %8.2f %6.1f %4.2f %6.1f %5.1f %6.2f %6.1f %4.1f %4.1f  sum=%.1f %s" % (
            name, us, cyc, g(r, "smsp__issue_active.avg.per_cycle_active"),
            g(r, "smsp__warps_active.avg.per_cycle_active"), g(r, "smsp__warps_eligible.avg.per_cycle_active"),
            g(r, "l1tex__t_sector_hit_rate.pct"), g(r, "lts__t_sector_hit_rate.pct"), wf,
            g(r, "dram__throughput.avg.pct_of_peak_sustained_elapsed"),
            g(r, "lts__throughput.avg.pct_of_peak_sustained_elapsed"),
            g(r, "l1tex__throughput.avg.pct_of_peak_sustained_elapsed"), total, shown))


if __name__ == "__main__":
    main()
