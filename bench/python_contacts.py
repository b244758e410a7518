"""What the Python front end costs per contact: the same world advanced
(1) with no callback, (2) with its contacts recorded in C and pulled after
the advance as one NumPy array (World(record_contacts=True)), and (3) with
a Python callback called for every contact. Medians of several runs,
alternated; every mode must process the same collisions.

usage: CAROM_LIBRARY=build/libcarom.so PYTHONPATH=python /usr/bin/python3 \\
           bench/python_contacts.py [--n 4000] [--time 20] [--runs 5] [--json FILE]
"""

import argparse
import json
import statistics
import time

import carom


def scene(n):
    length = carom.box_length_for_packing(3, n, 0.5, 0.3)
    return carom.Scene(3, length).lattice(n, 0.5).maxwell_velocities(1.0, seed=1)


def timed(start, mode, duration):
    counted = [0]

    def count(contact):
        counted[0] += 1

    settings = {"prefetch": "off"}
    if mode == "recorded":
        settings["record_contacts"] = True
    if mode == "callback":
        settings["on_contact"] = count
    world = start.create_world(**settings)
    world.advance_to(1.0)  # build and melt the lattice a little, untimed
    world.reset_stats()
    begin = time.perf_counter()
    world.advance_to(1.0 + duration)
    pulled = len(world.recorded_contacts()) if mode == "recorded" else 0
    seconds = time.perf_counter() - begin
    collisions = world.get_stats().collisions
    return seconds, collisions, pulled or counted[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=4000)
    parser.add_argument("--time", type=float, default=20.0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json")
    args = parser.parse_args()
    start = scene(args.n)
    modes = ("none", "recorded", "callback")
    seconds = {m: [] for m in modes}
    reference = None
    for _ in range(args.runs):
        for mode in modes:
            s, collisions, reported = timed(start, mode, args.time)
            reference = reference or collisions
            assert collisions == reference, (mode, collisions, reference)
            assert mode == "none" or reported >= collisions
            seconds[mode].append(s)
    rows = []
    for mode in modes:
        median = statistics.median(seconds[mode])
        rows.append({"mode": mode, "n": args.n, "collisions": reference,
                     "seconds_median": median, "ns_per_collision": 1e9 * median / reference,
                     "runs": args.runs})
        print(f"{mode:9s} {median:8.3f} s  {1e9 * median / reference:8.0f} ns a collision "
              f"({reference} collisions, median of {args.runs})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
