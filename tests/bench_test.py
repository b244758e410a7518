"""carom-bench does what its options say: a small polydisperse run with
each --neighbours mode writes a JSON record whose neighbour mode and list
rebuilds show the path the world took (auto takes lists for radii 1:2 at
packing 0.3), with the same equation of state; a bad mode is refused.
Behaviour only: no timing is asserted.

usage: bench_test.py CAROM_BENCH WORK_DIR"""
import json
import os
import subprocess
import sys


def run(bench, work, mode):
    path = os.path.join(work, mode + ".json")
    subprocess.run([bench, "--n", "2000", "--packing", "0.3", "--poly", "1", "--runs", "1",
                    "--equilibrate", "0.2", "--time", "0.5", "--neighbours", mode,
                    "--json", path], check=True, stdout=subprocess.DEVNULL)
    with open(path) as f:
        records = json.load(f)
    assert len(records) == 1, records
    return records[0]


def main(argv):
    bench, work = argv[1:]
    os.makedirs(work, exist_ok=True)
    d = {m: run(bench, work, m) for m in ("auto", "cells", "lists")}
    for m, r in d.items():
        assert r["neighbours"] == m, (m, r["neighbours"])
        assert r["collisions"] > 1000 and r["max_overlap_end"] < 1e-9, (m, r)
        # Boublik-Mansoori-Carnahan-Starling-Leland gives 3.78 here.
        assert abs(r["compressibility"] / 3.78 - 1) < 0.1, (m, r["compressibility"])
    assert d["cells"]["list_rebuilds"] == 0, d["cells"]
    assert d["lists"]["list_rebuilds"] > 0 and d["auto"]["list_rebuilds"] > 0, d
    bad = subprocess.run([bench, "--neighbours", "octree"], capture_output=True, text=True)
    assert bad.returncode == 2 and "auto, cells or lists" in bad.stderr, bad
    print("bench: modes %s" % {m: r["list_rebuilds"] for m, r in d.items()})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
