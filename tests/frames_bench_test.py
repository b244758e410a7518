"""carom-frames-bench does what its options say (behaviour, not speed): a
short run of Leong's scene writes four JSON rows and four CSV rows
(carom and seed 003's three methods), every method keeps the energy of
elastic collisions, carom and the multiple collision method leave no
overlap at frames' ends while the retroactive method answers collisions
at a depth and the single collision method loses travel; bad values are
refused with one line on stderr and a nonzero exit.

usage: frames_bench_test.py CAROM_FRAMES_BENCH WORK_DIR"""
import csv
import json
import os
import subprocess
import sys


def main(argv):
    bench, work = argv[1:]
    os.makedirs(work, exist_ok=True)
    js, cs = os.path.join(work, "rows.json"), os.path.join(work, "rows.csv")
    subprocess.run([bench, "--frames", "120", "--runs", "1", "--json", js, "--csv", cs],
                   check=True, stdout=subprocess.DEVNULL)
    with open(js) as f:
        record = json.load(f)
    rows = {r["method"]: r for r in record["rows"]}
    with open(cs) as f:
        assert len(list(csv.DictReader(f))) == 4
    assert record["n"] == 150 and record["box"][:2] == [10, 15], record
    assert set(rows) == {"carom", "retroactive", "single collision", "multiple collision"}
    assert rows["carom"]["collisions"] > 100, rows["carom"]
    for name, r in rows.items():
        assert abs(r["energy_change"]) < 1e-9, (name, r)
    assert rows["carom"]["largest_overlap_left"] < 1e-12
    assert rows["multiple collision"]["largest_overlap_left"] < 1e-12
    assert rows["retroactive"]["largest_depth"] > 0.01
    assert rows["single collision"]["lost_travel"] > 0.0
    assert rows["multiple collision"]["lost_travel"] == 0.0
    for args, key in ((["--radius", "-1"], "options"), (["--box", "a"], "--box"),
                      (["--bogus", "1"], "--bogus")):
        p = subprocess.run([bench] + args, capture_output=True, text=True)
        assert p.returncode != 0, args
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and key in lines[0], (args, p.stderr)
    print("carom-frames-bench: 4 rows, options checked")


if __name__ == "__main__":
    main(sys.argv)
