"""carom-stepped-bench does what its options say (behaviour, not speed): a
small run with every broad phase, bounding boxes, stepped continuous
detection and kinetic sweep-and-prune writes one JSON row and one CSV row
per method and dt; the broad phases of one shape find the same contacts;
the exact methods (swept, ksap) find exactly carom's; sphere rows have no
false contacts and box rows have some; bad values are refused with one
line on stderr and a nonzero exit.

usage: stepped_bench_test.py CAROM_STEPPED_BENCH WORK_DIR"""
import csv
import json
import os
import subprocess
import sys


def main(argv):
    bench, work = argv[1:]
    os.makedirs(work, exist_ok=True)
    js, cs = os.path.join(work, "rows.json"), os.path.join(work, "rows.csv")
    subprocess.run([bench, "--n", "400", "--packing", "0.2", "--time", "1", "--runs", "1",
                    "--dt", "0.05,0.25", "--broad", "grid,octree,all", "--boxes", "1",
                    "--swept", "1", "--json", js, "--csv", cs], check=True,
                   stdout=subprocess.DEVNULL)
    with open(js) as f:
        rows = json.load(f)["rows"]
    with open(cs) as f:
        table = list(csv.DictReader(f))
    # carom; per broad phase 2 shapes and swept at 2 dt; carom and ksap open.
    assert len(rows) == 1 + 3 * 3 * 2 + 2 == len(table), (len(rows), len(table))
    by = {(r["method"], r["dt"]): r for r in rows}
    exact = by[("carom", 0)]["contacts"]
    assert exact > 50, exact
    for dt in (0.05, 0.25):
        for what in ("stepped", "boxes", "swept"):
            found = {by[(m, dt)]["contacts"] for m in (what, what + ", octree", what + ", all pairs")}
            assert len(found) == 1, (what, dt, found)
        assert by[("swept", dt)]["contacts"] == exact
        assert by[("stepped", dt)]["false_contacts"] == 0
        assert by[("boxes", dt)]["false_contacts"] > 0
        assert by[("boxes", dt)]["contacts"] > by[("stepped", dt)]["contacts"]
    assert by[("stepped", 0.25)]["share_found"] < 1.0  # long steps miss some
    assert by[("ksap (open)", 0)]["contacts"] == by[("carom (open)", 0)]["contacts"]
    for args, key in ((["--broad", "kd"], "--broad"), (["--dt", "0.3"], "--dt"),
                      (["--swept", "x"], "--swept")):
        p = subprocess.run([bench, "--n", "100"] + args, capture_output=True, text=True)
        assert p.returncode != 0, args
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and key in lines[0], (args, p.stderr)
    print("carom-stepped-bench: %d rows, options checked" % len(rows))


if __name__ == "__main__":
    main(sys.argv)
