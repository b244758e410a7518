#!/usr/bin/python3
"""Plot of the standard benchmark matrix (carom-bench --matrix).

Collisions per second against N (log x; left: per second of wall clock,
right: per second of the process's CPU time), one line per dimension x
dispersity at the standard packing (3D 0.45, 2D 0.6, solid) and the same at
the lower packing (3D 0.3, 2D 0.4, dashed). The fastest known event-driven
code's figures (3D, 0.45, monodisperse, from ../shared/REFERENCE.md) are
shown for comparison.

usage: /usr/bin/python3 bench/plot.py [bench/results/matrix.json] [docs/benchmarks.png]
       /usr/bin/python3 bench/plot.py --table [bench/results/matrix.json]
           (prints the matrix as the markdown table of docs/benchmarks.md)
needs: Debian's python3-matplotlib (the python3 of /usr/bin) for the plot
"""
import json
import math
import os
import sys


HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
STANDARD = {3: 0.45, 2: 0.6}
COLOURS = {(3, 0): "tab:blue", (3, 1): "tab:cyan", (2, 0): "tab:red", (2, 1): "tab:orange"}
# Fastest known event-driven hard-sphere code, quiet machine, -Ofast -march=native,
# FCC start, 3D, eta = 0.45, monodisperse (REFERENCE.md).
REFERENCE = [(10976, 4.71e5), (97556, 2.97e5), (1000188, 2.19e5)]


def load(src):
    with open(src) as f:
        text = f.read()
    try:
        return json.loads(text)
    except json.JSONDecodeError:  # a matrix still running: its array is not closed yet
        return json.loads(text.rstrip().rstrip(",") + "\n]")


def sci(x):
    """1.23e+05 as 1.23·10⁵."""
    mantissa, exponent = ("%.2e" % x).split("e")
    sup = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
    return "%s·10%s" % (mantissa, str(int(exponent)).translate(sup))


def table(rows):
    print("| dim | N | packing | radii | runs | collisions/s | collisions/CPU-s | CPU share "
          "| events/s | ns/collision | bytes/sphere | peak RSS MiB | start-up s | Z "
          "| load avg |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
          "| --- |")
    for r in rows:
        packing = "%g" % r["packing"]
        if r["poly"] and abs(r.get("packing_actual", r["packing"]) - r["packing"]) > 5e-7:
            packing += " (%.5f)" % r["packing_actual"]
        print("| %d | %s | %s | %s | %d | %s | %s | %.0f%% | %s | %.0f | %.0f | %.1f | %.2f "
              "| %.3f | %.1f–%.1f |" % (
                  r["dim"], "{:,}".format(r["n"]), packing,
                  "poly 1:2" if r["poly"] else "mono", r["runs"],
                  sci(r["collisions_per_second"]), sci(r["cpu_collisions_per_second"]),
                  100 * r["cpu_share"], sci(r["events_per_second"]), r["ns_per_collision"],
                  r["bytes_per_sphere"], r["peak_rss_bytes"] / 1048576.0, r["setup_seconds"],
                  r["compressibility"], r["load_average_start"], r["load_average_end"]))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--table":
        table(load(sys.argv[2] if len(sys.argv) > 2
                   else os.path.join(HERE, "results", "matrix.json")))
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "results", "matrix.json")
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "docs", "benchmarks.png")
    rows = load(src)
    panels = [("collisions_per_second", "collisions per second (wall clock)")]
    if all("cpu_collisions_per_second" in r for r in rows):
        panels.append(("cpu_collisions_per_second", "collisions per second of CPU time"))
    fig, axes = plt.subplots(1, len(panels), figsize=(6.2 * len(panels) + 2.6, 5.2),
                             sharey=True, squeeze=False)
    ns = sorted({r["n"] for r in rows})
    for ax, (key, ylabel) in zip(axes[0], panels):
        for (dim, poly), colour in COLOURS.items():
            for standard in (True, False):
                sel = [r for r in rows if r["dim"] == dim and r["poly"] == poly
                       and (abs(r["packing"] - STANDARD[dim]) < 1e-9) == standard]
                if not sel:
                    continue
                pts = sorted((r["n"], r[key]) for r in sel)
                label = "%dD %s, packing %g" % (dim, "poly 1:2" if poly else "mono",
                                                sel[0]["packing"])
                ax.plot([p[0] for p in pts], [p[1] for p in pts], color=colour,
                        linestyle="-" if standard else "--",
                        marker="o" if standard else "s",
                        linewidth=2 if standard else 1.2,
                        markersize=5 if standard else 4, label=label)
        ax.plot([p[0] for p in REFERENCE], [p[1] for p in REFERENCE], color="black",
                linestyle=":", marker="x",
                label="fastest known code, 3D mono 0.45\n(quiet machine, -Ofast -march=native)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("N (spheres)")
        ax.set_title(ylabel, fontsize=10)
        ax.set_xticks(ns)
        ax.set_xticklabels(["$10^{%d}$" % round(math.log10(n)) for n in ns])
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("collisions per second")
    loads = [r[k] for r in rows for k in ("load_average_start", "load_average_end") if k in r]
    when = min(r.get("started_utc", "") for r in rows)[:10]
    title = "carom-bench --matrix, medians (%s" % when
    if loads:
        title += "; shared 2-core VM, load average %.1f-%.1f" % (min(loads), max(loads))
    fig.suptitle(title + ")", fontsize=11)
    axes[0][-1].legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote", out)


if __name__ == "__main__":
    main()
