"""carom-query-bench does what its options say (behaviour, not speed): a
small run writes one JSON record with a row per kind of query, the casts
find spheres (a gas at packing 0.3: a cast over a tenth of the box meets
one most times), the overlap query finds about the spheres the packing
puts in its reach, the obstacle query finds triangles of its mesh; bad options are refused with a message and exit 2.

usage: query_bench_test.py CAROM_QUERY_BENCH WORK_DIR"""
import json
import math
import os
import subprocess
import sys


def main(argv):
    bench, work = argv[1:]
    os.makedirs(work, exist_ok=True)
    out = os.path.join(work, "query.json")
    subprocess.run([bench, "--n", "2000", "--runs", "1", "--json", out], check=True)
    with open(out) as f:
        record = json.load(f)
    assert record["n"] == 2000 and record["dim"] == 3 and record["runs"] == 1, record
    rows = record["rows"]
    assert [r["query"] for r in rows] == [
        "ray cast", "sphere cast (radius 0.5)", "overlap query (radius 2)",
        "the first three queries after an advance, together",
        "obstacle query (radius 2) over 9800 triangles"], rows
    assert 0.5 < rows[0]["found_per_query"] <= 1.0, rows[0]
    assert 0.5 < rows[1]["found_per_query"] <= 1.0, rows[1]
    # Spheres whose centres lie within 2.5 of a point: 0.3 / (4/3 pi 0.125)
    # a unit volume, times 4/3 pi 2.5^3.
    expected = 0.3 / (4 / 3 * math.pi * 0.125) * 4 / 3 * math.pi * 2.5 ** 3
    assert 0.8 * expected < rows[2]["found_per_query"] < 1.2 * expected, (rows[2], expected)
    for r in rows[:4]:
        assert r["ns_per_query"] > 0 and r["ns_per_sphere"] > 0, r
    # The floor is within 2 of every point asked at (0.6 above its base,
    # 2 up or down): each query finds some of its triangles, never all.
    mesh = rows[4]
    assert mesh["ns_per_query"] > 0 and mesh["ns_per_triangle"] > 0, mesh
    assert 1.0 < mesh["found_per_query"] < 9800, mesh
    for args, word in ((["--n", "5"], "--n"), (["--dim", "4"], "--dim"),
                       (["--bogus", "1"], "unknown option"), (["--runs"], "takes a value")):
        p = subprocess.run([bench] + args, capture_output=True, text=True)
        assert p.returncode == 2 and word in p.stderr, (args, p.returncode, p.stderr)
    print("query bench: %d rows, ray cast %.0f ns" % (len(rows), rows[0]["ns_per_query"]))


if __name__ == "__main__":
    main(sys.argv)
