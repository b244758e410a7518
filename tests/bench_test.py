"""carom-bench does what its options say: a small polydisperse run with
each --neighbours mode writes a JSON record whose neighbour mode and list
rebuilds show the path the world took (auto takes lists for radii 1:2 at
packing 0.3), with the same equation of state; --prefetch on runs the
loading thread (the record says so, and the collisions and Z are the
same to the last digit as with off); --order shuffled hands the world
its spheres in shuffled order, which a world of 60,000 sorts when it is
built unless --reorder off (the record counts the sorts; a small world
never sorts); bad values are refused. Behaviour only: no timing is
asserted.

usage: bench_test.py CAROM_BENCH WORK_DIR"""
import json
import os
import subprocess
import sys


def run(bench, work, mode, prefetch="auto"):
    path = os.path.join(work, mode + "-" + prefetch + ".json")
    subprocess.run([bench, "--n", "2000", "--packing", "0.3", "--poly", "1", "--runs", "1",
                    "--equilibrate", "0.2", "--time", "0.5", "--neighbours", mode,
                    "--prefetch", prefetch, "--json", path], check=True,
                   stdout=subprocess.DEVNULL)
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
    p = {f: run(bench, work, "lists", f) for f in ("off", "on")}
    assert not d["lists"]["prefetch_thread"], d["lists"]  # 2000 spheres: one thread
    assert p["on"]["prefetch"] == "on" and p["on"]["prefetch_thread"], p["on"]
    assert p["off"]["prefetch"] == "off" and not p["off"]["prefetch_thread"], p["off"]
    for key in ("collisions", "events", "list_rebuilds", "compressibility"):
        assert p["on"][key] == p["off"][key], (key, p["on"][key], p["off"][key])
    bad = subprocess.run([bench, "--prefetch", "maybe"], capture_output=True, text=True)
    assert bad.returncode == 2 and "auto, off or on" in bad.stderr, bad
    for n, packing in ((2000, "0.3"), (60000, "0.45")):
        for reorder in ("auto", "off"):
            path = os.path.join(work, "order-%d-%s.json" % (n, reorder))
            subprocess.run([bench, "--n", str(n), "--packing", packing, "--runs", "1",
                            "--equilibrate", "0.05", "--time", "0.05", "--order", "shuffled",
                            "--reorder", reorder, "--json", path], check=True,
                           stdout=subprocess.DEVNULL)
            with open(path) as f:
                r = json.load(f)[0]
            assert r["order"] == "shuffled" and r["reorder"] == reorder, r
            sorts = 1 if n == 60000 and reorder == "auto" else 0
            assert r["reorders"] == sorts, (n, reorder, r["reorders"])
            assert r["collisions"] > 0 and r["max_overlap_end"] < 1e-9, r
    for opt, words in (("--reorder", "auto or off"), ("--order", "sorted or shuffled")):
        bad = subprocess.run([bench, opt, "x"], capture_output=True, text=True)
        assert bad.returncode == 2 and words in bad.stderr, bad
    print("bench: modes %s" % {m: r["list_rebuilds"] for m, r in d.items()})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
