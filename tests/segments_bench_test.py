"""carom-segments-bench does what its options say (behaviour, not speed):
a small run writes a CSV row per grid, with G^2 segments (9 G^2 stored:
periodic images), the disks the lattice leaves clear of them, and
collisions and segment contacts that happened; bad options are refused
with a message and exit 2.

usage: segments_bench_test.py CAROM_SEGMENTS_BENCH WORK_DIR"""
import csv
import os
import subprocess
import sys


def main(argv):
    bench, work = argv[1:]
    os.makedirs(work, exist_ok=True)
    out = os.path.join(work, "segments.csv")
    subprocess.run([bench, "--grids", "1,3", "--runs", "1", "--csv", out], check=True)
    with open(out) as f:
        rows = list(csv.DictReader(f))
    assert [int(r["segments"]) for r in rows] == [1, 9], rows
    for g, r in zip((1, 3), rows):
        assert int(r["stored"]) == 9 * g * g, r
        # 5 g columns of disks, 5 g rows less the g rows on the segments'
        assert int(r["disks"]) == 5 * g * 4 * g, r
        assert float(r["seconds"]) > 0 and int(r["collisions"]) > 0, r
        assert int(r["segment_contacts"]) > 0 and float(r["contacts_per_second"]) > 0, r
    for bad, words in ((["--grids", "0"], "--grids"), (["--runs", "x"], "--runs"),
                       (["--frobnicate", "1"], "unknown option"), (["--runs"], "value")):
        p = subprocess.run([bench] + bad, capture_output=True, text=True)
        assert p.returncode in (1, 2) and words in p.stderr, (bad, p.returncode, p.stderr)
    print("segments bench: ok")


if __name__ == "__main__":
    main(sys.argv)
