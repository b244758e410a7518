#!/usr/bin/env bash
# Seed 000 §4 (Kim, Guibas and Shin 2005) measured with the carom CLI:
#   Fig. 5  computing seconds per simulated second of scenario=kgs-forces,
#           N = 500 ... 3500 in the 200^3 box, plus N = 1e4 and 1e5 at the
#           same density as N = 1000 (the CLI grows the box beyond 3500);
#   Fig. 6  events by type per simulated second of the same runs;
#   §4.3    scenario=kgs-field (N = 1000, time 7), timed, then once more
#           with a trajectory for the picture of docs/driven-spheres.md.
#
# usage: bench/kgs.sh BUILD_DIR
#
# Writes bench/results/kgs.json and bench/results/kgs.csv; the field
# trajectory and its rendered frames go to BUILD_DIR/kgs-field/ (not
# committed). Plot with: /usr/bin/python3 bench/plot_kgs.py BUILD_DIR
#
# Which runs (each in its own process, seeds outermost so that a change of
# the machine's load falls on every N alike):
#   N = 500, 1000, 1500, 2000        seeds 1-5, time 15 (the paper's 15 s)
#   N = 2500, 3000, 3500             seeds 1-3, time 15
#   N = 10000 (box 430.9^3)          seed 1, time 5
#   N = 100000 (box 928.3^3)         seed 1, time 2
#   kgs-field, N = 1000              seeds 1-3, time 7
# Besides the JSON's computing_seconds_per_simulated_second (wall clock of
# the measured run), each run records the process CPU time (user + sys,
# /usr/bin/time) less the set-up of the same N (a run of 1e-6 simulated
# time): less sensitive to other jobs on the machine.
# About 5 minutes on the 2-core machine of docs/driven-spheres.md. The
# environment variables SMALL_SEEDS, LARGE_SEEDS, FIELD_SEEDS, TIME,
# BIG_TIME_1E4, BIG_TIME_1E5 override the defaults (e.g. for a quick try);
# COMMIT names the commit built when the build's source is not a git
# checkout (e.g. a `git archive` export).
set -euo pipefail

if [ $# -ne 1 ] || [ ! -x "$1/bin/carom" ]; then
    echo "usage: $0 BUILD_DIR   (BUILD_DIR/bin/carom must exist)" >&2
    exit 2
fi
BUILD=$(cd "$1" && pwd)
CAROM="$BUILD/bin/carom"
REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT="$REPO/bench/results"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

SMALL_N="500 1000 1500 2000"
LARGE_N="2500 3000 3500"
SMALL_SEEDS=${SMALL_SEEDS-"1 2 3 4 5"}
LARGE_SEEDS=${LARGE_SEEDS-"1 2 3"}
FIELD_SEEDS=${FIELD_SEEDS-"1 2 3"}
TIME=${TIME:-15}
BIG_TIME_1E4=${BIG_TIME_1E4:-5}
BIG_TIME_1E5=${BIG_TIME_1E5:-2}

# The commit measured: COMMIT if given, else that of the source directory
# BUILD_DIR was configured from, else "unknown".
SRC=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$BUILD/CMakeCache.txt" 2>/dev/null || true)
COMMIT=${COMMIT:-$(git -C "${SRC:-/nonexistent}" rev-parse --short HEAD 2>/dev/null || echo unknown)}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/carom-kgs.XXXXXX")
LOADLOG="$WORK/load.txt"
RUNS="$WORK/runs.jsonl"
: >"$RUNS"

# The load average every 5 s while measuring (other jobs share the machine).
(
    while :; do
        echo "$(date -u +%s) $(cut -d' ' -f1-3 /proc/loadavg)" >>"$LOADLOG"
        sleep 5
    done
) &
LOADER=$!
cleanup() {
    kill "$LOADER" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

START=$(date -u +%Y-%m-%dT%H:%M:%SZ)

# run KIND N SEED TIME [extra keys...]: one carom run; appends one JSON line
# {kind, command, cpu_seconds, load1, result} to $RUNS.
run() {
    local kind=$1 n=$2 seed=$3 t=$4
    shift 4
    local cmd=("$CAROM" run "scenario=$kind" "n=$n" "time=$t" "seed=$seed" "$@" --json)
    local load1
    load1=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f '%U %S %e' -o "$WORK/time.txt" "${cmd[@]}" >"$WORK/out.json"
    read -r user sys elapsed <"$WORK/time.txt"
    "$PY" - "$kind" "$load1" "$user" "$sys" "$elapsed" "$WORK/out.json" "BUILD_DIR/${cmd[*]#"$BUILD"/}" >>"$RUNS" <<'EOF'
import json, sys
kind, load1, user, sys_, elapsed, path, command = sys.argv[1:]
with open(path) as f:
    result = json.load(f)
print(json.dumps({"kind": kind, "command": command, "load1_at_start": float(load1),
                  "process_cpu_seconds": float(user) + float(sys_),
                  "process_elapsed_seconds": float(elapsed), "result": result}))
EOF
    printf '%-10s n=%-6s seed=%s time=%-3s  %.4f s per simulated second\n' "$kind" "$n" "$seed" "$t" \
        "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["computing_seconds_per_simulated_second"])' "$WORK/out.json")"
}

echo "carom kgs benchmark: $CAROM, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

for seed in $SMALL_SEEDS; do
    for n in $SMALL_N; do
        run kgs-forces "$n" "$seed" "$TIME"
    done
done
for seed in $LARGE_SEEDS; do
    for n in $LARGE_N; do
        run kgs-forces "$n" "$seed" "$TIME"
    done
done
run kgs-forces 10000 1 "$BIG_TIME_1E4"
run kgs-forces 100000 1 "$BIG_TIME_1E5"
for seed in $FIELD_SEEDS; do
    run kgs-field 1000 "$seed" 7
done

# The set-up of each N (building the scene, first predictions, output):
# the process CPU time of a run of 1e-6 simulated time, subtracted from the
# process CPU time of the measured runs (it matters at N = 1e5 only).
SETUPS="$WORK/setup.txt"
: >"$SETUPS"
for n in $SMALL_N $LARGE_N 10000 100000; do
    /usr/bin/time -f '%U %S' -o "$WORK/time.txt" "$CAROM" run scenario=kgs-forces "n=$n" \
        time=1e-6 seed=1 --json >/dev/null
    echo "kgs-forces $n $(cat "$WORK/time.txt")" >>"$SETUPS"
done
/usr/bin/time -f '%U %S' -o "$WORK/time.txt" "$CAROM" run scenario=kgs-field time=1e-6 \
    seed=1 --json >/dev/null
echo "kgs-field 1000 $(cat "$WORK/time.txt")" >>"$SETUPS"

END=$(date -u +%Y-%m-%dT%H:%M:%SZ)

# The field run again with a trajectory (every 0.5 time units), and its
# frames drawn by carom render, for the picture in the document. Not timed.
FIELD_DIR="$BUILD/kgs-field"
rm -rf "$FIELD_DIR"
mkdir -p "$FIELD_DIR"
"$CAROM" run scenario=kgs-field seed=1 trajectory="$FIELD_DIR/field.xyz" frame_interval=0.5 \
    >/dev/null
if "$CAROM" render --help >/dev/null 2>&1; then
    "$CAROM" render input="$FIELD_DIR/field.xyz" out="$FIELD_DIR/frames/" width=480 height=480 \
        >/dev/null || echo "carom render failed: no rendered frames" >&2
fi

kill "$LOADER" 2>/dev/null || true
wait "$LOADER" 2>/dev/null || true

MACHINE_MODEL=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
"$PY" - "$RUNS" "$LOADLOG" "$SETUPS" "$OUT" "$START" "$END" "$(nproc)" "$MACHINE_MODEL" \
    "$COMMIT" \
    "$(uname -sr)" <<'EOF'
import csv, json, statistics, sys

runs_path, load_path, setup_path, out, start, end, nproc, model, commit, kernel = sys.argv[1:]
runs = [json.loads(line) for line in open(runs_path)]
setup = {}
for line in open(setup_path):
    kind, n, user, sys_ = line.split()
    setup[(kind, int(n))] = float(user) + float(sys_)
loads = [tuple(map(float, line.split()[1:4])) for line in open(load_path) if line.strip()]
load1 = [l[0] for l in loads]

TYPES = ["collisions", "wall_hits", "cell_crossings", "bound_resets",
         "bound_collisions", "late_contacts", "invalid_events"]
rows = []
for r in runs:
    res = r["result"]
    ev = res["events_by_type"]
    t = res["sim_time"]
    row = {
        "scenario": r["kind"], "n": res["n"], "seed": res["seed"], "sim_time": t,
        "box": res["box"][0],
        "computing_seconds_per_simulated_second": res["computing_seconds_per_simulated_second"],
        "process_cpu_seconds": r["process_cpu_seconds"],
        "setup_process_cpu_seconds": setup.get((r["kind"], res["n"]), 0.0),
        "process_cpu_seconds_per_simulated_second":
            max(0.0, r["process_cpu_seconds"] - setup.get((r["kind"], res["n"]), 0.0)) / t,
        "events": res["events"],
    }
    for k in TYPES:
        row[k] = ev[k]
    row["max_overlap"] = res["max_overlap"]
    row["peak_rss_bytes"] = res["peak_rss_bytes"]
    row["load1_at_start"] = r["load1_at_start"]
    row["command"] = r["command"]
    rows.append(row)

def median_of(kind, n, key):
    v = [x[key] for x in rows if x["scenario"] == kind and x["n"] == n]
    return statistics.median(v) if v else None

medians = []
for kind in ("kgs-forces", "kgs-field"):
    for n in sorted({x["n"] for x in rows if x["scenario"] == kind}):
        sel = [x for x in rows if x["scenario"] == kind and x["n"] == n]
        m = {"scenario": kind, "n": n, "runs": len(sel), "sim_time": sel[0]["sim_time"],
             "box": sel[0]["box"]}
        for key in ["computing_seconds_per_simulated_second",
                    "process_cpu_seconds_per_simulated_second"]:
            m[key] = median_of(kind, n, key)
        # events per simulated second, median over the runs
        for key in ["events"] + TYPES:
            m[key + "_per_simulated_second"] = statistics.median(x[key] / x["sim_time"] for x in sel)
        medians.append(m)

doc = {
    "what": "seed 000 section 4 (Fig. 5, Fig. 6, section 4.3) measured with carom run "
            "scenario=kgs-forces|kgs-field; see docs/driven-spheres.md",
    "date_utc": {"start": start, "end": end},
    "machine": {"nproc": int(nproc), "cpu_model": model, "kernel": kernel},
    "commit": commit,
    "load_average_1min_during_measurement": {
        "samples": len(load1),
        "min": min(load1) if load1 else None,
        "mean": round(statistics.mean(load1), 2) if load1 else None,
        "max": max(load1) if load1 else None,
        "note": ("other jobs ran on the machine concurrently"
                 if load1 and statistics.mean(load1) > 1.5 else
                 "about 1: the measurement alone on the machine"),
    },
    "paper": {"fig5_seconds_per_simulated_second_n1000": 1.372,
              "target_n1000": 1.372 / 300,
              "target_n1e5_seconds_per_simulated_second": 0.2},
    "medians": medians,
    "runs": rows,
}
with open(out + "/kgs.json", "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
with open(out + "/kgs.csv", "w", newline="") as f:
    keys = [k for k in rows[0] if k != "command"]
    w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    w.writerows(rows)

print(f"\n{'scenario':10} {'N':>6} {'runs':>4} {'s/sim s (median)':>17} {'cpu s/sim s':>12} {'events/sim s':>13}")
for m in medians:
    print(f"{m['scenario']:10} {m['n']:>6} {m['runs']:>4} "
          f"{m['computing_seconds_per_simulated_second']:>17.5f} "
          f"{m['process_cpu_seconds_per_simulated_second']:>12.5f} "
          f"{m['events_per_simulated_second']:>13.0f}")
if load1:
    print(f"load average (1 min) while measuring: min {min(load1)}, "
          f"mean {statistics.mean(load1):.2f}, max {max(load1)} ({len(load1)} samples)")
print(f"wrote {out}/kgs.json and {out}/kgs.csv")
EOF
