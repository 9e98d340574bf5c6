"""ncu's CSVs of one launch a process (ncu --csv --page raw --log-file F), joined into one CSV.

run_device.sh's two stages use it from Python (sys.path has this folder):

    import ncu_join
    rows, head = ncu_join.join([("W/ncu_2.csv", {"harness_kernel": "2"}), ...], "OUT/ncu.csv", units=False)

Each file's kernel rows (its lines after ncu's "==" messages, from the "ID" header on) get the
given columns first; the header is the union of the files' columns, in the order first seen.
With UNITS, the second line is ncu's units row (the files' units, merged).  A file that is
missing or has no header adds nothing.
"""
import csv


def read(path):
    """(header, units, rows as dicts) of one ncu --csv --page raw file; ([], [], []) if none"""
    try:
        lines = [l for l in open(path, errors="replace") if not l.startswith("==")]
    except OSError:
        return [], [], []
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        return [], [], []
    r = list(csv.reader(lines[start:]))
    head, units = r[0], r[1] if len(r) > 1 else []
    return head, units, [dict(zip(head, row)) for row in r[2:] if row and row[0].isdigit()]


def join(items, dest, units=False):
    """items: (path, extra columns); writes DEST; returns (rows, header)"""
    head, rows, unit = [], [], {}
    for path, extra in items:
        h, u, rs = read(path)
        if not h:
            continue
        unit.update(zip(h, u))
        for x in list(extra) + h:
            if x not in head:
                head.append(x)
        rows += [dict(r, **extra) for r in rs]
    with open(dest, "w", newline="") as f:
        cw = csv.writer(f)
        cw.writerow(head)
        if units:
            cw.writerow([unit.get(x, "") for x in head])
        for d in rows:
            cw.writerow([d.get(x, "") for x in head])
    return rows, head
