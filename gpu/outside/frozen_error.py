#!/usr/bin/env python3
"""The error of a frozen model's predictions (a predicted_before.txt that
l2warm_compare.py wrote before anything was measured) against the times
measured since (join.py's times.txt and counters.txt in RESULTS): the warm
model against the cudaEvent medians, the cold model against ncu's
gpu__time_duration.  No coalsim run: the predictions are the file's.
  usage: python3 gpu/outside/frozen_error.py PREDICTED_BEFORE RESULTS_DIR"""
import statistics, sys

def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    pred, res = sys.argv[1], sys.argv[2]
    warm, cold = {}, {}
    for line in open(pred):
        f = line.split()
        if not f or f[0].startswith('#') or len(f) < 6:
            continue
        try:
            warm[f[0]], cold[f[0]] = float(f[4]), float(f[5])
        except ValueError:
            continue
    ev, ncu = {}, {}
    for line in open(res + '/times.txt'):
        f = line.split()
        if len(f) > 2 and f[1] == 'time':
            ev[f[0]] = float(f[2])
    for line in open(res + '/counters.txt'):
        f = line.split()
        if len(f) == 3 and f[1] == 'gpu__time_duration.sum':
            ncu[f[0]] = float(f[2]) / 1e3
    for what, p, m in (('warm model vs events', warm, ev), ('cold model vs ncu', cold, ncu)):
        names = [n for n in p if n in m and m[n] > 0]
        if not names:
            print('%s: nothing to compare' % what)
            continue
        err = [abs(p[n] / m[n] - 1) for n in names]
        worst = max(names, key=lambda n: abs(p[n] / m[n] - 1))
        print('%-22s %d launches: mean %.1f%%, median %.1f%%, %d within 10%%, %d beyond 25%%, largest %s %.2fx' % (
            what, len(names), 100 * statistics.mean(err), 100 * statistics.median(err),
            sum(e <= 0.10 for e in err), sum(e > 0.25 for e in err), worst, p[worst] / m[worst]))

if __name__ == '__main__':
    main()
