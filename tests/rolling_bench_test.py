"""carom-rolling-bench does what its options say (behaviour, not speed): a
small run writes three JSON rows and three CSV rows (carom, the
collision tree, kinetic sweep-and-prune) with the same contacts, the
kinetic structures with many more events than contacts; bad values are
refused with one line on stderr and a nonzero exit.

usage: rolling_bench_test.py CAROM_ROLLING_BENCH WORK_DIR"""
import csv
import json
import os
import subprocess
import sys


def main(argv):
    bench, work = argv[1:]
    os.makedirs(work, exist_ok=True)
    js, cs = os.path.join(work, "rows.json"), os.path.join(work, "rows.csv")
    subprocess.run([bench, "--n", "300", "--side", "100", "--runs", "1", "--json", js, "--csv",
                    cs], check=True, stdout=subprocess.DEVNULL)
    with open(js) as f:
        rows = {r["method"]: r for r in json.load(f)["rows"]}
    with open(cs) as f:
        assert len(list(csv.DictReader(f))) == 3
    assert set(rows) == {"carom", "rolling (collision tree)", "ksap"}, rows
    contacts = {r["contacts"] for r in rows.values()}
    assert len(contacts) == 1 and contacts.pop() > 20, rows
    for name in ("rolling (collision tree)", "ksap"):
        assert rows[name]["events"] > 10 * rows[name]["contacts"], rows[name]
    for args, key in ((["--n", "1"], "options"), (["--side", "x"], "--side"),
                      (["--n", "5000", "--side", "10"], "scene")):
        p = subprocess.run([bench] + args, capture_output=True, text=True)
        assert p.returncode != 0, args
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and key in lines[0], (args, p.stderr)
    print("carom-rolling-bench: 3 rows, options checked")


if __name__ == "__main__":
    main(sys.argv)
