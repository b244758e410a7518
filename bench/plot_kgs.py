#!/usr/bin/python3
"""Plots of bench/kgs.sh's results (seed 000 §4) for docs/driven-spheres.md.

usage: /usr/bin/python3 bench/plot_kgs.py [BUILD_DIR]

Reads bench/results/kgs.json and writes
  docs/kgs-fig5.png   median computing seconds per simulated second vs N
                      (Fig. 5), with the paper's point and the issue's targets;
  docs/kgs-fig6.png   events per simulated second by type vs N (Fig. 6);
  docs/kgs-field.png  the velocity-field run (§4.3): frames drawn by
                      carom render and the mean flow of the particles, from
                      BUILD_DIR/kgs-field/ (written by bench/kgs.sh); skipped
                      when BUILD_DIR is not given or holds no trajectory.
Needs matplotlib and numpy (Debian's python3-matplotlib: /usr/bin/python3).
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(REPO, "bench", "results", "kgs.json")
DOCS = os.path.join(REPO, "docs")

PAPER_N1000 = 1.372  # seed 000 §4.2, 195 MHz R10000
TARGET_N1000 = PAPER_N1000 / 300
TARGET_N1E5 = 0.2  # 5x faster than real time

TYPES = [  # key in kgs.json, label (the paper's name in parentheses)
    ("bound_collisions", "bound collisions (colliding)"),
    ("bound_resets", "bound resets (resetting)"),
    ("cell_crossings", "cell crossings (entering + leaving)"),
    ("collisions", "sphere contacts"),
    ("wall_hits", "wall hits"),
    ("invalid_events", "stale (invalid) events"),
    ("late_contacts", "late contacts"),
]


def forces(doc):
    runs = [r for r in doc["runs"] if r["scenario"] == "kgs-forces"]
    meds = sorted((m for m in doc["medians"] if m["scenario"] == "kgs-forces"),
                  key=lambda m: m["n"])
    return runs, meds


def fig5(doc):
    runs, meds = forces(doc)
    n = np.array([m["n"] for m in meds])
    wall = np.array([m["computing_seconds_per_simulated_second"] for m in meds])
    cpu = np.array([m["process_cpu_seconds_per_simulated_second"] for m in meds])

    fixed = n <= 3500  # the 200^3 box
    dense = (n == 1000) | (n > 3500)  # the density of 1000 in 200^3
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6))
    for ax, log_x in zip(axes, (False, True)):
        ax.plot([r["n"] for r in runs if log_x or r["n"] <= 3500],
                [r["computing_seconds_per_simulated_second"] for r in runs
                 if log_x or r["n"] <= 3500],
                ".", color="0.6", label="single runs (wall clock)")
        ax.plot(n[fixed], wall[fixed], "o-", color="C0",
                label="median, 200³ box (wall clock, JSON)")
        ax.plot(n[fixed], cpu[fixed], "s--", color="C2", ms=4,
                label="median, 200³ box (process CPU less set-up)")
        if log_x:
            ax.plot(n[dense], wall[dense], "o-", color="C9",
                    label="median, density of 1000 in 200³ (wall)")
            ax.plot(n[dense], cpu[dense], "s--", color="C8", ms=4,
                    label="median, density of 1000 in 200³ (CPU)")
        ax.plot([1000], [PAPER_N1000], "*", color="C3", ms=14,
                label="paper, N = 1000: 1.372 s (R10000)")
        ax.plot([1000], [TARGET_N1000], "v", color="C1", ms=10,
                label="target N = 1000: 1.372/300 = 0.00457 s")
        if log_x:
            ax.plot([1e5], [TARGET_N1E5], "v", color="C4", ms=10,
                    label="target N = 10⁵: 0.2 s (5× real time)")
            ax.axhline(1.0, color="0.4", lw=0.8, ls=":")
            ax.text(420, 1.12, "real time", color="0.4", fontsize=8)
            ax.set_xscale("log")
            ax.set_title("all N (log–log)")
        else:
            ax.set_title("N = 500 … 3500 in the 200³ box (as Fig. 5)")
        ax.set_yscale("log")
        ax.set_xlabel("number of spheres N")
        ax.set_ylabel("computing seconds per simulated second")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=7, loc="lower right")
    axes[1].legend(fontsize=6.5, loc="lower right")
    fig.suptitle("kgs-forces (seed 000 §4.2): processing time per simulated second", fontsize=11)
    fig.tight_layout()
    out = os.path.join(DOCS, "kgs-fig5.png")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def fig6(doc):
    _, meds = forces(doc)
    n = np.array([m["n"] for m in meds])
    fixed = n <= 3500
    dense = (n == 1000) | (n > 3500)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6))
    for ax, log in zip(axes, (False, True)):
        for i, (key, label) in enumerate(TYPES):
            y = np.array([m[key + "_per_simulated_second"] for m in meds], dtype=float)
            if not np.any(y > 0):
                if log:
                    ax.plot([], [], " ", label=label + ": none")
                continue
            y[y <= 0] = np.nan
            ax.plot(n[fixed], y[fixed], "o-", ms=4, color=f"C{i}", label=label)
            if log:
                ax.plot(n[dense], y[dense], "o--", ms=4, color=f"C{i}", alpha=0.6)
        ax.set_xlabel("number of spheres N")
        ax.set_ylabel("events per simulated second (median)")
        ax.grid(True, which="both", alpha=0.3)
        if log:
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title("all N: solid 200³ box, dashed density of 1000 in 200³", fontsize=10)
        else:
            ax.set_title("N = 500 … 3500 in the 200³ box (as Fig. 6)")
    axes[0].legend(fontsize=7, loc="upper left")
    axes[1].legend(fontsize=7, loc="upper left")
    fig.suptitle("kgs-forces (seed 000 §4.2): events by type", fontsize=11)
    fig.tight_layout()
    out = os.path.join(DOCS, "kgs-fig6.png")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def read_xyz(path):
    """Frames of an extended XYZ trajectory: list of (time, array n x 9)."""
    frames = []
    with open(path) as f:
        while True:
            line = f.readline()
            if not line.strip():
                break
            n = int(line)
            header = f.readline()
            t = float(header.split("Time=")[1].split()[0])
            rows = [f.readline().split()[1:] for _ in range(n)]
            frames.append((t, np.array(rows, dtype=float)))
    return frames


def field_figure(build):
    base = os.path.join(build, "kgs-field")
    traj = os.path.join(base, "field.xyz")
    if not os.path.exists(traj):
        print(f"no {traj}: docs/kgs-field.png not drawn")
        return None
    frames = read_xyz(traj)
    times = [t for t, _ in frames]
    fig = plt.figure(figsize=(12, 6.4))
    gs = fig.add_gridspec(2, 4, height_ratios=[1, 1])
    shown = [0.0, 1.0, 3.0, 7.0]
    for k, t in enumerate(shown):
        ax = fig.add_subplot(gs[0, k])
        idx = int(np.argmin([abs(x - t) for x in times]))
        png = os.path.join(base, "frames", f"frame_{idx:05d}.png")
        if os.path.exists(png):
            ax.imshow(plt.imread(png))
        ax.set_title(f"t = {times[idx]:g} (carom render)", fontsize=9)
        ax.axis("off")

    # Mean flow in (r, z): r = horizontal distance from the vertical centre
    # line x = y = L/2, over t >= 2 (after the particles have taken up the
    # field).
    L = 200.0
    rs, zs, vrs, vzs = [], [], [], []
    for t, a in frames:
        if t < 2.0:
            continue
        dx, dy = a[:, 0] - L / 2, a[:, 1] - L / 2
        r = np.hypot(dx, dy)
        vr = (dx * a[:, 3] + dy * a[:, 4]) / np.maximum(r, 1e-9)
        rs.append(r)
        zs.append(a[:, 2])
        vrs.append(vr)
        vzs.append(a[:, 5])
    r, z, vr, vz = (np.concatenate(v) for v in (rs, zs, vrs, vzs))
    rb = np.linspace(0, 100 * np.sqrt(2), 8)
    zb = np.linspace(0, L, 8)
    cnt, _, _ = np.histogram2d(r, z, [rb, zb])
    svr, _, _ = np.histogram2d(r, z, [rb, zb], weights=vr)
    svz, _, _ = np.histogram2d(r, z, [rb, zb], weights=vz)
    ok = cnt >= 5
    mvr = np.where(ok, svr / np.maximum(cnt, 1), np.nan)
    mvz = np.where(ok, svz / np.maximum(cnt, 1), np.nan)
    rc, zc = np.meshgrid(0.5 * (rb[1:] + rb[:-1]), 0.5 * (zb[1:] + zb[:-1]), indexing="ij")
    ax = fig.add_subplot(gs[1, 0:2])
    q = ax.quiver(rc, zc, mvr, mvz, np.hypot(mvr, mvz), cmap="viridis", scale_units="xy",
                  angles="xy", scale=1.4)
    fig.colorbar(q, ax=ax, label="mean speed")
    ax.set_xlim(0, 100 * np.sqrt(2))
    ax.set_ylim(0, L)
    ax.set_xlabel("distance r from the vertical centre line")
    ax.set_ylabel("height z")
    ax.set_title("mean particle velocity (v_r, v_z), t = 2 … 7", fontsize=9)

    ax = fig.add_subplot(gs[1, 2:4])
    for lo, hi, c in ((0, 30, "C3"), (30, 70, "C1"), (70, 150, "C0")):
        ms = []
        for t, a in frames:
            r_ = np.hypot(a[:, 0] - L / 2, a[:, 1] - L / 2)
            sel = (r_ >= lo) & (r_ < hi) & (a[:, 2] > 0.25 * L) & (a[:, 2] < 0.75 * L)
            ms.append(a[sel, 5].mean() if sel.sum() >= 3 else np.nan)
        ax.plot(times, ms, "o-", ms=3, color=c, label=f"{lo} ≤ r < {hi}")
    ax.axhline(0, color="0.5", lw=0.8)
    ax.set_xlabel("simulated time")
    ax.set_ylabel("mean vertical velocity v_z")
    ax.set_title("mean v_z of the particles at mid height (50 < z < 150)", fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(True, alpha=0.3)
    fig.suptitle("kgs-field (seed 000 §4.3): 1000 particles, radii 1–10, A = 30, seed 1",
                 fontsize=11)
    fig.tight_layout()
    out = os.path.join(DOCS, "kgs-field.png")
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out


def main():
    with open(RESULTS) as f:
        doc = json.load(f)
    for out in (fig5(doc), fig6(doc)):
        print("wrote", out)
    if len(sys.argv) > 1:
        out = field_figure(sys.argv[1])
        if out:
            print("wrote", out)


if __name__ == "__main__":
    main()
