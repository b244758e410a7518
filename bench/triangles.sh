#!/usr/bin/env bash
# What fixed triangles cost the event loop: `carom run` on an elastic gas
# of 8,000 spheres (radius 0.5, walled 24^3 box, packing 0.30, no
# gravity) with no triangles, with the eight of scenario=silo's funnel,
# and with sixteen (a second funnel, upside down, below it), the three
# alternated, RUNS rounds; then scenario=silo itself (gravity). Writes one
# CSV line per run (case, round, collisions/s and events/s of the measured
# run, events, wall hits, triangles, spheres) to OUT and prints the
# medians as markdown table rows. The spheres the placement puts on the
# triangles are left out, so the gases with triangles are a little
# thinner (fewer collisions per sphere): ns per event compares them.
#
# usage: bench/triangles.sh BUILD_DIR [RUNS] [OUT]   (default 3 rounds,
#        bench/results/triangles.csv)
set -euo pipefail
build=${1:?usage: bench/triangles.sh BUILD_DIR [RUNS] [OUT]}
runs=${2:-3}
out=${3:-bench/results/triangles.csv}
carom="$build/bin/carom"

upper="0,0,16,24,0,16,14,10,10/0,0,16,14,10,10,10,10,10/24,0,16,24,24,16,14,14,10/"
upper+="24,0,16,14,14,10,14,10,10/24,24,16,0,24,16,10,14,10/24,24,16,10,14,10,14,14,10/"
upper+="0,24,16,0,0,16,10,10,10/0,24,16,10,10,10,10,14,10"
lower="0,0,2,24,0,2,14,10,8/0,0,2,14,10,8,10,10,8/24,0,2,24,24,2,14,14,8/"
lower+="24,0,2,14,14,8,14,10,8/24,24,2,0,24,2,10,14,8/24,24,2,10,14,8,14,14,8/"
lower+="0,24,2,0,0,2,10,10,8/0,24,2,10,10,8,10,14,8"
gas=(dim=3 n=8000 radius=0.5 box=24 boundary=walls temperature=1 lattice=fcc
     equilibrate=0.5 time=4 seed=1 --json)

field() { # field NAME < json
    /usr/bin/python3 -c "import json, sys; d = json.load(sys.stdin); \
e = d['events_by_type']; print(d['collisions_per_second'], d['events_per_second'], d['events'], \
e['wall_hits'], d.get('triangles', 0), d['n'])"
}

echo "case,round,collisions_per_second,events_per_second,events,wall_hits,triangles,n" > "$out"
for round in $(seq 1 "$runs"); do
    for case in none eight sixteen; do
        keys=()
        [ "$case" = eight ] && keys=("triangles=$upper")
        [ "$case" = sixteen ] && keys=("triangles=$upper/$lower")
        line=$("$carom" run "${gas[@]}" "${keys[@]}" | field)
        echo "$case,$round,${line// /,}" >> "$out"
    done
    line=$("$carom" run scenario=silo time=20 seed=1 --json | field)
    echo "silo,$round,${line// /,}" >> "$out"
done

/usr/bin/python3 - "$out" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| case | triangles | spheres | collisions/s (median, range) | ns per event (median) | runs |")
print("| --- | --- | --- | --- | --- | --- |")
for case in ("none", "eight", "sixteen", "silo"):
    mine = [r for r in rows if r["case"] == case]
    rates = sorted(float(r["collisions_per_second"]) for r in mine)
    ns = statistics.median(1e9 / float(r["events_per_second"]) for r in mine)
    print(f"| {case} | {mine[0]['triangles']} | {mine[0]['n']} | "
          f"{statistics.median(rates):.3g} ({rates[0]:.3g}–{rates[-1]:.3g}) | {ns:.0f} | "
          f"{len(mine)} |")
EOF
