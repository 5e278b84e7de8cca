"""``make bench-compare A B``: two runs of ``make bench`` side by side.

    .venv/bin/python bench/compare.py A.json B.json
    .venv/bin/python bench/run.py --compare A.json B.json

Each run writes ``bench/results.json`` (bench/run.py); copy it away to keep it. For every
row of either run (at full speed, and at 1/8 of a core for a ``--zero`` run): the median,
the ratio, the 95 % interval and the result in A and in B, and B's median / A's median;
a row whose result changed is marked ``<-``. The header gives each run's commit, start,
minutes, load average and pace.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from benchlib import _num, fmt_interval, result  # noqa: E402


def _load(path: str) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def _rows(run: dict) -> dict:
    out = {}
    for key, at in (("rows", "full"), ("zero_rows", "1/8")):
        for r in run.get(key, []):
            out[(r.get("bench", ""), r["metric"], at)] = r
    return out


def _cells(r: dict | None) -> list[str]:
    if r is None:
        return ["-", "-", "-", "-"]
    ratio = "-" if r.get("ratio") is None else f"{r['ratio']:.2f}x"
    return [_num(r.get("median"), r.get("unit", "")), ratio, fmt_interval(r), result(r)]


def compare(a_path: str, b_path: str) -> str:
    """The side-by-side text of two results files."""
    a, b = _load(a_path), _load(b_path)
    ra, rb = _rows(a), _rows(b)
    keys = list(ra) + [k for k in rb if k not in ra]
    head = ["bench", "metric", "speed", "unit", "A median", "A ratio", "A interval", "A result",
            "B median", "B ratio", "B interval", "B result", "B/A", ""]
    lines = []
    for k in keys:
        x, y = ra.get(k), rb.get(k)
        unit = (x or y).get("unit", "")
        change = "-"
        if x and y and isinstance(x.get("median"), (int, float)) and isinstance(y.get("median"), (int, float)) \
                and x["median"]:
            change = f"{y['median'] / x['median']:.2f}"
        moved = "<-" if (x is None) != (y is None) or (x and y and result(x) != result(y)) else ""
        lines.append([k[0], k[1][:70], k[2], unit] + _cells(x) + _cells(y) + [change, moved])
    widths = [max(len(str(row[i])) for row in [head] + lines) for i in range(len(head))]
    out = []
    for name, run, path in (("A", a, a_path), ("B", b, b_path)):
        c = run.get("counts", {})
        out.append(f"{name}: {path}: commit {run.get('commit')}, {run.get('started')}, {run.get('minutes')} minutes, "
                   f"args {run.get('args')}; load {run.get('load')}; pace {run.get('pace')}; "
                   f"{c.get('PASS', 0)} PASS, {c.get('FAIL', 0)} FAIL, {c.get('UNSURE', 0)} UNSURE, "
                   f"{c.get('info', 0)} info")
    out.append("")
    out.append(" | ".join(h.ljust(w) for h, w in zip(head, widths)))
    out.append("-+-".join("-" * w for w in widths))
    out += [" | ".join(str(c).ljust(w) for c, w in zip(line, widths)).rstrip() for line in lines]
    changed = sum(1 for line in lines if line[-1])
    out.append(f"\n{len(lines)} rows, {changed} with a different result (<-)")
    return "\n".join(out)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    print(compare(sys.argv[1], sys.argv[2]))
