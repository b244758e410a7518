#!/usr/bin/env bash
# What a triangle mesh costs the event loop: `carom run` on an elastic gas
# of 8,000 places for spheres (radius 0.5, walled 24^3 box, packing 0.30,
# no gravity), with no mesh and with a wavy terrain across the middle of
# the box (bench/terrain.py: 2 K^2 triangles, K = 5, 16 and 50: 50, 512
# and 5,000 triangles); then 2,000 spheres of radius 0.4 falling onto the
# terrain a quarter of the way up (gravity 2, restitution 0.9, contacts
# separating at least at speed 1), the same terrains; each group's four
# cases alternated, RUNS rounds. Writes one CSV line per run (scene,
# case, round, collisions/s and events/s of the measured run, events,
# wall hits, triangles, spheres) to OUT and prints the medians as
# markdown table rows. The spheres the placement puts on the terrain are
# left out, so the gases with it are a little thinner: ns per event
# compares them.
#
# usage: bench/mesh.sh BUILD_DIR [RUNS] [OUT]   (default 3 rounds,
#        bench/results/mesh.csv; BUILD_DIR's carom must read meshes)
set -euo pipefail
build=${1:?usage: bench/mesh.sh BUILD_DIR [RUNS] [OUT]}
runs=${2:-3}
out=${3:-bench/results/mesh.csv}
carom="$build/bin/carom"
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for k in 5 16 50; do
    /usr/bin/python3 "$here/terrain.py" "$k" 24 12 "$work/gas$k.obj"
    /usr/bin/python3 "$here/terrain.py" "$k" 24 6 "$work/falling$k.obj"
done
gas=(dim=3 n=8000 radius=0.5 box=24 boundary=walls temperature=1 lattice=fcc
     equilibrate=0.5 time=4 seed=1 --json)
falling=(dim=3 n=2000 radius=0.4 box=24 boundary=walls gravity=2 restitution=0.9
         wall_restitution=0.9 restitution_min_speed=1 time=4 seed=1 --json)

field() { # field < json
    /usr/bin/python3 -c "import json, sys; d = json.load(sys.stdin); \
e = d['events_by_type']; print(d['collisions_per_second'], d['events_per_second'], d['events'], \
e['wall_hits'], d.get('triangles', 0), d['n'])"
}

echo "scene,case,round,collisions_per_second,events_per_second,events,wall_hits,triangles,n" \
    > "$out"
for scene in gas falling; do
    for round in $(seq 1 "$runs"); do
        for case in none 5 16 50; do
            keys=()
            [ "$case" != none ] && keys=("mesh=$work/$scene$case.obj")
            if [ "$scene" = gas ]; then
                line=$("$carom" run "${gas[@]}" "${keys[@]}" | field)
            else
                line=$("$carom" run "${falling[@]}" "${keys[@]}" | field)
            fi
            echo "$scene,$case,$round,${line// /,}" >> "$out"
        done
    done
done

/usr/bin/python3 - "$out" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| scene | terrain | triangles | spheres | collisions/s (median, range) | "
      "ns per event (median) | runs |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for scene in ("gas", "falling"):
    for case in ("none", "5", "16", "50"):
        mine = [r for r in rows if r["scene"] == scene and r["case"] == case]
        rates = sorted(float(r["collisions_per_second"]) for r in mine)
        ns = statistics.median(1e9 / float(r["events_per_second"]) for r in mine)
        name = "none" if case == "none" else f"K = {case}"
        print(f"| {scene} | {name} | {mine[0]['triangles']} | {mine[0]['n']} | "
              f"{statistics.median(rates):.3g} ({rates[0]:.3g}–{rates[-1]:.3g}) | {ns:.0f} | "
              f"{len(mine)} |")
PY
