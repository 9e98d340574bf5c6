#!/usr/bin/env python3
"""gpu/probes/shared_cas.cu's cases as a table: passes (shared atomics) and loads a warp an add, instructions a warp,
wavefronts a CAS and a load, the event time and ns a pass a SM; then events against ncu's time.
  usage: python3 gpu/probes/shared_cas_table.py [RUN_DIR]   (default gpu/probes/runs/h100-shared-cas)"""
import csv, sys, collections
d = sys.argv[1] if len(sys.argv) > 1 else "gpu/probes/runs/h100-shared-cas"
cases = [l.split()[1:6] for l in open(d + '/shared_cas.txt') if l.startswith('case')]
times = {tuple(l.split()[1:5]): float(l.split()[6]) for l in open(d + '/shared_cas.txt') if l.startswith('case')}
rows = collections.defaultdict(dict)
for r in csv.reader(l for l in open(d + '/shared_cas_ncu.csv') if l.startswith('"')):
    if r[0] == 'ID': continue
    rows[int(r[0])][r[12]] = float(r[14].replace(',', '')) if r[14] else 0
print('%-6s %-7s %2s %s %8s %8s %7s %7s %7s %7s %9s' % ('type', 'pat', 'k', 'it', 'atom/w', 'ld/w', 'inst/w', 'wfA/p', 'wfL/p', 'us', 'ns/pass/SM'))
for i, c in enumerate(cases):
    t, pat, k, it, blocks = c
    m = rows[i]
    warps = 33792
    atom = m['smsp__inst_executed_op_shared_atom.sum']
    ld = m['smsp__inst_executed_op_shared_ld.sum']
    wfa = m['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum']
    wfl = m['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum']
    us = times[(t, pat, k, it)]
    print('%-6s %-7s %2s %s %8.2f %8.2f %7.1f %7.2f %7.2f %7.1f %9.2f' % (t, pat, k, it, atom / warps / int(it), ld / warps / int(it),
          m['smsp__inst_executed.sum'] / warps, wfa / max(atom, 1), wfl / max(ld, 1), us, us * 1e3 * 132 / max(atom, 1)))
print()
for i, c in enumerate(cases):
    t, pat, k, it, blocks = c
    if pat in ('one','lane') and it == '1':
        print(t, pat, k, 'event %.1f us  ncu %.1f us' % (times[(t, pat, k, it)], rows[i]['gpu__time_duration.sum'] / 1e3))
