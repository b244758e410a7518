#!/usr/bin/env python3
"""Tests of the `carom` command, one case per CTest test.

usage: cli_test.py CAROM DATA_DIR WORK_DIR CASE
       cli_test.py --list

Bad-input cases check a nonzero exit status, exactly one line on stderr
starting with "carom: ", the words that line must contain (key, file and
line), and that nothing was printed on stdout. The other cases run small
scenes and check the output files and the JSON summary.
"""
import json
import math
import os
import random
import re
import subprocess
import statistics
import sys

from triangle_geometry import triangle_distance

USAGE, RUNTIME = 2, 1
FAST = ["time=0.2", "equilibrate=0"]

# name: (arguments, exit status, substrings of the error line)
BAD_INPUT = {
    "msd_word": (["msd=yes"], USAGE, ["msd=yes", "expected one of: off on"]),
    "planes_count": (["dim=2", "boundary=walls", "planes=0,1"] + FAST, USAGE,
                     ["planes=0,1", "each plane is nx,ny,d in 2D"]),
    "planes_periodic": (["dim=2", "n=50", "planes=0,1,1"] + FAST, USAGE,
                        ["the normal has a component along axis 1, which is periodic"]),
    "planes_zero_normal": (["dim=2", "n=50", "boundary=walls", "planes=0,0,1"] + FAST, USAGE,
                           ["the normal must have a nonzero, finite length"]),
    "planes_word": (["dim=2", "boundary=walls", "planes=1,1,x"] + FAST, USAGE,
                    ["planes=1,1,x", "malformed number"]),
    "segments_3d": (["boundary=walls", "segments=1,1,2,2"] + FAST, USAGE,
                    ["segments=1,1,2,2", "segments are for 2D worlds"]),
    "segments_count": (["dim=2", "boundary=walls", "segments=1,1,2"] + FAST, USAGE,
                       ["segments=1,1,2", "each segment is x0,y0,x1,y1"]),
    "segments_outside": (["dim=2", "n=50", "box=10", "boundary=walls", "segments=1,1,12,2"]
                         + FAST, USAGE, ["inside the box"]),
    "triangles_2d": (["dim=2", "boundary=walls", "triangles=1,1,1,2,1,1,1,2,1"] + FAST, USAGE,
                     ["triangles=1,1,1,2,1,1,1,2,1",
                      "triangles are for 3D worlds (segments= in 2D)"]),
    "triangles_count": (["boundary=walls", "triangles=1,1,1,2,1,1,1,2"] + FAST, USAGE,
                        ["triangles=1,1,1,2,1,1,1,2",
                         "each triangle is x0,y0,z0,x1,y1,z1,x2,y2,z2"]),
    "triangles_word": (["boundary=walls", "triangles=1,1,1,2,1,1,1,2,z"] + FAST, USAGE,
                       ["triangles=1,1,1,2,1,1,1,2,z", "malformed number"]),
    "triangles_outside": (["n=50", "box=10", "boundary=walls", "triangles=1,1,1,12,1,1,1,2,1"]
                          + FAST, USAGE, ["inside the box"]),
    "rdf_max_alone": (["rdf_max=2"], USAGE, ["rdf_max needs rdf=FILE or rdf=on"]),
    "rdf_walls": (["n=50", "boundary=walls", "rdf=on"] + FAST, USAGE,
                  ["rdf: needs a box periodic along every axis"]),
    "rdf_max_beyond_half_box": (["n=50", "packing=0.3", "rdf=on", "rdf_max=5"] + FAST, USAGE,
                                ["rdf_max: 5 is not in (0,", "half the shortest box edge"]),
    "rdf_interval_zero": (["rdf=on", "rdf_interval=0"], USAGE, ["rdf_interval=0", "> 0"]),
    "rdf_unwritable": (["n=50", "rdf=/nonexistent/dir/g.csv"] + FAST, RUNTIME,
                       ["cannot write '/nonexistent/dir/g.csv'"]),
    "thermostat_negative": (["thermostat=-0.5"], USAGE, ["thermostat=-0.5", ">= 0"]),
    "compress_below_start": (["packing=0.3", "compress=0.2"], USAGE,
                             ["compress=0.2", "above the packing it starts from"]),
    "compress_word": (["compress=dense"], USAGE, ["compress=dense", "malformed number"]),
    "compress_rate_alone": (["compress_rate=0.1"], USAGE, ["compress_rate needs compress="]),
    "compress_gravity": (["compress=0.4", "gravity=1", "boundary=walls"], USAGE,
                         ["compress needs ballistic spheres, a response and no gravity"]),
    "unknown_key": (["n=10", "foo=1"], USAGE, ["unknown key 'foo'", "command line"]),
    "unknown_key_in_file": (["@unknown_key.cfg"], USAGE,
                            ["unknown_key.cfg:3", "unknown key 'colour'"]),
    "malformed_number": (["n=12x"], USAGE, ["n=12x", "malformed number"]),
    "malformed_number_in_file": (["@bad_value.cfg"], USAGE,
                                 ["bad_value.cfg:2", "packing=0.3.1", "malformed number"]),
    "malformed_list": (["box=10,x,10"], USAGE, ["box=10,x,10", "malformed number"]),
    "not_whole": (["n=10.5"], USAGE, ["n=10.5", "not a whole number"]),
    "nan": (["temperature=nan"], USAGE, ["temperature=nan", "NaN"]),
    "infinity": (["time=inf"], USAGE, ["time=inf", "infinity"]),
    "zero_radius": (["radius=0"], USAGE, ["radius=0", "must be > 0"]),
    "negative_radius": (["radius=-1"], USAGE, ["radius=-1", "must be > 0"]),
    "negative_n": (["n=-5"], USAGE, ["n=-5"]),
    "zero_n": (["n=0"], USAGE, ["n=0"]),
    "dim_4": (["dim=4"], USAGE, ["dim=4", "2 or 3"]),
    "dim_1": (["dim=1"], USAGE, ["dim=1", "2 or 3"]),
    "packing_above_close_packing": (["packing=0.8"], USAGE, ["packing=0.8", "too high"]),
    "packing_cannot_place": (["n=50", "packing=0.7"] + FAST, USAGE,
                             ["cannot place 50 spheres", "too high"]),
    "packing_2d_too_high": (["dim=2", "n=100", "packing=0.95"], USAGE, ["packing", "too high"]),
    "negative_packing": (["packing=-0.1"], USAGE, ["packing=-0.1"]),
    "restitution_above_1": (["restitution=1.5"], USAGE, ["restitution=1.5", "[0, 1]"]),
    "tangential_restitution_above_1": (["tangential_restitution=1.5"], USAGE,
                                       ["tangential_restitution=1.5", "must be in [-1, 1]"]),
    "tangential_restitution_below_minus_1": (["tangential_restitution=-1.01"], USAGE,
                                             ["tangential_restitution=-1.01",
                                              "must be in [-1, 1]"]),
    "tangential_restitution_nan": (["tangential_restitution=nan"], USAGE,
                                   ["tangential_restitution=nan", "NaN"]),
    "wall_tangential_restitution_word": (["wall_tangential_restitution=rough"], USAGE,
                                         ["wall_tangential_restitution=rough",
                                          "malformed number"]),
    "wall_tangential_restitution_in_file": (["@bad_tangential.cfg"], USAGE,
                                            ["bad_tangential.cfg:3",
                                             "wall_tangential_restitution=1.01",
                                             "must be in [-1, 1]"]),
    "inertia_factor_zero": (["inertia_factor=0"], USAGE,
                            ["inertia_factor=0", "must be in (0, 1]"]),
    "friction_negative": (["friction=-0.1"], USAGE, ["friction=-0.1", "must be >= 0"]),
    "wall_friction_not_a_number": (["wall_friction=high"], USAGE, ["wall_friction=high"]),
    "inertia_factor_above_1": (["inertia_factor=1.5"], USAGE,
                               ["inertia_factor=1.5", "must be in (0, 1]"]),
    "inertia_factor_infinity": (["inertia_factor=inf"], USAGE, ["inertia_factor=inf", "infinity"]),
    "bad_boundary": (["boundary=wall"], USAGE, ["boundary=wall", "periodic or walls"]),
    "bad_response": (["response=bouncy"], USAGE, ["response=bouncy", "elastic none"]),
    "bad_lattice": (["dim=3", "lattice=hex"], USAGE, ["lattice=hex", "2D"]),
    "bad_gravity_count": (["dim=3", "gravity=0,1"], USAGE, ["gravity=0,1"]),
    "bad_seed": (["seed=-3"], USAGE, ["seed=-3"]),
    "unknown_scenario": (["scenario=seed999"], USAGE, ["scenario=seed999", "unknown scenario"]),
    "box_and_packing": (["box=10", "packing=0.2"], USAGE, ["packing and box"]),
    "frame_interval_without_trajectory": (["frame_interval=0.1"], USAGE, ["frame_interval"]),
    "missing_equals": (["n"], USAGE, ["'n'", "missing '='"]),
    "missing_equals_after_file": (["@good.cfg", "time"], USAGE, ["'time'", "missing '='"]),
    "missing_equals_in_file": (["@no_equals.cfg"], USAGE,
                               ["no_equals.cfg:2", "expected key=value"]),
    "empty_value": (["n="], USAGE, ["'n' has no value"]),
    "config_file_missing": (["no_such_file.cfg"], USAGE,
                            ["cannot open config file", "no_such_file.cfg"]),
    "init_missing": (["init=no_such_file.xyz"], USAGE, ["no_such_file.xyz", "cannot open"]),
    "init_empty": (["init=@empty.xyz"], USAGE, ["empty.xyz", "empty"]),
    "init_truncated": (["init=@truncated.xyz"], USAGE,
                       ["truncated.xyz:5", "2 of the 3 spheres", "truncated"]),
    "init_huge_count": (["init=@huge_count.xyz"], USAGE,
                        ["huge_count.xyz:4", "1 of the 222222222222573 spheres", "truncated"]),
    "init_too_many_lines": (["init=@too_many.xyz"], USAGE,
                            ["too_many.xyz:5", "wrong count"]),
    "init_bad_count_line": (["init=@bad_count.xyz"], USAGE,
                            ["bad_count.xyz:1", "number of spheres"]),
    "init_unparsable_number": (["init=@bad_number.xyz"], USAGE,
                               ["bad_number.xyz:4", "column 3 (pos y)", "'abc'"]),
    "init_short_line": (["init=@short_line.xyz"], USAGE,
                        ["short_line.xyz:4", "expected 9 columns", "found 8"]),
    "init_nan": (["init=@nan.xyz"], USAGE, ["nan.xyz:5", "velo x", "NaN"]),
    "init_infinity": (["init=@inf.xyz"], USAGE, ["inf.xyz:4", "pos z", "infinity"]),
    "init_negative_radius": (["init=@negative_radius.xyz"], USAGE,
                             ["negative_radius.xyz:4", "radius", "positive"]),
    "init_zero_mass": (["init=@zero_mass.xyz"], USAGE, ["zero_mass.xyz:5", "mass", "positive"]),
    "init_no_lattice": (["init=@no_lattice.xyz"], USAGE, ["no_lattice.xyz:2", "Lattice"]),
    "init_bad_properties": (["init=@bad_properties.xyz"], USAGE,
                            ["bad_properties.xyz:2", "unsupported Properties layout", "pos"]),
    "init_wrong_particle_count": (["init=@overlap.xyz", "n=5"], USAGE,
                                  ["wrong particle count", "n=5", "3 spheres"]),
    "init_with_box": (["init=@small_2d.xyz", "box=10"], USAGE, ["box", "init"]),
    "init_dim_mismatch": (["init=@small_2d.xyz", "dim=3"], USAGE, ["dim=3", "2D"]),
    "init_spin_about_x_2d": (["init=@spin_x_2d.xyz"], USAGE,
                             ["spin_x_2d.xyz:4", "column 10 (spin x)", "must be 0 in a 2D file"]),
    "overlap_at_start": (["init=@overlap.xyz"] + FAST, RUNTIME,
                         ["overlap.xyz", "spheres 1 and 2", "overlap"]),
    "outside_box": (["init=@outside.xyz"] + FAST, RUNTIME,
                    ["outside.xyz", "sphere 2", "outside the box"]),
    "unwritable_output": (["n=20", "final=no_such_dir/out.xyz"] + FAST, RUNTIME,
                          ["cannot write", "no_such_dir/out.xyz"]),
    "unknown_option": (["--jsn"], USAGE, ["unknown option '--jsn'"]),
    # Driven spheres (issue 4): orbits files and motion keys.
    "orbits_planes": (["orbits=@orbits_good.txt", "box=200", "boundary=walls", "planes=0,0,1,5"],
                      USAGE, ["planes cannot be combined with motion=orbits",
                              "pass through them"]),
    "orbits_triangles": (["orbits=@orbits_good.txt", "box=200", "boundary=walls",
                          "triangles=1,1,1,2,1,1,1,2,1"], USAGE,
                         ["triangles cannot be combined with motion=orbits", "pass through them"]),
    "orbits_nan": (["orbits=@orbits_nan.txt", "box=200"], USAGE,
                   ["orbits_nan.txt:4", "field 5 (omega)", "NaN"]),
    "orbits_negative_radius": (["motion=orbits", "orbits=@orbits_negative_radius.txt", "box=200"],
                               USAGE, ["orbits_negative_radius.txt:2", "field 7 (radius)"]),
    "orbits_missing_field": (["orbits=@orbits_missing.txt", "box=200"], USAGE,
                             ["orbits_missing.txt:2", "field 6 (phase) is missing"]),
    "orbits_trailing": (["orbits=@orbits_trailing.txt", "box=200"], USAGE,
                        ["orbits_trailing.txt:2", "trailing text 'extra'"]),
    "orbits_not_a_number": (["orbits=@orbits_word.txt", "box=200"], USAGE,
                            ["orbits_word.txt:2", "field 6 (phase)", "'zero'"]),
    "orbits_file_missing": (["orbits=no_such.orbits", "box=200"], USAGE,
                            ["no_such.orbits", "cannot open"]),
    "orbits_without_file": (["motion=orbits", "box=200"], USAGE, ["motion=orbits needs orbits"]),
    "orbits_without_box": (["orbits=@orbits_good.txt"], USAGE, ["needs box="]),
    "orbits_leave_box": (["orbits=@orbits_good.txt", "box=200", "boundary=walls"], USAGE,
                         ["orbits_good.txt", "orbit 3", "leaves the box"]),
    "orbits_wrong_count": (["orbits=@orbits_good.txt", "box=200", "n=5"], USAGE,
                           ["n=5", "3 orbits"]),
    "orbits_with_motion_forces": (["orbits=@orbits_good.txt", "motion=forces"], USAGE,
                                  ["needs motion=orbits"]),
    "bad_motion": (["motion=teleport"], USAGE, ["motion=teleport", "ballistic orbits forces field"]),
    "bad_neighbours": (["neighbours=octree"], USAGE, ["neighbours=octree", "auto cells lists"]),
    "bad_prefetch": (["prefetch=maybe"], USAGE, ["prefetch=maybe", "auto off on"]),
    "bad_reorder": (["reorder=sometimes"], USAGE, ["reorder=sometimes", "auto off"]),
    "accel_bound_ballistic": (["accel_bound=10"], USAGE, ["accel_bound", "motion=forces"]),
    "force_interval_zero": (["scenario=kgs-forces", "force_interval=0"], USAGE,
                            ["force_interval=0", "> 0"]),
    "field_key_with_forces": (["scenario=kgs-forces", "field_speed=3"], USAGE,
                              ["field_speed", "motion=field"]),
    "accel_bound_reversed": (["scenario=kgs-forces", "accel_bound=20,10"], USAGE,
                             ["accel_bound=20,10", "Amin <= Amax"]),
    # Species (species=, species_fraction=, pass_through=).
    "species_zero": (["species=0"], USAGE, ["species=0", "must be between 1 and 32"]),
    "species_33": (["species=33"], USAGE, ["species=33", "must be between 1 and 32"]),
    "species_word": (["species=two"], USAGE, ["species=two", "malformed number"]),
    "species_fraction_count": (["species=3", "species_fraction=0.5,0.5"], USAGE,
                               ["species_fraction=0.5,0.5",
                                "expected 3 numbers, one per species (species=3)"]),
    "species_fraction_without_species": (["species_fraction=0.5,0.5"], USAGE,
                                         ["species_fraction=0.5,0.5",
                                          "expected 1 number, one per species (species=1)"]),
    "species_fraction_negative": (["species=2", "species_fraction=1.5,-0.5"], USAGE,
                                  ["species_fraction=1.5,-0.5", "fractions must be >= 0"]),
    "species_fraction_zero": (["species=2", "species_fraction=0,0"], USAGE,
                              ["species_fraction=0,0", "positive, finite sum"]),
    "pass_through_out_of_range": (["species=2", "pass_through=0-5"], USAGE,
                                  ["pass_through=0-5", "species 5 out of range",
                                   "species=2: species 0 to 1"]),
    "pass_through_default_species": (["pass_through=0-1"], USAGE,
                                     ["pass_through=0-1", "species 1 out of range",
                                      "species=1: species 0 to 0"]),
    "pass_through_beyond_32": (["species=2", "pass_through=1-40"], USAGE,
                               ["pass_through=1-40", "species 40 out of range (0 to 31)"]),
    "pass_through_garbage": (["species=2", "pass_through=garbage"], USAGE,
                             ["pass_through=garbage", "expected pairs of species a-b"]),
    "pass_through_half_pair": (["species=2", "pass_through=0-1,1"], USAGE,
                               ["pass_through=0-1,1", "expected pairs of species a-b"]),
    "pass_through_triple": (["@good.cfg", "species=2", "pass_through=0-1-1"], USAGE,
                             ["command line", "pass_through=0-1-1", "expected pairs"]),
    "species_with_init": (["init=@small_2d.xyz", "species=2"], USAGE,
                          ["species=2 cannot be combined with init", "small_2d.xyz"]),
    "species_fraction_with_init": (["init=@small_2d.xyz", "species_fraction=1"], USAGE,
                                   ["species_fraction=1 cannot be combined with init"]),
    "pass_through_beyond_init": (["init=@small_2d.xyz", "pass_through=0-1"], USAGE,
                                 ["pass_through=0-1", "species 1 out of range",
                                  "init file", "small_2d.xyz: species 0 to 0"]),
    # Restitution by species (pair_restitution=, species_wall_restitution=).
    "pair_restitution_above_1": (["pair_restitution=0-1:1.5"], USAGE,
                                 ["command line", "pair_restitution=0-1:1.5",
                                  "pair 0-1: the coefficient must be in [0, 1], not 1.5"]),
    "pair_restitution_out_of_range": (["species=2", "pair_restitution=0-5:0.5"], USAGE,
                                      ["pair_restitution=0-5:0.5", "species 5 out of range",
                                       "species=2: species 0 to 1"]),
    "pair_restitution_default_species": (["pair_restitution=0-1:0.5"], USAGE,
                                         ["pair_restitution=0-1:0.5", "species 1 out of range",
                                          "species=1: species 0 to 0"]),
    "pair_restitution_beyond_32": (["species=2", "pair_restitution=1-40:0.5"], USAGE,
                                   ["pair_restitution=1-40:0.5",
                                    "species 40 out of range (0 to 31)"]),
    "pair_restitution_no_coefficient": (["species=2", "pair_restitution=0-1"], USAGE,
                                        ["pair_restitution=0-1", "expected items a-b:e"]),
    "pair_restitution_letters": (["species=2", "pair_restitution=a-b:0.5"], USAGE,
                                 ["pair_restitution=a-b:0.5", "expected items a-b:e"]),
    "pair_restitution_half_pair": (["species=2", "pair_restitution=0-1:0.5,1:0.5"], USAGE,
                                   ["pair_restitution=0-1:0.5,1:0.5", "expected items a-b:e"]),
    "pair_restitution_nan": (["species=2", "pair_restitution=0-1:nan"], USAGE,
                             ["pair_restitution=0-1:nan", "NaN is not allowed"]),
    "pair_restitution_word": (["species=2", "pair_restitution=0-1:soft"], USAGE,
                              ["pair_restitution=0-1:soft", "malformed number"]),
    "pair_restitution_twice": (["species=2", "pair_restitution=0-1:0.5,1-0:0.6"], USAGE,
                               ["pair_restitution=0-1:0.5,1-0:0.6",
                                "pair 0-1 given twice, with 0.5 and 0.6"]),
    "pair_restitution_beyond_init": (["init=@small_2d.xyz", "pair_restitution=0-1:0.5"], USAGE,
                                     ["pair_restitution=0-1:0.5", "species 1 out of range",
                                      "init file", "small_2d.xyz: species 0 to 0"]),
    "species_wall_restitution_negative": (["species_wall_restitution=0:-1"], USAGE,
                                          ["species_wall_restitution=0:-1",
                                           "species 0: the coefficient must be in [0, 1], "
                                           "not -1"]),
    "species_wall_restitution_out_of_range": (["species=2", "species_wall_restitution=3:0.5"],
                                              USAGE,
                                              ["species_wall_restitution=3:0.5",
                                               "species 3 out of range",
                                               "species=2: species 0 to 1"]),
    "species_wall_restitution_pair": (["species=2", "species_wall_restitution=0-1:0.5"], USAGE,
                                      ["species_wall_restitution=0-1:0.5",
                                       "expected items s:e"]),
    "species_wall_restitution_twice": (["species=2", "species_wall_restitution=1:0.5,1:0.4"],
                                       USAGE, ["species 1 given twice, with 0.5 and 0.4"]),
    # Friction by species (pair_friction=, species_wall_friction=).
    "pair_friction_above_1": (["pair_friction=0-1:1.5"], USAGE,
                              ["command line", "pair_friction=0-1:1.5",
                               "pair 0-1: the tangential restitution must be in [-1, 1], "
                               "not 1.5"]),
    "pair_friction_below_minus_1": (["species=2", "pair_friction=1-1:-1.5"], USAGE,
                                    ["pair_friction=1-1:-1.5",
                                     "pair 1-1: the tangential restitution must be in [-1, 1]"]),
    "pair_friction_negative_mu": (["pair_friction=0-1:0.5:-1"], USAGE,
                                  ["pair_friction=0-1:0.5:-1",
                                   "pair 0-1: the friction coefficient must be >= 0, not -1"]),
    "pair_friction_no_coefficient": (["pair_friction=0-1"], USAGE,
                                     ["pair_friction=0-1", "expected items a-b:beta or "
                                      "a-b:beta:mu"]),
    "pair_friction_out_of_range": (["species=2", "pair_friction=0-5:0.5"], USAGE,
                                   ["pair_friction=0-5:0.5", "species 5 out of range",
                                    "species=2: species 0 to 1"]),
    "pair_friction_default_species": (["pair_friction=0-1:0.5"], USAGE,
                                      ["pair_friction=0-1:0.5", "species 1 out of range",
                                       "species=1: species 0 to 0"]),
    "pair_friction_beyond_32": (["species=2", "pair_friction=1-40:0.5"], USAGE,
                                ["pair_friction=1-40:0.5", "species 40 out of range (0 to 31)"]),
    "pair_friction_nan": (["species=2", "pair_friction=0-1:nan"], USAGE,
                          ["pair_friction=0-1:nan", "NaN is not allowed"]),
    "pair_friction_mu_nan": (["species=2", "pair_friction=0-1:0.5:nan"], USAGE,
                             ["pair_friction=0-1:0.5:nan", "NaN is not allowed"]),
    "pair_friction_mu_minus_inf": (["species=2", "pair_friction=0-1:0.5:-inf"], USAGE,
                                   ["pair_friction=0-1:0.5:-inf",
                                    "pair 0-1: the friction coefficient must be >= 0, not -inf"]),
    "pair_friction_beta_inf": (["species=2", "pair_friction=0-1:inf"], USAGE,
                               ["pair_friction=0-1:inf", "infinity is not allowed"]),
    "friction_minus_inf": (["friction=-inf"], USAGE,
                           ["friction=-inf", "must be >= 0 (inf: no limit)"]),
    "wall_friction_nan": (["wall_friction=nan"], USAGE, ["wall_friction=nan", "NaN is not allowed"]),
    "pair_friction_three_numbers": (["species=2", "pair_friction=0-1:0.5:0.2:3"], USAGE,
                                    ["pair_friction=0-1:0.5:0.2:3", "malformed number"]),
    "pair_friction_twice": (["species=2", "friction=0.5", "pair_friction=0-1:1,1-0:1:0.2"],
                            USAGE, ["pair_friction=0-1:1,1-0:1:0.2",
                                    "pair 0-1 given twice, with 1:0.5 and 1:0.2"]),
    "pair_friction_beyond_init": (["init=@small_2d.xyz", "pair_friction=0-1:0.5"], USAGE,
                                  ["pair_friction=0-1:0.5", "species 1 out of range",
                                   "init file", "small_2d.xyz: species 0 to 0"]),
    "species_wall_friction_nan": (["species_wall_friction=0:nan"], USAGE,
                                  ["species_wall_friction=0:nan", "NaN is not allowed"]),
    "species_wall_friction_above_1": (["species_wall_friction=0:2"], USAGE,
                                      ["species_wall_friction=0:2",
                                       "species 0: the tangential restitution must be in "
                                       "[-1, 1], not 2"]),
    "species_wall_friction_out_of_range": (["species=2", "species_wall_friction=3:0.5"], USAGE,
                                           ["species_wall_friction=3:0.5",
                                            "species 3 out of range",
                                            "species=2: species 0 to 1"]),
    "species_wall_friction_pair": (["species=2", "species_wall_friction=0-1:0.5"], USAGE,
                                   ["species_wall_friction=0-1:0.5", "expected items s:beta"]),
    "species_wall_friction_twice": (["species=2", "species_wall_friction=1:0.5,1:0.4"], USAGE,
                                    ["species 1 given twice, with 0.5:inf and 0.4:inf"]),
    # Shear viscosity (viscosity=): only where velocities change at elastic
    # contacts of spheres alone, refused before the run.
    "viscosity_walls": (["n=50", "boundary=walls", "viscosity=on"], USAGE,
                        ["viscosity=on", "boundary=walls", "periodic along every axis"]),
    "viscosity_gravity": (["gravity=1", "viscosity=on"], USAGE,
                          ["viscosity=on", "gravity=1", "between contacts"]),
    "viscosity_thermostat": (["thermostat=0.5", "viscosity=on"], USAGE,
                             ["viscosity=on", "thermostat=0.5"]),
    "viscosity_motion": (["motion=forces", "viscosity=on"], USAGE,
                         ["viscosity=on", "motion=forces", "driven"]),
    "viscosity_restitution": (["restitution=0.9", "viscosity=on"], USAGE,
                              ["viscosity=on", "restitution=0.9", "elastic"]),
    "viscosity_pair_restitution": (["species=2", "pair_restitution=0-1:0.8", "viscosity=on"],
                                   USAGE, ["viscosity=on", "pair_restitution=0-1:0.8",
                                           "elastic"]),
    "viscosity_rough": (["tangential_restitution=0.5", "viscosity=on"], USAGE,
                        ["viscosity=on", "tangential_restitution=0.5", "keep the energy"]),
    "viscosity_friction": (["tangential_restitution=1", "friction=0.3", "viscosity=on"], USAGE,
                           ["viscosity=on", "friction=0.3", "Coulomb"]),
    "viscosity_pair_friction": (["species=2", "pair_friction=1-1:0", "viscosity=on"], USAGE,
                                ["viscosity=on", "pair_friction=1-1:0", "keep the energy"]),
    "viscosity_planes": (["dim=2", "boundary=walls", "planes=0,1,1", "viscosity=FILE.csv"],
                         USAGE, ["viscosity=FILE.csv", "planes=0,1,1"]),
    "viscosity_segments": (["dim=2", "boundary=walls", "segments=1,1,2,2", "viscosity=on"],
                           USAGE, ["viscosity=on", "segments=1,1,2,2"]),
    "viscosity_triangles": (["boundary=walls", "triangles=1,1,1,2,1,1,1,2,1", "viscosity=on"],
                            USAGE, ["viscosity=on", "triangles=1,1,1,2,1,1,1,2,1"]),
    "transport_lag_alone": (["transport_lag=1"], USAGE,
                            ["transport_lag needs viscosity=FILE|on, bulk_viscosity=FILE|on or "
                             "conductivity=FILE|on"]),
    "transport_interval_alone": (["viscosity=off", "bulk_viscosity=off", "conductivity=off",
                                  "transport_interval=0.1"], USAGE,
                                 ["transport_interval needs viscosity=FILE|on, "
                                  "bulk_viscosity=FILE|on or conductivity=FILE|on"]),
    "transport_lag_zero": (["viscosity=on", "transport_lag=0"], USAGE,
                           ["transport_lag=0", "must be > 0"]),
    "transport_lag_nan": (["conductivity=on", "transport_lag=nan"], USAGE,
                          ["transport_lag=nan", "NaN"]),
    "transport_interval_negative": (["viscosity=on", "transport_interval=-0.1"], USAGE,
                                    ["transport_interval=-0.1", "must be > 0"]),
    "transport_lag_beyond_half": (["time=10", "viscosity=on", "transport_lag=5.5"], USAGE,
                                  ["transport_lag=5.5", "more than half the measured time",
                                   "time=10"]),
    "transport_interval_above_lag": (["conductivity=on", "transport_lag=1",
                                      "transport_interval=1.5"], USAGE,
                                     ["transport_interval=1.5", "longer than the lag",
                                      "transport_lag=1"]),
    "transport_lag_not_multiple": (["viscosity=on", "transport_lag=1",
                                    "transport_interval=0.3"], USAGE,
                                   ["transport_lag=1", "not a whole number of intervals",
                                    "transport_interval=0.3"]),
    "transport_interval_beyond_half": (["time=10", "viscosity=on", "transport_interval=6"],
                                       USAGE, ["transport_interval=6",
                                               "more than half the measured time"]),
    "viscosity_time_zero": (["time=0", "viscosity=on"], USAGE,
                            ["viscosity=on", "needs a measured run"]),
    "viscosity_unwritable": (["n=50", "viscosity=/nonexistent/dir/eta.csv"] + FAST, RUNTIME,
                             ["cannot write '/nonexistent/dir/eta.csv'"]),
    # Thermal conductivity (conductivity=): whatever viscosity= refuses,
    # naming both keys when both are on; and rough contacts of any kind (Q
    # counts translational energy only).
    "conductivity_walls": (["n=50", "boundary=walls", "conductivity=on"], USAGE,
                           ["conductivity=on", "boundary=walls", "periodic along every axis"]),
    "conductivity_viscosity_thermostat": (["thermostat=0.5", "viscosity=on",
                                           "conductivity=k.csv"], USAGE,
                                          ["viscosity=on, conductivity=k.csv: cannot be "
                                           "combined with thermostat=0.5"]),
    "conductivity_rough": (["tangential_restitution=0.5", "conductivity=on"], USAGE,
                           ["conductivity=on", "tangential_restitution=0.5",
                            "translational energy only"]),
    "conductivity_perfectly_rough": (["tangential_restitution=1", "viscosity=on",
                                      "conductivity=on"], USAGE,
                                     ["carom: command line: conductivity=on: cannot be combined "
                                      "with tangential_restitution=1", "smooth (-1)"]),
    "conductivity_pair_friction": (["species=2", "pair_friction=1-1:1", "conductivity=on"],
                                   USAGE, ["conductivity=on", "pair_friction=1-1:1",
                                           "translational energy only"]),
    "conductivity_time_zero": (["time=0", "conductivity=on"], USAGE,
                               ["conductivity=on", "needs a measured run"]),
    "conductivity_unwritable": (["n=50", "conductivity=/nonexistent/dir/k.csv"] + FAST, RUNTIME,
                                ["cannot write '/nonexistent/dir/k.csv'"]),
    # Bulk viscosity (bulk_viscosity=): whatever viscosity= refuses (it
    # comes from the same samples of S), naming the transport keys on.
    "bulk_viscosity_walls": (["n=50", "boundary=walls", "bulk_viscosity=on"], USAGE,
                             ["command line: bulk_viscosity=on: cannot be combined with "
                              "boundary=walls", "periodic along every axis"]),
    "bulk_viscosity_gravity": (["gravity=1", "bulk_viscosity=kappa.csv"], USAGE,
                               ["command line: bulk_viscosity=kappa.csv: cannot be combined with "
                                "gravity=1", "between contacts"]),
    "bulk_viscosity_restitution": (["restitution=0.9", "viscosity=on", "bulk_viscosity=on"],
                                   USAGE, ["command line: viscosity=on, bulk_viscosity=on: cannot "
                                           "be combined with restitution=0.9", "elastic"]),
    "bulk_viscosity_rough": (["tangential_restitution=0.5", "bulk_viscosity=on"], USAGE,
                             ["command line: bulk_viscosity=on: cannot be combined with "
                              "tangential_restitution=0.5", "keep the energy"]),
    "bulk_viscosity_unwritable": (["n=50", "bulk_viscosity=/nonexistent/dir/kappa.csv"] + FAST,
                                  RUNTIME, ["cannot write '/nonexistent/dir/kappa.csv'"]),
}


class Failure(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise Failure(what)


class Runner:
    def __init__(self, carom, data, work):
        self.carom, self.data, self.work = carom, data, work

    def arg(self, a):
        """'@file' and 'key=@file' name files in the data directory."""
        if a.startswith("@"):
            return os.path.join(self.data, a[1:])
        if "=@" in a:
            k, v = a.split("=@", 1)
            return k + "=" + os.path.join(self.data, v)
        return a

    def run(self, args, command="run", timeout=60):
        cmd = [self.carom] + ([command] if command else []) + [self.arg(a) for a in args]
        try:
            p = subprocess.run(cmd, cwd=self.work, capture_output=True, text=True,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Failure("timed out (a hang?): %s" % " ".join(cmd))
        return p

    def ok(self, args, command="run"):
        p = self.run(args, command)
        expect(p.returncode == 0, "carom %s %s failed (%d): %s" %
               (command, " ".join(args), p.returncode, p.stderr))
        return p

    def json(self, args):
        p = self.ok(args + ["--json"])
        try:
            return json.loads(p.stdout)
        except ValueError as e:
            raise Failure("--json output does not parse: %s\n%s" % (e, p.stdout))

    def path(self, name):
        return os.path.join(self.work, name)


def bad_input(r, name):
    args, status, words = BAD_INPUT[name]
    p = r.run(args)
    expect(p.returncode == status,
           "expected exit status %d, got %d (stderr: %r)" % (status, p.returncode, p.stderr))
    lines = p.stderr.splitlines()
    expect(len(lines) == 1, "expected one line on stderr, got %r" % p.stderr)
    expect(lines[0].startswith("carom: "), "message does not start with 'carom: ': %r" % lines[0])
    for w in words:
        expect(w in lines[0], "message %r does not contain %r" % (lines[0], w))
    expect(p.stdout == "", "unexpected output on stdout: %r" % p.stdout)


def read_xyz(path):
    """Frames of an extended XYZ file: list of (comment, rows of floats)."""
    frames = []
    with open(path) as f:
        lines = f.read().splitlines()
    k = 0
    while k < len(lines):
        n = int(lines[k])
        comment = lines[k + 1]
        rows = [[float(x) for x in line.split()[1:]] for line in lines[k + 2:k + 2 + n]]
        expect(len(rows) == n, "%s: frame at line %d is truncated" % (path, k + 1))
        frames.append((comment, rows))
        k += 2 + n
    return frames


def comment_value(comment, key):
    for token in comment.replace('"', " ").split():
        if token.startswith(key + "="):
            return token.split("=", 1)[1]
    return None


JSON_FIELDS = {
    "dim": int, "n": int, "sim_time": float, "collisions": int, "events": int,
    "events_by_type": dict, "wall_seconds": float, "collisions_per_second": float,
    "kinetic_energy_initial": float, "kinetic_energy_final": float,
    "compressibility": float, "max_overlap": float, "peak_rss_bytes": int,
    "packing": float, "temperature": float, "seed": int, "box": list, "reorders": int,
}


def case_json_fields(r):
    d = r.json(["n=300", "time=1", "equilibrate=0.5", "seed=3"])
    for k, t in JSON_FIELDS.items():
        expect(k in d, "JSON lacks %s" % k)
        v = d[k]
        ok = isinstance(v, (int, float)) if t is float else isinstance(v, t)
        expect(ok and not isinstance(v, bool), "JSON %s = %r is not a %s" % (k, v, t.__name__))
    e = d["events_by_type"]
    for k in ("collisions", "wall_hits", "cell_crossings", "invalid"):
        expect(isinstance(e.get(k), int), "events_by_type lacks %s" % k)
    expect(d["dim"] == 3 and d["n"] == 300 and d["seed"] == 3, "dim/n/seed wrong")
    expect(abs(d["sim_time"] - 1.0) < 1e-12, "sim_time %r != 1" % d["sim_time"])
    expect(d["collisions"] > 0 and d["collisions"] == e["collisions"], "collisions")
    expect(d["events"] >= d["collisions"] + e["wall_hits"] + e["cell_crossings"], "events")
    expect(abs(d["packing"] - 0.3) < 1e-9 and d["temperature"] == 1.0, "packing/temperature")
    expect(len(d["box"]) == 3, "box")
    expect(abs(d["kinetic_energy_initial"] - 1.5 * 300) < 1e-6 * 450,
           "kinetic energy %r is not 3/2 N kT" % d["kinetic_energy_initial"])
    expect(abs(d["kinetic_energy_final"] / d["kinetic_energy_initial"] - 1) < 1e-10,
           "energy drift")
    expect(0 <= d["max_overlap"] < 1e-9, "max_overlap %r" % d["max_overlap"])
    expect(2.5 < d["compressibility"] < 5.5, "Z = %r far from 3.97" % d["compressibility"])
    expect(d["peak_rss_bytes"] > 0 and d["wall_seconds"] >= 0, "rss/wall time")
    expect(d["collisions_per_second"] > 0, "collisions_per_second")


def case_summary(r):
    p = r.ok(["n=200", "time=0.5", "equilibrate=0.2"])
    for w in ("collisions", "events", "collisions/s", "Carnahan-Starling", "kinetic energy",
              "max overlap"):
        expect(w in p.stdout, "summary lacks %r:\n%s" % (w, p.stdout))
    p = r.ok(["dim=2", "n=200", "time=0.5", "equilibrate=0.2"])
    expect("Henderson" in p.stdout, "2D summary lacks Henderson:\n%s" % p.stdout)


def case_pressure_error(r):
    """Z's statistical error by block averaging (JSON compressibility_error,
    pressure_blocks; the summary's Z = ... ± ...). Over ten seeds of 1,000
    spheres at packing 0.3 the spread of Z between the runs is what the
    error bars say (their ratio 0.4 to 1.6: measured 0.6-0.8; an error of
    the blocks' spread, not of their mean, would give about 0.1), and each
    Z is within four error bars of Carnahan-Starling's. The blocks cut the
    run without stopping it: the final state is the same to the last bit
    as the one of a run whose progress stops it elsewhere (trajectory
    frames) and of one without blocks (a thermostat-free run has them
    always, so against equilibrate=, which has none). An ideal gas has
    Z = 1 and error 0. With a thermostat Z and its error are as good (Z
    over the run's mean temperature, from the bath's energy), but null in
    a granular gas; in a run of too few events for 16 blocks, null."""
    zs, errors = [], []
    for seed in range(1, 11):
        d = r.json(["n=1000", "packing=0.3", "equilibrate=2", "time=10", "seed=%d" % seed])
        z, e, ref = d["compressibility"], d["compressibility_error"], d["compressibility_reference"]
        expect(isinstance(e, float) and 0 < e < 0.05 and d["pressure_blocks"] >= 16,
               "seed %d: error %r from %r blocks" % (seed, e, d["pressure_blocks"]))
        expect(abs(z - ref) < 4 * e, "seed %d: Z = %r ± %r, Carnahan-Starling %r" % (seed, z, e,
                                                                                 ref))
        zs.append(z)
        errors.append(e)
    ratio = statistics.stdev(zs) / statistics.median(errors)
    expect(0.4 < ratio < 1.6, "the spread of Z over seeds is %r of the median error %r" %
           (ratio, statistics.median(errors)))
    p = r.ok(["n=1000", "packing=0.3", "equilibrate=2", "time=10", "seed=1"])
    expect(re.search(r"Z = PV/NkT +[0-9.]+ ± [0-9.e-]+ +\(Carnahan-Starling", p.stdout),
           "the summary lacks Z's error:\n%s" % p.stdout)
    # The same run, stopped at frames, and as an equilibration (no blocks).
    a, b, c = r.path("blocks_a.xyz"), r.path("blocks_b.xyz"), r.path("blocks_c.xyz")
    r.json(["n=500", "packing=0.4", "equilibrate=0", "time=3", "final=" + a])
    r.json(["n=500", "packing=0.4", "equilibrate=0", "time=3", "final=" + b,
            "trajectory=" + r.path("blocks_b_traj.xyz"), "frame_interval=0.7"])
    r.json(["n=500", "packing=0.4", "equilibrate=3", "time=0", "final=" + c])
    frames_a, frames_b, frames_c = read_xyz(a), read_xyz(b), read_xyz(c)
    expect(frames_a[0][1] == frames_c[0][1],
           "the blocks changed the run: its end differs from the same run without blocks")
    expect(frames_a[0][1] != frames_b[0][1],
           "stops at frames changed nothing (so the check above could not fail)")
    d = r.json(["n=500", "packing=0.2", "time=10", "response=none"])
    expect(d["compressibility"] == 1 and d["compressibility_error"] == 0,
           "an ideal gas: Z = %r ± %r" % (d["compressibility"], d["compressibility_error"]))
    # With a thermostat the temperature wanders (over 1/rate); Z is taken
    # at the run's mean temperature, from the bath's energy, and its error
    # holds as without a bath (over the mean of the run's ends the spread
    # was 3.5 times the error bars).
    zs, errors = [], []
    for seed in range(1, 9):
        d = r.json(["n=1000", "packing=0.3", "equilibrate=2", "time=10", "thermostat=1",
                    "seed=%d" % seed])
        z, e, ref = d["compressibility"], d["compressibility_error"], d["compressibility_reference"]
        expect(isinstance(e, float) and 0 < e < 0.05 and abs(z - ref) < 4 * e,
               "thermostat, seed %d: Z = %r ± %r, Carnahan-Starling %r" % (seed, z, e, ref))
        zs.append(z)
        errors.append(e)
    ratio = statistics.stdev(zs) / statistics.median(errors)
    expect(0.4 < ratio < 1.6, "thermostat: the spread of Z over seeds is %r of the median "
           "error %r" % (ratio, statistics.median(errors)))
    # A granular gas under a bath is not that fluid: no error.
    d = r.json(["n=500", "packing=0.3", "time=2", "thermostat=1", "restitution=0.9"])
    expect(d["compressibility_error"] is None and d["pressure_blocks"] == 0,
           "a granular gas with a thermostat: %r from %r blocks" % (d["compressibility_error"],
                                                                    d["pressure_blocks"]))
    d = r.json(["n=50", "packing=0.3", "time=0.2"])
    expect(d["compressibility_error"] is None and d["pressure_blocks"] < 16,
           "%r events: %r from %r blocks" % (d["events"], d["compressibility_error"],
                                             d["pressure_blocks"]))


def case_progress_terminal(r):
    """On a terminal carom run shows its progress on stderr ('carom: run
    42.0%'), in pieces of events, which change nothing: the run ends to the
    last bit where the same run ends without a terminal, with and without
    a thermostat (the bath too goes in pieces of events). Pieces of
    simulated time would not do: a stop at a time moves every sphere to
    it (case pressure_error shows such a run differs)."""
    import pty
    for extra in ([], ["thermostat=1"]):
        args = ["n=1000", "packing=0.4", "equilibrate=1", "time=10", "seed=5"] + extra
        plain, shown_file = r.path("plain.xyz"), r.path("terminal.xyz")
        r.json(args + ["final=" + plain])
        master, slave = pty.openpty()
        p = subprocess.Popen([r.carom, "run"] + args + ["final=" + shown_file, "--json"],
                             cwd=r.work, stdout=subprocess.PIPE, stderr=slave)
        os.close(slave)
        shown = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the program has closed the terminal
                break
            if not chunk:
                break
            shown += chunk
        out, _ = p.communicate(timeout=60)
        os.close(master)
        expect(p.returncode == 0, "carom run %s on a terminal failed (%d): %r" %
               (" ".join(args), p.returncode, shown))
        expect(b"carom: " in shown and b"%" in shown,
               "no progress on the terminal: %r" % shown[:200])
        expect(read_xyz(plain)[0][1] == read_xyz(shown_file)[0][1],
               "%s: the run on a terminal ends elsewhere than without one" % " ".join(extra))


def case_help_version(r):
    p = r.ok(["--help"], command=None)
    for k in ("carom run", "dim", "packing", "collision_log", "scenario", "seed004", "comment"):
        expect(k in p.stdout, "--help lacks %r" % k)
    p = r.ok(["--version"], command=None)
    expect(p.stdout.strip().count(".") == 2, "--version prints %r" % p.stdout)
    p = r.run(["frobnicate"], command=None)
    expect(p.returncode == USAGE and "unknown command" in p.stderr, "unknown command")


def case_config_file(r):
    d = r.json(["@good.cfg"])
    expect(d["n"] == 50 and d["seed"] == 7 and abs(d["sim_time"] - 0.5) < 1e-12, "file keys")
    expect(abs(d["packing"] - 0.2) < 1e-9, "packing from file")
    d = r.json(["@good.cfg", "n=60", "seed=9", "seed=11"])
    expect(d["n"] == 60 and d["seed"] == 11, "command line must override, last one wins")


def spheres_equal(a, b, what):
    expect(len(a) == len(b), "%s: %d spheres vs %d" % (what, len(a), len(b)))
    for k, (x, y) in enumerate(zip(a, b)):
        expect(x == y, "%s: sphere %d differs: %r vs %r" % (what, k, x, y))


def case_xyz_round_trip(r):
    for dim in (2, 3):
        a, b = r.path("rt_a_%d.xyz" % dim), r.path("rt_b_%d.xyz" % dim)
        r.ok(["dim=%d" % dim, "n=64", "time=0.3", "equilibrate=0.1", "boundary=walls",
              "final=" + a])
        r.ok(["init=" + a, "time=0", "equilibrate=0", "final=" + b])
        fa, fb = read_xyz(a), read_xyz(b)
        expect(len(fa) == 1 and len(fb) == 1, "one frame each")
        spheres_equal(fa[0][1], fb[0][1], "final -> init -> final (%dD)" % dim)
        expect(comment_value(fa[0][0], "Lattice") == comment_value(fb[0][0], "Lattice"), "box")
        expect(comment_value(fb[0][0], "dim") == str(dim), "dim key")
        expect('pbc="F F F"' in fb[0][0], "walls must be written as pbc F")
    # A hand-written 2D file without a mass column: masses default to 1.
    c = r.path("rt_c.xyz")
    r.ok(["init=@small_2d.xyz", "time=0", "equilibrate=0", "final=" + c])
    rows = read_xyz(c)[0][1]
    src = read_xyz(os.path.join(r.data, "small_2d.xyz"))[0][1]
    spheres_equal([x[:7] for x in rows], src, "small_2d.xyz")
    expect(all(x[7] == 1.0 for x in rows), "mass must default to 1")


def case_report_only_round_trip(r):
    """A report-only run's spheres pass through each other, and its final
    state, overlaps and all, loads again in report-only mode; an elastic
    run refuses it, naming the file and the overlap."""
    a = r.path("ro_final.xyz")
    r.ok(["n=300", "packing=0.45", "response=none", "equilibrate=0", "time=1", "final=" + a])
    comment, rows = read_xyz(a)[0]
    box = float(re.search(r'Lattice="([^"]*)"', comment).group(1).split()[0])
    worst = 0.0
    for i in range(len(rows)):
        for j in range(i):
            d = [rows[i][k] - rows[j][k] for k in range(3)]
            d = [x - box * round(x / box) for x in d]
            sigma = rows[i][6] + rows[j][6]
            worst = max(worst, 1.0 - math.sqrt(sum(x * x for x in d)) / sigma)
    expect(worst > 0.1, "no overlap in the report-only run's final state (%g)" % worst)
    d = r.json(["init=" + a, "response=none", "equilibrate=0", "time=1"])
    expect(d["collisions"] > 0, "no contact reported after loading: %r" % d["collisions"])
    p = r.run(["init=" + a, "equilibrate=0", "time=1"])
    expect(p.returncode != 0 and "ro_final.xyz" in p.stderr and "overlap" in p.stderr,
           "an elastic run took overlapping spheres: %d %r" % (p.returncode, p.stderr))


def case_init_temperature(r):
    a = r.path("temp_a.xyz")
    r.ok(["n=100", "time=0.1", "equilibrate=0", "final=" + a])
    d = r.json(["init=" + a, "time=0", "equilibrate=0"])
    expect(abs(d["kinetic_energy_initial"] - 150) < 1e-3, "velocities must be kept")
    d = r.json(["init=" + a, "time=0", "equilibrate=0", "temperature=3"])
    expect(abs(d["kinetic_energy_initial"] - 450) < 1e-9 * 450, "velocities must be redrawn")


def case_collision_log(r):
    log = r.path("collisions.log")
    d = r.json(["n=200", "time=1", "equilibrate=0.5", "collision_log=" + log])
    with open(log) as f:
        lines = f.read().splitlines()
    expect(len(lines) == d["collisions"], "%d log lines, %d collisions" %
           (len(lines), d["collisions"]))
    last = -math.inf
    for k, line in enumerate(lines):
        parts = line.split()
        expect(len(parts) == 3, "line %d: %r" % (k + 1, line))
        t, i, j = float(parts[0]), int(parts[1]), int(parts[2])
        expect(0 <= i < j < 200, "line %d: ids %d %d" % (k + 1, i, j))
        expect(t >= last, "line %d: time goes back" % (k + 1))
        expect(0.5 <= t <= 1.5, "line %d: time %r outside the measured run" % (k + 1, t))
        last = t


def case_trajectory(r):
    traj = r.path("traj.xyz")
    d = r.json(["dim=2", "n=100", "time=1", "equilibrate=0.5", "trajectory=" + traj,
                "frame_interval=0.25"])
    frames = read_xyz(traj)
    expect(len(frames) == 5, "expected 5 frames, got %d" % len(frames))
    times = [float(comment_value(c, "Time")) for c, _ in frames]
    expect(abs(times[0] - 0.5) < 1e-12 and abs(times[-1] - 1.5) < 1e-12, "frame times %r" % times)
    expect(all(len(rows) == 100 for _, rows in frames), "frame sizes")
    expect(d["frames"] == 5, "frames in JSON")


def case_scenarios(r):
    d = r.json(["scenario=seed003", "time=1"])
    expect(d["dim"] == 2 and d["n"] == 150 and d["box"] == [10, 15], "seed003")
    d = r.json(["scenario=seed000", "time=0.2"])
    expect(d["dim"] == 3 and d["n"] == 1000 and d["box"] == [200, 200, 200], "seed000")
    expect(d["radius"] >= 0.1 and d["radius_max"] <= 10 and d["radius_max"] > 5, "radii")
    d = r.json(["scenario=seed004", "time=0.2"])
    expect(d["dim"] == 2 and d["n"] == 8123 and d["box"] == [150, 150], "seed004")
    expect(d["gravity"] == [0, -1], "seed004 gravity %r" % d["gravity"])
    d = r.json(["scenario=seed004", "time=0.1", "n=500", "gravity=2"])
    expect(d["n"] == 500 and d["gravity"] == [0, -2], "explicit keys override presets")
    # The hopper drains: after 30 of its 60 time units most disks are
    # below the funnel's opening (y = 28), none on a segment.
    final = r.path("hopper_half.xyz")
    d = r.json(["scenario=hopper", "time=30", "final=" + final])
    expect(d["dim"] == 2 and d["segments"] == 2 and d["box"] == [60, 60], "hopper %r" % d)
    (comment, rows), = read_xyz(final)[-1:]
    below = sum(1 for row in rows if row[1] < 28)
    expect(below > 0.75 * len(rows), "hopper: %d of %d below the funnel" % (below, len(rows)))
    # The silo drains too: 874 of its 1,889 spheres start below the
    # opening (z = 10); after 20 of its 40 time units more than 1,200
    # are, none on a triangle.
    final = r.path("silo_half.xyz")
    d = r.json(["scenario=silo", "time=20", "final=" + final])
    expect(d["dim"] == 3 and d["triangles"] == 8 and d["n"] == 1889 and d["on_triangles"] == 111,
           "silo %r" % d)
    expect(d["max_overlap"] < 1e-9, "silo: max_overlap %r" % d["max_overlap"])
    (comment, rows), = read_xyz(final)[-1:]
    below = sum(1 for row in rows if row[2] < 10)
    expect(below > 1200, "silo: %d of %d below the funnel" % (below, len(rows)))


def case_few_spheres(r):
    # No lattice fits 9 to 12 spheres in a cube at the default packing 0.3:
    # they are placed at random instead, at the packing asked for.
    for n in (9, 10, 11, 12):
        d = r.json(["n=%d" % n, "time=0.5"])
        expect(d["n"] == n and abs(d["packing"] - 0.3) < 1e-9, "n=%d at packing 0.3" % n)
        expect(d["max_overlap"] < 1e-12, "n=%d: no overlap (%g)" % (n, d["max_overlap"]))
    # Asking for the lattice keeps its verdict.
    out = r.run(["n=10", "lattice=fcc"])
    expect(out.returncode == USAGE and "fcc lattice" in out.stderr, "n=10 lattice=fcc refused")


def case_equilibrate_excluded(r):
    d = r.json(["n=100", "time=0.5", "equilibrate=1"])
    expect(abs(d["sim_time"] - 0.5) < 1e-12, "sim_time counts the measured run only")
    log = r.path("eq.log")
    r.ok(["n=100", "time=0.5", "equilibrate=1", "collision_log=" + log])
    with open(log) as f:
        expect(all(float(line.split()[0]) >= 1.0 for line in f), "equilibration logged")


def case_neighbours(r):
    """The same dense scene with neighbour lists and with cells: lists are
    rebuilt instead of cells crossed, and the physics agrees (the two runs
    differ only by round-off, which chaos amplifies: Z and energy, not the
    collision sequence, are compared). A dilute scene left to choose uses
    cells."""
    args = ["n=2000", "packing=0.45", "time=2", "equilibrate=0.5"]
    runs = {m: r.json(args + ["neighbours=" + m]) for m in ("auto", "cells", "lists")}
    for m, d in runs.items():
        e = d["events_by_type"]
        lists = m != "cells"
        expect((e["list_rebuilds"] > 0) == lists and (e["cell_crossings"] > 0) != lists,
               "%s: list rebuilds %d, cell crossings %d" % (m, e["list_rebuilds"],
                                                             e["cell_crossings"]))
        expect(abs(d["kinetic_energy_final"] / d["kinetic_energy_initial"] - 1) < 1e-10,
               "%s: energy drift" % m)
        expect(0 <= d["max_overlap"] < 1e-9, "%s: max_overlap %r" % (m, d["max_overlap"]))
        expect(abs(d["compressibility"] / d["compressibility_reference"] - 1) < 0.03,
               "%s: Z = %r, Carnahan-Starling %r" % (m, d["compressibility"],
                                                       d["compressibility_reference"]))
    z = [runs[m]["compressibility"] for m in ("auto", "cells")]
    expect(abs(z[0] / z[1] - 1) < 0.03, "Z with lists %r and with cells %r" % tuple(z))
    d = r.json(["n=500", "packing=0.2", "time=1", "equilibrate=0.2"])
    expect(d["events_by_type"]["list_rebuilds"] == 0 and
           d["events_by_type"]["cell_crossings"] > 0, "a dilute gas uses cells")
    # Radii 1:2 at packing 0.3: cells as wide as the largest contact hold
    # twice the candidates, and lists are chosen there (not for one size,
    # nor for radii 1:2 below 0.28); the physics agrees with cells.
    def uses_lists(extra):
        e = r.json(["n=1500", "time=1", "equilibrate=0.3"] + extra)["events_by_type"]
        return e["list_rebuilds"] > 0 and e["cell_crossings"] == 0
    expect(uses_lists(["packing=0.3", "radius=0.5", "radius_max=1"]), "radii 1:2 at 0.3: lists")
    expect(not uses_lists(["packing=0.3"]), "one size at 0.3: cells")
    expect(not uses_lists(["packing=0.25", "radius=0.5", "radius_max=1"]),
           "radii 1:2 at 0.25: cells")
    # The same in 2D from 0.55 (disks of one size: from 0.62).
    disks = ["dim=2", "radius=0.5", "radius_max=1"]
    expect(uses_lists(disks + ["packing=0.58"]), "disks 1:2 at 0.58: lists")
    expect(not uses_lists(["dim=2", "packing=0.58"]), "disks of one size at 0.58: cells")
    expect(not uses_lists(disks + ["packing=0.5"]), "disks 1:2 at 0.5: cells")
    poly = ["n=3000", "packing=0.3", "radius=0.5", "radius_max=1", "time=3", "equilibrate=0.5"]
    z = [r.json(poly + ["neighbours=" + m])["compressibility"] for m in ("auto", "cells")]
    expect(abs(z[0] / z[1] - 1) < 0.03, "radii 1:2: Z with lists %r and with cells %r" % tuple(z))


def case_prefetch(r):
    """The loading thread only reads: with prefetch=on the same dense run
    gives the same collisions, events, Z and energy, to the last digit, as
    with prefetch=off, and the JSON says which ran (CPU time counts both
    threads). A small scene left to choose runs on one thread."""
    args = ["n=4000", "packing=0.45", "time=1", "equilibrate=0.3"]
    on, off = r.json(args + ["prefetch=on"]), r.json(args + ["prefetch=off"])
    expect(on["prefetch_thread"] is True and off["prefetch_thread"] is False,
           "prefetch_thread: on %r, off %r" % (on["prefetch_thread"], off["prefetch_thread"]))
    for key in ("collisions", "events", "compressibility", "kinetic_energy_final", "virial",
                "max_overlap"):
        expect(on[key] == off[key], "%s: on %r, off %r" % (key, on[key], off[key]))
    expect(on["events_by_type"] == off["events_by_type"], "events by type")
    expect(on["cpu_seconds"] > 0 and off["cpu_seconds"] > 0, "cpu_seconds")
    expect(r.json(args)["prefetch_thread"] is False, "4000 spheres: one thread by default")


def case_reorder(r):
    """A world of 50,000 spheres or more sorts its records in memory, but
    ids never change. A scene read in shuffled order (radii 1:2, so the
    order shows) is sorted when the world is built (reorder=auto): after
    6 time units the spheres come out in the order read, radius for
    radius, where they are with reorder=off (to round-off: the sort only
    changed the order in which ties are looked at; a sphere given
    another's id would be tens of diameters off). Run on to 12, the gas
    has mixed and the world sorts again, still keeping the order."""
    a, b = r.path("reorder_sorted.xyz"), r.path("reorder_shuffled.xyz")
    r.ok(["n=60000", "packing=0.05", "radius=0.3", "radius_max=0.6", "time=0", "equilibrate=0",
          "final=" + a])
    with open(a) as f:
        lines = f.read().splitlines()
    rows = lines[2:]
    random.Random(4).shuffle(rows)
    with open(b, "w") as f:
        f.write("\n".join(lines[:2] + rows) + "\n")
    start = read_xyz(b)[0][1]
    box = float(re.search(r'Lattice="([^ "]+)', read_xyz(b)[0][0]).group(1))

    def run(mode, time):
        path = r.path("reorder_%s_%d.xyz" % (mode, time))
        d = r.json(["init=" + b, "time=%d" % time, "equilibrate=0", "reorder=" + mode,
                    "final=" + path])
        rows = read_xyz(path)[0][1]
        expect(len(rows) == len(start) == 60000, "60,000 spheres")
        expect(all(s0[6] == x[6] for s0, x in zip(start, rows)), "%s: radii out of order" % mode)
        return d, rows

    auto, off = run("auto", 6)[1], run("off", 6)[1]
    worst = max(min(abs(x[k] - y[k]), box - abs(x[k] - y[k]))
                for x, y in zip(auto, off) for k in range(3))
    expect(worst < 1e-6, "positions with auto and off differ by up to %g" % worst)
    d = run("auto", 12)[0]
    expect(d["reorders"] >= 1, "no sort in the run to t = 12")


def read_contacts(path):
    with open(path) as f:
        return sorted((int(i), int(j), float(t)) for t, i, j in (l.split()[:3] for l in f))


def case_neighbours_report_only(r):
    """Report-only runs never change a velocity, so nothing chaotic can
    separate two ways of finding partners: with neighbour lists and with
    cells the same contacts come out, at the same times (to 1e-12), in a
    periodic box and in a walled one under gravity."""
    for extra in ([], ["boundary=walls", "gravity=1"]):
        logs = {}
        for m in ("lists", "cells"):
            path = r.path("contacts_%s_%d.txt" % (m, len(extra)))
            d = r.json(["n=1000", "packing=0.45", "response=none", "equilibrate=0", "time=1",
                        "neighbours=" + m, "collision_log=" + path] + extra)
            e = d["events_by_type"]
            expect((e["list_rebuilds"] > 0) == (m == "lists"), "%s: list rebuilds %r" % (m, e))
            logs[m] = read_contacts(path)
        a, b = logs["lists"], logs["cells"]
        expect(len(a) > 2000 and len(a) == len(b),
               "%s: %d contacts with lists, %d with cells" % (extra, len(a), len(b)))
        for x, y in zip(a, b):
            expect(x[:2] == y[:2] and abs(x[2] - y[2]) <= 1e-12 * (1 + y[2]),
                   "%s: lists %r, cells %r" % (extra, x, y))


# ---- driven spheres (issue 4) ----

EVENT_TYPES = ("collisions", "wall_hits", "cell_crossings", "bound_resets", "bound_collisions",
               "late_contacts", "bound_breaks", "invalid_events")


def check_event_breakdown(d):
    e = d["events_by_type"]
    for k in EVENT_TYPES:
        expect(isinstance(e.get(k), int) and e[k] >= 0, "events_by_type lacks %s: %r" % (k, e))
    expect(e["collisions"] == d["collisions"], "collisions")
    expect(d["events"] >= e["collisions"] + e["wall_hits"] + e["cell_crossings"] +
           e["bound_resets"], "events %d below the sum of its types %r" % (d["events"], e))
    c = d.get("computing_seconds_per_simulated_second")
    expect(isinstance(c, (int, float)) and c >= 0 and
           abs(c - d["wall_seconds"] / d["sim_time"]) <= 1e-9 * max(1.0, c),
           "computing_seconds_per_simulated_second %r" % c)


def case_kgs_forces(r):
    d = r.json(["scenario=kgs-forces", "n=100", "time=1"])
    expect(d["n"] == 100 and d["box"] == [200, 200, 200] and d["motion"] == "forces",
           "kgs-forces settings: %r" % {k: d.get(k) for k in ("n", "box", "motion")})
    expect(d["accel_bound"] == [10, 20] and d["force_interval"] == 0.1, "accel_bound")
    expect(d["radius"] >= 0.1 and d["radius_max"] <= 10, "radii")
    check_event_breakdown(d)
    e = d["events_by_type"]
    expect(e["bound_collisions"] > 0 and e["bound_resets"] > 0 and e["wall_hits"] > 0,
           "a driven run has bound events and wall hits: %r" % e)
    expect(e["late_contacts"] == 0, "late contacts %d" % e["late_contacts"])
    expect(e["bound_breaks"] == 0, "bound breaks %d" % e["bound_breaks"])
    expect(d["max_overlap"] < 1e-9, "max_overlap %r" % d["max_overlap"])
    # Random forces change the kinetic energy; the same seed gives the same run.
    d2 = r.json(["scenario=kgs-forces", "n=100", "time=1"])
    expect(d2["kinetic_energy_final"] == d["kinetic_energy_final"] and
           d2["events"] == d["events"], "same seed, different run")
    d3 = r.json(["scenario=kgs-forces", "n=100", "time=1", "seed=2"])
    expect(d3["kinetic_energy_final"] != d["kinetic_energy_final"], "seed ignored")
    # The paper's full scene over its 15 s, three seeds: every contact found
    # on time. A meeting of two bounds that neither sphere's prediction
    # covers (it happened when the meeting lazily predicted after a restart
    # was left out of the pair floor, and a cell crossing then predicted
    # only the new cells) shows up as late contacts with depth (seed 3).
    for seed in (1, 2, 3):
        d5 = r.json(["scenario=kgs-forces", "time=15", "seed=%d" % seed])
        expect(d5["events_by_type"]["late_contacts"] == 0 and d5["max_overlap"] < 1e-9,
               "seed %d: late contacts %d, max_overlap %r" %
               (seed, d5["events_by_type"]["late_contacts"], d5["max_overlap"]))
    # Beyond n = 3500 the box grows with n, at the density of 1000 in 200^3
    # (checked without running).
    d4 = r.json(["scenario=kgs-forces", "n=8000", "time=0"])
    expect(abs(d4["box"][0] - 400) < 1e-9, "box for n=8000: %r" % d4["box"])


def case_kgs_field(r):
    traj = r.path("field.xyz")
    d = r.json(["scenario=kgs-field", "n=100", "time=1", "trajectory=" + traj,
                "frame_interval=0.5"])
    expect(d["n"] == 100 and d["motion"] == "field" and d["accel_bound"] == [30, 30], "settings")
    check_event_breakdown(d)
    expect(d["kinetic_energy_initial"] == 0 and d["kinetic_energy_final"] > 0,
           "particles at rest start moving")
    expect(d["events_by_type"]["late_contacts"] == 0, "late contacts")
    frames = read_xyz(traj)
    expect(len(frames) == 3, "3 frames")
    # Speeds grow at most by A t.
    for row in frames[-1][1]:
        expect(math.sqrt(row[3] ** 2 + row[4] ** 2 + row[5] ** 2) <= 30 * 1.0 + 1e-6,
               "speed above A t: %r" % row)
        expect(all(0 < row[k] < 200 for k in range(3)), "particle outside the box: %r" % row)


def orbit_state(o, t):
    cx, cy, cz, R, w, ph, rad = o
    return (cx + R * math.cos(w * t + ph), cy + R * math.sin(w * t + ph), cz)


def orbit_reference(orbits, t_end):
    """Contact starts by fine sampling: |f'| <= L = |R_i w_i| + |R_j w_j| for
    f = distance - sigma, so an interval can hide a crossing only if
    |f(a)| + |f(b)| <= L (b - a); those are split down to 1e-9 t_end, and
    every + to - change of sign is bisected to the last bit."""
    out = []
    samples = 4000
    ts = [t_end * k / samples for k in range(samples + 1)]
    for i in range(len(orbits)):
        for j in range(i + 1, len(orbits)):
            a, b = orbits[i], orbits[j]
            sigma = a[6] + b[6]
            lip = abs(a[3] * a[4]) + abs(b[3] * b[4])

            def gap(t):
                p, q = orbit_state(a, t), orbit_state(b, t)
                return math.sqrt(sum((p[k] - q[k]) ** 2 for k in range(3))) - sigma

            f = [gap(t) for t in ts]

            def scan(t0, f0, t1, f1):
                if abs(f0) + abs(f1) <= lip * (t1 - t0) and t1 - t0 > 1e-9 * t_end:
                    m = 0.5 * (t0 + t1)
                    fm = gap(m)
                    scan(t0, f0, m, fm)
                    scan(m, fm, t1, f1)
                    return
                if f0 > 0 and f1 <= 0:
                    lo, hi = t0, t1
                    for _ in range(200):
                        m = 0.5 * (lo + hi)
                        if m <= lo or m >= hi:
                            break
                        if gap(m) > 0:
                            lo = m
                        else:
                            hi = m
                    out.append((hi, i, j))

            for k in range(samples):
                scan(ts[k], f[k], ts[k + 1], f[k + 1])
    return sorted(out, key=lambda c: (c[1], c[2], c[0]))


def compare_contacts(got, want):
    """Mismatches between two lists of (t, i, j) sorted by pair and time."""
    bad = []
    g = w = 0
    while g < len(got) or w < len(want):
        cg = got[g] if g < len(got) else None
        cw = want[w] if w < len(want) else None
        if cg and cw and cg[1:] == cw[1:] and abs(cg[0] - cw[0]) <= 1e-9 * max(1.0, abs(cw[0])):
            g, w = g + 1, w + 1
        elif cg and (not cw or (cg[1], cg[2], cg[0]) < (cw[1], cw[2], cw[0])):
            bad.append("extra %r" % (cg,))
            g += 1
        else:
            bad.append("missing %r" % (cw,))
            w += 1
    return bad


def orbit_scenes():
    import random
    rnd = random.Random(7)
    scenes = {
        # a sphere orbiting past spheres at rest, one grazing 1e-6 inside contact
        "past": [(100, 100, 100, 20, 1.3, 0.2, 1), (121, 100, 100, 0, 0, 0, 2),
                 (100, 120, 102.5, 0, 0, 0, 1), (100, 80, 100 + 2 * (1 - 1e-6), 0, 0, 0, 1)],
        # crossing circles, both senses, and a fast pair (speed 600)
        "crossing": [(90, 100, 100, 30, 2, 0, 2), (120, 100, 100, 30, 2, 2.5, 1.5),
                     (105, 100, 100.5, 25, -2.7, 1, 1), (100, 100, 99.8, 40, 15, 0.5, 0.3),
                     (110, 95, 100, 40, -13, 2, 0.25)],
    }
    rand = []
    while len(rand) < 12:
        o = (rnd.uniform(60, 140), rnd.uniform(60, 140), rnd.uniform(98, 102), rnd.uniform(5, 40),
             rnd.choice((-1, 1)) * rnd.uniform(0.5, 3), rnd.uniform(0, 2 * math.pi),
             rnd.uniform(0.5, 4))
        p = orbit_state(o, 0)
        if all(math.dist(p, orbit_state(q, 0)) > 1.01 * (o[6] + q[6]) for q in rand):
            rand.append(o)
    scenes["random12"] = rand
    return scenes


def case_orbits_collision_log(r):
    """`motion=orbits response=none` logs every contact start: compared with
    the fine-sampling reference; the comparison must catch a perturbation."""
    t_end = 10.0
    for name, orbits in orbit_scenes().items():
        path, log = r.path(name + ".orbits"), r.path(name + ".log")
        with open(path, "w") as f:
            f.write("# cx cy cz R omega phase radius\n")
            for o in orbits:
                f.write(" ".join("%.17g" % x for x in o) + "\n")
        d = r.json(["orbits=" + path, "box=200", "boundary=walls", "response=none",
                    "time=%g" % t_end, "collision_log=" + log])
        expect(d["motion"] == "orbits" and d["n"] == len(orbits), "%s: settings" % name)
        check_event_breakdown(d)
        with open(log) as f:
            got = sorted(((float(t), int(i), int(j)) for t, i, j in
                          (line.split() for line in f)), key=lambda c: (c[1], c[2], c[0]))
        want = orbit_reference(orbits, t_end)
        expect(len(want) >= 3, "%s: the scene has too few contacts (%d)" % (name, len(want)))
        bad = compare_contacts(got, want)
        expect(not bad, "%s: %d mismatches: %s" % (name, len(bad), "; ".join(bad[:5])))
        expect(d["collisions"] == len(got), "%s: collisions %d, log %d" %
               (name, d["collisions"], len(got)))
        # The check can fail: shifted by 2e-9 relative, or one contact dropped.
        shifted = [(t * (1 + 2e-9), i, j) for t, i, j in got]
        expect(compare_contacts(shifted, want), "%s: a shifted log passes" % name)
        expect(compare_contacts(got[1:], want), "%s: a log missing a contact passes" % name)


def case_msd(r):
    """msd=on: report-only spheres all at speed 2 fly straight, so the mean-
    square displacement over t = 7 is (2 t)^2 = 196 exactly, whatever the
    wraps (3D periodic; 2D with lists). In an elastic gas at packing 0.2,
    D = msd / (6 t) is above Enskog's value by the amount molecular
    dynamics has long found there (Erpenbeck and Wood: about 1.1-1.2)."""
    for keys in (["n=500", "packing=0.2"], ["dim=2", "n=400", "packing=0.2",
                                             "neighbours=lists"]):
        d = r.json(keys + ["response=none", "speed=2", "equilibrate=0", "time=7", "msd=on"])
        msd = d["mean_square_displacement"]
        expect(abs(msd - 196.0) <= 1e-9 * 196.0, "msd %r is not 196 (%s)" % (msd, keys))
        expect(abs(d["self_diffusion"] - 196.0 / (2 * d["dim"] * 7)) <= 1e-9,
               "self_diffusion %r" % d["self_diffusion"])
        expect(d["self_diffusion_enskog"] is None, "Enskog for a report-only run")
    d = r.json(["n=2000", "packing=0.2", "equilibrate=2", "time=40", "msd=on"])
    ratio = d["self_diffusion"] / d["self_diffusion_enskog"]
    expect(1.0 < ratio < 1.35, "D / D_Enskog = %r, expected about 1.1-1.2" % ratio)
    enskog = 3 / (8 * (6 * 0.2 / math.pi) * 1.0 * ((1 - 0.1) / 0.8 ** 3)) * math.sqrt(
        d["temperature_final"] / math.pi)
    expect(abs(d["self_diffusion_enskog"] / enskog - 1) < 1e-3, "Enskog's D %r, expected %r"
           % (d["self_diffusion_enskog"], enskog))
    p = r.ok(["n=300", "time=2", "msd=on"])
    expect("Enskog" in p.stdout and "msd" in p.stdout, "summary lacks msd:\n%s" % p.stdout)
    d = r.json(["n=300", "time=1"])
    expect("mean_square_displacement" not in d, "msd reported without msd=on")


def rdf_reference(path, dim, r_max, bins, shear=0.0):
    """Pair counts per bin over the frames of an XYZ trajectory: every pair
    of spheres at its nearest periodic image, as carom bins them. With a
    shear rate, the images above (below) are displaced along x by
    +(-) rate Ly Time (mod Lx) of the frame, which the frame's Lattice
    tilt (its fourth number) must be."""
    counts = [0] * bins
    for comment, rows in read_xyz(path):
        lattice = [float(x) for x in re.search(r'Lattice="([^"]*)"', comment).group(1).split()]
        box = [lattice[0], lattice[4], lattice[8]][:dim]
        offset = (shear * box[1] * float(comment_value(comment, "Time"))) % box[0]
        gap = abs(lattice[3] - offset)
        expect(min(gap, box[0] - gap) < 1e-9 * box[0],
               "a frame's Lattice tilt %r, not the offset %r" % (lattice[3], offset))
        x = [row[:dim] for row in rows]
        for i in range(len(x)):
            for j in range(i + 1, len(x)):
                d2 = 0.0
                through = round((x[i][1] - x[j][1]) / box[1])  # images above j's
                for k in range(dim):
                    d = x[i][k] - x[j][k]
                    if k == 0:
                        d -= through * offset
                        d -= box[0] * round(d / box[0])
                    elif d > 0.5 * box[k]:
                        d -= box[k]
                    elif d < -0.5 * box[k]:
                        d += box[k]
                    d2 += d * d
                if d2 < r_max * r_max:
                    counts[min(int(math.sqrt(d2) / r_max * bins), bins - 1)] += 1
    return counts


def read_rdf(path):
    with open(path) as f:
        lines = f.read().splitlines()
    expect(lines[0] == "r,g,pairs", "%s: header %r" % (path, lines[0]))
    return [tuple(float(v) for v in line.split(",")) for line in lines[1:]]


def case_rdf(r):
    """rdf=FILE: g(r) of the measured run. Its pair counts are exactly those
    of all pairs of the trajectory's frames taken at the same times (cells
    in 3D and 2D, and the all-pairs path of a small box); g tends to 1 far
    out; and the contact value g(sigma+) agrees with the one the
    collisional pressure gives (Z - 1 = 4 eta g, 2 eta g in 2D) and with
    Carnahan-Starling (Henderson in 2D). Sheared (shear=), the counts are
    those of all pairs through the displaced images too (no reference
    then: out of equilibrium)."""
    for name, keys, dim in (("cells_3d", ["n=800", "packing=0.3", "rdf_max=1.5"], 3),
                            ("cells_2d", ["dim=2", "n=600", "packing=0.5", "rdf_max=2"], 2),
                            ("all_pairs", ["n=100", "packing=0.2", "rdf_max=3",
                                           "rdf_bin=0.05"], 3),
                            ("sheared_3d", ["n=800", "packing=0.3", "rdf_max=1.5",
                                            "shear=0.5"], 3),
                            ("sheared_2d", ["dim=2", "n=600", "packing=0.5", "rdf_max=2",
                                            "shear=0.3"], 2),
                            ("sheared_pairs", ["n=100", "packing=0.2", "rdf_max=3",
                                               "rdf_bin=0.05", "shear=1"], 3)):
        csv, xyz = r.path(name + ".csv"), r.path(name + ".xyz")
        d = r.json(keys + ["equilibrate=0.5", "time=1", "rdf=" + csv, "rdf_interval=0.5",
                           "trajectory=" + xyz, "frame_interval=0.5"])
        expect(d["rdf_samples"] == 3 and d["rdf_file"] == csv, "%s: %r" % (name, d))
        rows = read_rdf(csv)
        bins = len(rows)
        expect(abs(bins * d["rdf_bin"] - d["rdf_max"]) < 1e-9, "%s: %d bins" % (name, bins))
        rate = d.get("shear_rate", 0.0)
        want = rdf_reference(xyz, dim, d["rdf_max"], bins, rate)
        got = [int(row[2]) for row in rows]
        expect(sum(want) > 1000, "%s: too few pairs (%d)" % (name, sum(want)))
        bad = [(k, got[k], want[k]) for k in range(bins) if got[k] != want[k]]
        expect(not bad, "%s: %d bins differ, e.g. %s" % (name, len(bad), bad[:3]))
        expect(all(row[2] == 0 and row[1] == 0 for row in rows if row[0] < 0.99),
               "%s: pairs closer than contact" % name)
        expect(not rate or ((name == "sheared_pairs" or d["rdf_contact"] > 1) and
                            d["rdf_contact_reference"] is None and
                            d["rdf_contact_from_pressure"] is None),
               "%s: %r" % (name, {k: d[k] for k in d if k.startswith("rdf")}))
    for keys, dim, eta in ((["n=4000", "packing=0.3", "time=10"], 3, 0.3),
                           (["dim=2", "n=4000", "packing=0.5", "time=40"], 2, 0.5)):
        csv = r.path("g%d.csv" % dim)
        d = r.json(keys + ["rdf=" + csv, "rdf_max=5"])
        g = d["rdf_contact"]
        from_z = (d["compressibility"] - 1) / ((4 if dim == 3 else 2) * eta)
        expect(abs(d["rdf_contact_from_pressure"] - from_z) < 1e-9 * from_z, "from Z %r" % d)
        expect(abs(g / from_z - 1) < 0.01, "%dD: g(sigma+) %r against %r from Z" % (dim, g, from_z))
        ref = ((1 - eta / 2) / (1 - eta) ** 3 if dim == 3
               else (1 - 7 * eta / 16) / (1 - eta) ** 2)
        expect(abs(d["rdf_contact_reference"] - ref) < 1e-12, "reference %r" % d)
        expect(abs(g / ref - 1) < 0.03, "%dD: g(sigma+) %r against %r" % (dim, g, ref))
        far = [row[1] for row in read_rdf(csv) if row[0] > 4]
        expect(abs(sum(far) / len(far) - 1) < 0.02, "%dD: g far out %r" % (dim, far[:5]))
    # Sheared slowly (rate 0.05), the fluid keeps the structure of
    # equilibrium: g(sigma+) within 3% of Carnahan-Starling's and of the
    # one its Z gives (measured 2.508, 2.478 and 2.489), g far out 1.
    csv = r.path("g_sheared.csv")
    d = r.json(["n=4000", "packing=0.3", "time=10", "shear=0.05", "rdf=" + csv, "rdf_max=5"])
    g, cs = d["rdf_contact"], (1 - 0.15) / 0.7 ** 3
    expect(abs(g / cs - 1) < 0.03 and abs(g / ((d["compressibility"] - 1) / 1.2) - 1) < 0.03,
           "sheared: g(sigma+) %r against %r, Z %r" % (g, cs, d["compressibility"]))
    far = [row[1] for row in read_rdf(csv) if row[0] > 4]
    expect(abs(sum(far) / len(far) - 1) < 0.02, "sheared: g far out %r" % far[:5])
    # Mixed sizes: g(r), no contact value; the summary names the file.
    d = r.json(["n=500", "radius=0.4", "radius_max=0.6", "rdf=on", "time=1"])
    expect(d["rdf_contact"] is None and d["rdf_samples"] == 101 and d["rdf_file"] is None,
           "mixed sizes: %r" % d)
    p = r.ok(["n=300", "time=1", "rdf=" + r.path("s.csv")])
    expect("g(r)" in p.stdout and "s.csv" in p.stdout and "Carnahan-Starling" in p.stdout,
           "summary lacks g(r):\n%s" % p.stdout)
    d = r.json(["n=300", "time=1"])
    expect("rdf_contact" not in d, "rdf reported without rdf=")


def enskog_viscosity(eta, sigma, kt, mass=1.0, dim=3):
    """Enskog's shear viscosity of hard spheres at packing eta (computed
    here independently of carom); of disks with dim=2 (Gass 1971,
    Henderson's contact value)."""
    if dim == 2:
        chi = (1 - 7 / 16 * eta) / (1 - eta) ** 2
        dilute = 1 / (2 * sigma) * math.sqrt(mass * kt / math.pi)
        return dilute * (1 / chi + 2 * eta + (1 + 8 / math.pi) * eta ** 2 * chi)
    chi = (1 - eta / 2) / (1 - eta) ** 3
    dilute = 5 / (16 * sigma ** 2) * math.sqrt(mass * kt / math.pi)
    return dilute * (1 / chi + 16 / 5 * eta + 64 / 25 * (1 + 12 / math.pi) * eta ** 2 * chi)


def read_transport(path, name):
    with open(path) as f:
        lines = f.read().splitlines()
    expect(lines and lines[0] == "lag,%s,error" % name, "%s: header %r" % (path, lines[:1]))
    return [tuple(float(v) for v in line.split(",")) for line in lines[1:]]


def check_transport_lags(rows, interval, samples, lag):
    """The CSV's lags: m = 1, 2, ... intervals up to (samples - 1) / 2,
    each next max(m + 1, floor(1.05 m)), with the reported lag's m among
    them."""
    ms = [row[0] / interval for row in rows]
    expect(all(abs(m - round(m)) < 1e-9 * m for m in ms), "lags not whole intervals: %r" % ms)
    ms = [int(round(m)) for m in ms]
    m_lag = int(round(lag / interval))
    expect(ms[0] == 1 and ms[-1] <= (samples - 1) // 2, "lags %d .. %d for %d samples"
           % (ms[0], ms[-1], samples))
    expect(m_lag in ms, "the reported lag (%d intervals) has no row" % m_lag)
    for a, b in zip(ms, ms[1:]):
        step = max(a + 1, math.floor(1.05 * a))
        expect(b == step or (a < m_lag == b < step), "lag %d after %d (expected %d)"
               % (b, a, step))
    last = ms[-1]
    expect(max(last + 1, math.floor(1.05 * last)) > (samples - 1) // 2,
           "the lags stop early at %d intervals" % last)


def shear_parts(k, dim=3):
    """The independent shear parts of a symmetric tensor k (as
    carom_viscosity takes them): the off-diagonal pairs, (k_xx - k_yy) / 2
    and in 3D (k_xx + k_yy - 2 k_zz) / (2 sqrt 3)."""
    parts = [k[a][b] for a in range(dim) for b in range(a + 1, dim)]
    parts.append((k[0][0] - k[1][1]) / 2)
    if dim == 3:
        parts.append((k[0][0] + k[1][1] - 2 * k[2][2]) / (2 * math.sqrt(3)))
    return parts


def case_viscosity(r):
    """viscosity=FILE: the shear viscosity by Einstein-Helfand, from samples
    of the stress integral. An elastic fluid at packing 0.2 (N = 500):
    eta at a lag of 5 (some 25 mean free times, near its plateau) within a
    generous factor of Enskog's value (measured: 0.85-1.09 over twenty
    seeds, 0.97 on average, each +-7%); Enskog's value as computed here;
    the CSV's row at the reported lag is the JSON's eta, its lags whole
    intervals stepping as documented. Chained with the collision log,
    which still logs every collision. An ideal gas (response=none):
    S = t K exactly (K = sum m v v^T, constant), so eta(lag) = the mean of
    the five shear parts of K squared, times lag / (2 V kT), at every lag.
    2D: eta, and Enskog's for disks. A sphere of infinite mass from an init file:
    refused by the observer, one line."""
    csv, log = r.path("eta.csv"), r.path("collisions.log")
    d = r.json(["n=500", "packing=0.2", "equilibrate=2", "time=400", "viscosity=" + csv,
                "transport_lag=5", "collision_log=" + log])
    for key in ("viscosity", "viscosity_error", "transport_lag", "transport_interval",
                "transport_samples", "viscosity_enskog", "transport_seconds"):
        expect(isinstance(d.get(key), (int, float)), "JSON %s = %r" % (key, d.get(key)))
    expect(d["viscosity_file"] == csv, "viscosity_file %r" % d["viscosity_file"])
    expect(not any(key.startswith("conductivity") for key in d),
           "conductivity reported without conductivity=")
    expect(d["transport_lag"] == 5 and d["transport_interval"] == 0.25 and
           d["transport_samples"] == 1601, "lag %r, interval %r, %r samples (expected 5, "
           "0.25, 1601)" % (d["transport_lag"], d["transport_interval"], d["transport_samples"]))
    kt = 0.5 * (d["temperature_initial"] + d["temperature_final"])
    want = enskog_viscosity(0.2, 1.0, kt)
    expect(abs(d["viscosity_enskog"] / want - 1) < 1e-12,
           "Enskog's viscosity %r, expected %r" % (d["viscosity_enskog"], want))
    ratio = d["viscosity"] / d["viscosity_enskog"]
    expect(0.6 < ratio < 1.5, "eta %r +- %r is %.3f of Enskog's %r" % (
        d["viscosity"], d["viscosity_error"], ratio, d["viscosity_enskog"]))
    expect(0 < d["viscosity_error"] < 0.3 * d["viscosity"], "error %r" % d["viscosity_error"])
    rows = read_transport(csv, "viscosity")
    check_transport_lags(rows, d["transport_interval"], d["transport_samples"],
                         d["transport_lag"])
    at_lag = [row for row in rows if row[0] == d["transport_lag"]]
    expect(len(at_lag) == 1 and at_lag[0][1] == d["viscosity"] and
           at_lag[0][2] == d["viscosity_error"],
           "CSV row at the lag %r, JSON %r +- %r" % (at_lag, d["viscosity"],
                                                      d["viscosity_error"]))
    with open(log) as f:
        logged = sum(1 for _ in f)
    expect(logged == d["collisions"], "%d log lines, %d collisions" % (logged, d["collisions"]))

    # An ideal gas: eta(lag) = <d^2> lag / (2 V kT), d the five shear parts
    # of K, at every lag.
    final = r.path("ideal.xyz")
    d = r.json(["n=200", "packing=0.2", "response=none", "equilibrate=0", "time=4",
                "viscosity=" + csv, "transport_lag=0.4", "final=" + final])
    expect(abs(d["transport_lag"] - 0.4) < 1e-12 and d["transport_samples"] == 201,
           "ideal gas: lag %r, %r samples" % (d["transport_lag"], d["transport_samples"]))
    comment, rows_xyz = read_xyz(final)[0]
    k = [[sum(row[7] * row[3 + a] * row[3 + b] for row in rows_xyz) for b in range(3)]
         for a in range(3)]
    parts = shear_parts(k)
    per_lag = sum(x ** 2 for x in parts) / len(parts) / (2 * box_volume(d) *
                                                          d["temperature_initial"])
    for lag, eta, _ in read_transport(csv, "viscosity"):
        expect(abs(eta / (per_lag * lag) - 1) < 1e-9,
               "ideal gas: eta(%r) = %r, expected %r" % (lag, eta, per_lag * lag))
    # The same in 2D, from its two parts.
    final = r.path("ideal2d.xyz")
    d = r.json(["dim=2", "n=200", "packing=0.2", "response=none", "equilibrate=0", "time=4",
                "viscosity=" + csv, "transport_lag=0.4", "final=" + final])
    comment, rows_xyz = read_xyz(final)[0]
    k = [[sum(row[7] * row[3 + a] * row[3 + b] for row in rows_xyz) for b in range(2)]
         for a in range(2)]
    parts = shear_parts(k, 2)
    per_lag = sum(x ** 2 for x in parts) / len(parts) / (2 * box_volume(d) *
                                                          d["temperature_initial"])
    for lag, eta, _ in read_transport(csv, "viscosity"):
        expect(abs(eta / (per_lag * lag) - 1) < 1e-9,
               "ideal gas 2D: eta(%r) = %r, expected %r" % (lag, eta, per_lag * lag))

    # 2D: a viscosity and Enskog's for disks; and the summary's line.
    d = r.json(["dim=2", "n=400", "packing=0.3", "time=100", "viscosity=on"])
    kt = 0.5 * (d["temperature_initial"] + d["temperature_final"])
    want = enskog_viscosity(d["packing"], 2 * d["radius"], kt, dim=2)
    expect(d["viscosity"] > 0 and abs(d["viscosity_enskog"] / want - 1) < 1e-12 and
           d["viscosity_file"] is None,
           "2D: viscosity %r, Enskog %r (expected %r), file %r" % (
               d["viscosity"], d["viscosity_enskog"], want, d["viscosity_file"]))
    # The default lag: 50 mean free times (N time / (2 collisions)) in
    # whole intervals of time/1000.
    free_time = 400 * 100 / (2 * d["collisions"])
    expect(d["transport_interval"] == 0.1 and d["transport_samples"] == 1001 and
           abs(d["transport_lag"] - 50 * free_time) <= 0.05 + 1e-12,
           "2D: lag %r (50 mean free times: %r), interval %r, %r samples" % (
               d["transport_lag"], 50 * free_time, d["transport_interval"],
               d["transport_samples"]))
    p = r.ok(["n=300", "time=10", "viscosity=on", "transport_lag=1"])
    line = [l for l in p.stdout.splitlines() if l.strip().startswith("viscosity")]
    expect(len(line) == 1 and "\u00b1" in line[0] and "at lag 1 " in line[0] and
           "Enskog" in line[0], "summary's viscosity line: %r" % line)
    d = r.json(["n=300", "time=1"])
    expect(not any(key.startswith(("viscosity", "transport")) for key in d),
           "viscosity reported without viscosity=")

    # A sphere of infinite mass (init file): the observer refuses the run.
    heavy = r.path("heavy.xyz")
    write_masses(r, heavy, 20, ["inf"])
    p = r.run(["init=" + heavy, "time=1", "viscosity=on"])
    err = p.stderr.splitlines()
    expect(p.returncode == RUNTIME and len(err) == 1 and err[0].startswith("carom: viscosity:")
           and "infinite" in err[0], "infinite mass: exit %d, stderr %r"
           % (p.returncode, p.stderr))


def box_volume(d):
    volume = 1.0
    for edge in d["box"]:
        volume *= edge
    return volume


def write_masses(r, path, n, masses):
    """An init file of n spheres of a small gas, its first spheres'
    masses replaced by `masses` (strings)."""
    state = r.path("state.xyz")
    r.ok(["n=%d" % n, "packing=0.1", "equilibrate=0", "time=0.1", "final=" + state])
    with open(state) as f:
        lines = f.read().splitlines()
    for k, mass in enumerate(masses):
        lines[2 + k] = " ".join(lines[2 + k].split()[:-1] + [mass])
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def enskog_conductivity(eta, sigma, kt, mass=1.0):
    """Enskog's thermal conductivity of hard spheres at packing eta (k_B =
    1; computed here independently of carom)."""
    chi = (1 - eta / 2) / (1 - eta) ** 3
    dilute = 75 / (64 * sigma ** 2) * math.sqrt(kt / (math.pi * mass))
    return dilute * ((1 + 12 / 5 * eta * chi) ** 2 / chi + 512 / (25 * math.pi) * eta ** 2 * chi)


def case_conductivity(r):
    """conductivity=FILE: the thermal conductivity by Einstein-Helfand,
    from samples of the heat integral Q taken at the stress's instants. An
    elastic fluid at packing 0.2 (N = 500): lambda at a lag of 5 within a
    generous factor of Enskog's value (measured: 0.77-1.13 over twenty
    seeds, 0.92 on average, each +-9%; it is still rising there: about
    1.0 on its plateau near lag 20 in a run ten times longer); Enskog's
    value as computed here; the CSV's row at the lag is the JSON's, its
    lags those of the viscosity's CSV. With viscosity= too: one set of
    samples, the same viscosity as viscosity= alone, bit for bit. An ideal
    gas (response=none): Q = t sum e v exactly (e = m v^2 / 2), so
    lambda(lag) = the mean over the axes of (sum e v)_a^2 lag / (2 V kT^2)
    at every lag. Refused at the run's start: spheres of unequal masses,
    and a net momentum (init files), each one line naming the masses or
    the momentum."""
    kcsv, ecsv = r.path("lambda.csv"), r.path("eta.csv")
    fluid = ["n=500", "packing=0.2", "equilibrate=2", "time=400", "transport_lag=5"]
    d = r.json(fluid + ["conductivity=" + kcsv, "viscosity=" + ecsv])
    for key in ("conductivity", "conductivity_error", "conductivity_enskog", "transport_lag",
                "transport_interval", "transport_samples", "transport_seconds", "viscosity"):
        expect(isinstance(d.get(key), (int, float)), "JSON %s = %r" % (key, d.get(key)))
    expect(d["conductivity_file"] == kcsv, "conductivity_file %r" % d["conductivity_file"])
    expect(d["transport_lag"] == 5 and d["transport_interval"] == 0.25 and
           d["transport_samples"] == 1601, "lag %r, interval %r, %r samples (expected 5, "
           "0.25, 1601)" % (d["transport_lag"], d["transport_interval"], d["transport_samples"]))
    kt = 0.5 * (d["temperature_initial"] + d["temperature_final"])
    want = enskog_conductivity(0.2, 1.0, kt)
    expect(abs(d["conductivity_enskog"] / want - 1) < 1e-12,
           "Enskog's conductivity %r, expected %r" % (d["conductivity_enskog"], want))
    ratio = d["conductivity"] / d["conductivity_enskog"]
    expect(0.6 < ratio < 1.5, "lambda %r +- %r is %.3f of Enskog's %r" % (
        d["conductivity"], d["conductivity_error"], ratio, d["conductivity_enskog"]))
    expect(0 < d["conductivity_error"] < 0.3 * d["conductivity"],
           "error %r" % d["conductivity_error"])
    rows = read_transport(kcsv, "conductivity")
    check_transport_lags(rows, d["transport_interval"], d["transport_samples"],
                         d["transport_lag"])
    expect([row[0] for row in rows] == [row[0] for row in read_transport(ecsv, "viscosity")],
           "the two CSVs' lags differ")
    at_lag = [row for row in rows if row[0] == d["transport_lag"]]
    expect(len(at_lag) == 1 and at_lag[0][1] == d["conductivity"] and
           at_lag[0][2] == d["conductivity_error"],
           "CSV row at the lag %r, JSON %r +- %r" % (at_lag, d["conductivity"],
                                                      d["conductivity_error"]))
    # The viscosity from the same samples is viscosity='s alone.
    with open(ecsv) as f:
        both_csv = f.read()
    alone = r.json(fluid + ["viscosity=" + ecsv])
    with open(ecsv) as f:
        alone_csv = f.read()
    expect(alone["viscosity"] == d["viscosity"] and
           alone["viscosity_error"] == d["viscosity_error"] and both_csv == alone_csv,
           "viscosity %r +- %r with conductivity=, %r +- %r without" % (
               d["viscosity"], d["viscosity_error"], alone["viscosity"],
               alone["viscosity_error"]))
    # The summary's lines, one each.
    p = r.ok(["n=300", "time=10", "viscosity=on", "conductivity=" + kcsv, "transport_lag=1"])
    lines = [l for l in p.stdout.splitlines()
             if l.strip().startswith(("viscosity", "conductivity"))]
    expect(len(lines) == 2 and lines[1].startswith("  conductivity       ") and
           "\u00b1" in lines[1] and "at lag 1 (Enskog " in lines[1] and
           lines[1].endswith(" -> " + kcsv), "summary's lines: %r" % lines)

    # An ideal gas: lambda(lag) = <(sum e v)_a^2> lag / (2 V kT^2).
    final = r.path("ideal.xyz")
    for dim in (3, 2):
        d = r.json(["dim=%d" % dim, "n=200", "packing=0.2", "response=none", "equilibrate=0",
                    "time=4", "conductivity=" + kcsv, "transport_lag=0.4", "final=" + final])
        expect(d["conductivity_enskog"] is None,  # (not hard spheres)
               "ideal gas %dD: Enskog %r" % (dim, d["conductivity_enskog"]))
        comment, rows_xyz = read_xyz(final)[0]
        flux = [0.0] * dim
        for row in rows_xyz:  # pos (3 columns), velo (3), radius, mass
            v, mass = row[3:3 + dim], row[7]
            e = mass * sum(x * x for x in v) / 2
            for a in range(dim):
                flux[a] += e * v[a]
        kt = d["temperature_initial"]
        per_lag = sum(f * f for f in flux) / dim / (2 * box_volume(d) * kt * kt)
        lags = read_transport(kcsv, "conductivity")
        expect(len(lags) > 10, "ideal gas %dD: %d lags" % (dim, len(lags)))
        for lag, lam, _ in lags:
            expect(abs(lam / (per_lag * lag) - 1) < 1e-9,
                   "ideal gas %dD: lambda(%r) = %r, expected %r" % (dim, lag, lam, per_lag * lag))

    # Unequal masses and a net momentum: refused at the start, one line.
    uneven = r.path("uneven.xyz")
    write_masses(r, uneven, 20, ["2"])
    p = r.run(["init=" + uneven, "time=1", "viscosity=on", "conductivity=on"])
    err = p.stderr.splitlines()
    expect(p.returncode == RUNTIME and len(err) == 1 and
           err[0].startswith("carom: conductivity: stress: spheres 0 and 1 have unequal masses "
                             "(2 and 1)"), "unequal masses: exit %d, stderr %r"
           % (p.returncode, p.stderr))
    expect(r.json(["init=" + uneven, "time=1", "viscosity=on"])["viscosity"] > 0,
           "unequal masses: viscosity= alone refused")
    state = r.path("state.xyz")
    with open(state) as f:
        lines = f.read().splitlines()
    fields = lines[2].split()
    fields[4] = repr(float(fields[4]) + 0.01)  # sphere 0's vx
    drifting = r.path("drifting.xyz")
    with open(drifting, "w") as f:
        f.write("\n".join(lines[:2] + [" ".join(fields)] + lines[3:]) + "\n")
    p = r.run(["init=" + drifting, "time=1", "conductivity=on"])
    err = p.stderr.splitlines()
    expect(p.returncode == RUNTIME and len(err) == 1 and
           err[0].startswith("carom: conductivity: stress: the total momentum (0.01,") and
           "not zero" in err[0], "net momentum: exit %d, stderr %r" % (p.returncode, p.stderr))


def enskog_bulk_viscosity(eta, sigma, kt, mass=1.0):
    """Enskog's bulk viscosity of hard spheres at packing eta, (4/9) rho^2
    sigma^4 chi sqrt(pi m kT) with rho = 6 eta / (pi sigma^3) (computed
    here independently of carom, which writes it from eta_0)."""
    chi = (1 - eta / 2) / (1 - eta) ** 3
    rho = 6 * eta / (math.pi * sigma ** 3)
    return 4 / 9 * rho ** 2 * sigma ** 4 * chi * math.sqrt(math.pi * mass * kt)


def case_bulk_viscosity(r):
    """bulk_viscosity=FILE: the bulk viscosity by Einstein-Helfand, from
    the samples of S that viscosity= takes. An elastic fluid at packing
    0.3 (N = 500, time 60, lag 2): kappa within a generous factor of
    Enskog's value (measured: 0.61-1.57 over twelve seeds, each +-20%);
    Enskog's value as computed here; the CSV's row at the lag is the
    JSON's, its lags those of the viscosity's CSV. With viscosity= too:
    one set of samples, the same viscosity as viscosity= alone and the same
    bulk viscosity as bulk_viscosity= alone, bit for bit. The summary's
    line, aligned with the viscosity's. An ideal gas (response=none, 3D and
    2D): tr S = 2 E t exactly, so d, tr(Delta S)/dim less its mean
    P V lag, is zero to rounding and so is kappa at every lag: below
    (1e-12 2 E T)^2 / (2 V kT lag (1 - lag/T)), T the measured time (with
    the mean left in, d = 2 E lag/dim: kappa some 10^18 times that)."""
    kcsv, ecsv = r.path("kappa.csv"), r.path("eta.csv")
    fluid = ["n=500", "packing=0.3", "equilibrate=2", "time=60", "transport_lag=2", "seed=5"]
    d = r.json(fluid + ["bulk_viscosity=" + kcsv, "viscosity=" + ecsv])
    for key in ("bulk_viscosity", "bulk_viscosity_error", "bulk_viscosity_enskog", "viscosity",
                "transport_lag", "transport_interval", "transport_samples", "transport_seconds"):
        expect(isinstance(d.get(key), (int, float)) and math.isfinite(d[key]),
               "JSON %s = %r" % (key, d.get(key)))
    expect(d["bulk_viscosity_file"] == kcsv, "bulk_viscosity_file %r" % d["bulk_viscosity_file"])
    expect(d["transport_lag"] == 2 and d["transport_interval"] == 0.1 and
           d["transport_samples"] == 601, "lag %r, interval %r, %r samples (expected 2, "
           "0.1, 601)" % (d["transport_lag"], d["transport_interval"], d["transport_samples"]))
    kt = 0.5 * (d["temperature_initial"] + d["temperature_final"])
    want = enskog_bulk_viscosity(d["packing"], 2 * d["radius"], kt)
    expect(abs(d["bulk_viscosity_enskog"] / want - 1) < 1e-12,
           "Enskog's bulk viscosity %r, expected %r" % (d["bulk_viscosity_enskog"], want))
    ratio = d["bulk_viscosity"] / d["bulk_viscosity_enskog"]
    expect(0.3 < ratio < 3, "kappa %r +- %r is %.3f of Enskog's %r" % (
        d["bulk_viscosity"], d["bulk_viscosity_error"], ratio, d["bulk_viscosity_enskog"]))
    expect(0 < d["bulk_viscosity_error"] < 0.5 * d["bulk_viscosity"],
           "error %r" % d["bulk_viscosity_error"])
    rows = read_transport(kcsv, "bulk_viscosity")
    check_transport_lags(rows, d["transport_interval"], d["transport_samples"],
                         d["transport_lag"])
    expect([row[0] for row in rows] == [row[0] for row in read_transport(ecsv, "viscosity")],
           "the two CSVs' lags differ")
    at_lag = [row for row in rows if row[0] == d["transport_lag"]]
    expect(len(at_lag) == 1 and at_lag[0][1] == d["bulk_viscosity"] and
           at_lag[0][2] == d["bulk_viscosity_error"],
           "CSV row at the lag %r, JSON %r +- %r" % (at_lag, d["bulk_viscosity"],
                                                      d["bulk_viscosity_error"]))
    # One set of samples: each coefficient as its key alone gives it.
    csvs = {}
    for path in (kcsv, ecsv):
        with open(path) as f:
            csvs[path] = f.read()
    for name, path in (("viscosity", ecsv), ("bulk_viscosity", kcsv)):
        alone = r.json(fluid + ["%s=%s" % (name, path)])
        with open(path) as f:
            alone_csv = f.read()
        expect(alone[name] == d[name] and alone[name + "_error"] == d[name + "_error"] and
               alone_csv == csvs[path], "%s %r +- %r with both keys, %r +- %r alone" % (
                   name, d[name], d[name + "_error"], alone[name], alone[name + "_error"]))
        other = "bulk_viscosity" if name == "viscosity" else "viscosity"
        expect(other not in alone and "conductivity" not in alone and
               alone["transport_samples"] == 601, "%s alone: JSON %r" % (name, sorted(alone)))
    # The summary's line, its number in the viscosity line's column.
    p = r.ok(fluid + ["viscosity=on", "bulk_viscosity=" + kcsv])
    lines = [l for l in p.stdout.splitlines()
             if l.strip().startswith(("viscosity", "bulk viscosity"))]
    expect(len(lines) == 2 and lines[1].startswith("  bulk viscosity     ") and
           "\u00b1" in lines[1] and "at lag 2 (Enskog " in lines[1] and
           lines[1].endswith(" -> " + kcsv) and
           all(l[20] == " " and l[21].isdigit() for l in lines), "summary's lines: %r" % lines)
    # Two windows of the lag in the run: no error (JSON null), and the
    # summary's line says so rather than printing nan.
    few = ["n=300", "time=10", "transport_lag=4", "bulk_viscosity=on"]
    d = r.json(few)
    expect(math.isfinite(d["bulk_viscosity"]) and d["bulk_viscosity_error"] is None,
           "two windows: kappa %r, error %r" % (d["bulk_viscosity"], d["bulk_viscosity_error"]))
    p = r.ok(few)
    line = [l for l in p.stdout.splitlines() if l.strip().startswith("bulk viscosity")]
    expect(len(line) == 1 and "\u00b1" not in line[0] and "nan" not in line[0] and
           " (no error: too few windows of the lag) at lag 4 (Enskog " in line[0],
           "two windows: summary's line %r" % line)

    # An ideal gas: kappa zero to rounding at every lag, 3D and 2D.
    for dim in (3, 2):
        d = r.json(["dim=%d" % dim, "n=200", "packing=0.2", "response=none", "equilibrate=0",
                    "time=4", "bulk_viscosity=" + kcsv, "transport_lag=0.4"])
        expect(d["bulk_viscosity_enskog"] is None,  # (not hard spheres)
               "ideal gas %dD: Enskog %r" % (dim, d["bulk_viscosity_enskog"]))
        span, volume, kt = d["sim_time"], box_volume(d), d["temperature_initial"]
        rounding = (1e-12 * 2 * d["kinetic_energy_initial"] * span) ** 2 / (2 * volume * kt)
        lags = read_transport(kcsv, "bulk_viscosity")
        expect(len(lags) > 10, "ideal gas %dD: %d lags" % (dim, len(lags)))
        for lag, kappa, _ in lags + [(d["transport_lag"], d["bulk_viscosity"], None)]:
            bound = rounding / (lag * (1 - lag / span))
            expect(math.isfinite(kappa) and abs(kappa) < bound,
                   "ideal gas %dD: kappa(%r) = %r, not zero within %r" % (dim, lag, kappa, bound))


def case_planes(r):
    """planes=: fixed planes. A V-shaped valley of two inclines under
    gravity in 2D: the spheres the placement put behind them are left out
    (counted), and no sphere of the final state is behind a plane; a
    tilted plane in a 3D walled box keeps an elastic gas's energy. An
    initial state with a sphere behind a plane is refused naming the
    file and the plane. Disks compressed into a wedge until they jam stay
    in front of both planes."""
    final = r.path("valley.xyz")
    d = r.json(["dim=2", "n=500", "box=40", "boundary=walls", "gravity=1",
                "planes=-1,2,-8/1,2,32", "restitution=0.9", "restitution_min_speed=0.5",
                "time=10", "final=" + final])
    expect(d["planes"] == 2 and d["behind_planes"] > 50, "valley: %r" % d)
    expect(d["n"] + d["behind_planes"] == 500, "valley: n %r" % d["n"])
    expect(d["events_by_type"]["wall_hits"] > 100, "valley: few hits %r" % d["events_by_type"])
    (comment, rows), = read_xyz(final)[-1:]
    expect(len(rows) == d["n"], "valley: %d rows" % len(rows))
    for a, b, c in ((-1, 2, -8), (1, 2, 32)):
        length = math.hypot(a, b)
        worst = max(c / length + row[6] - (a * row[0] + b * row[1]) / length for row in rows)
        expect(worst < 1e-9, "valley: a sphere %r behind plane %r" % (worst, (a, b, c)))
    d = r.json(["n=800", "packing=0.2", "boundary=walls", "planes=1,1,1,4", "time=5"])
    expect(d["behind_planes"] > 0 and d["collisions"] > 10000, "3D plane: %r" % d)
    expect(abs(d["kinetic_energy_relative_change"]) < 1e-9, "3D plane: energy %r" % d)
    init = r.path("behind.xyz")
    with open(init, "w") as f:
        f.write('2\nLattice="10 0 0 0 10 0 0 0 10" '
                'Properties=species:S:1:pos:R:3:velo:R:3:radius:R:1:mass:R:1 pbc="F F F"\n'
                "A 2 5 5 1 0 0 0.5 1\nA 5 1 5 0 0 0 0.5 1\n")
    p = r.run(["init=" + init, "planes=0,1,0,2", "time=1"])
    lines = p.stderr.splitlines()
    expect(p.returncode == 2 and len(lines) == 1 and init in lines[0] and
           "sphere 1 (radius 0.5) is behind plane 0" in lines[0], "behind: %r" % p.stderr)
    p = r.ok(["dim=2", "n=100", "boundary=walls", "planes=1,1,4", "time=1"])
    expect("planes             1 fixed" in p.stdout, "summary lacks planes:\n%s" % p.stdout)
    # Compressed (growing spheres) into a wedge until they jam: none ends
    # behind either plane, and none overlaps another.
    wedge = r.path("wedge.xyz")
    d = r.json(["dim=2", "n=600", "packing=0.4", "boundary=walls", "planes=-1,2,-20/1,2,60",
                "compress=jam", "time=0.5", "final=" + wedge])
    # (Packing fractions count the whole box: the disks kept fill about
    # 0.14 of it at the start, and fill the part in front of the planes.)
    expect(d["packing_compressed"] > 2 * d["packing"] and d["max_overlap"] < 1e-9,
           "wedge: %r" % d)
    (comment, rows), = read_xyz(wedge)[-1:]
    for a, b, c in ((-1, 2, -20), (1, 2, 60)):
        length = math.hypot(a, b)
        worst = max(c / length + row[6] - (a * row[0] + b * row[1]) / length for row in rows)
        expect(worst < 1e-9, "wedge: a sphere %r behind plane %r" % (worst, (a, b, c)))


def case_segments(r):
    """segments=: fixed segments (2D). A hopper (a funnel of two segments
    over a shelf) under gravity: the disks the placement put on them are
    left out (counted), they pour through and pile up, and no disk of the
    final state is nearer than its radius to a segment; an initial state
    with a disk on a segment is refused naming the file and the
    segment."""
    segments = [(0, 30, 18, 20), (40, 30, 22, 20), (10, 8, 30, 8)]
    final = r.path("hopper.xyz")
    d = r.json(["dim=2", "n=600", "box=40", "boundary=walls", "gravity=5", "restitution=0.8",
                "restitution_min_speed=1",
                "segments=" + "/".join(",".join(str(v) for v in g) for g in segments),
                "time=10", "final=" + final])
    expect(d["segments"] == 3 and d["on_segments"] > 5, "hopper: %r" % d)
    expect(d["n"] + d["on_segments"] == 600, "hopper: n %r" % d["n"])
    expect(d["events_by_type"]["wall_hits"] > 1000, "hopper: few hits %r" % d["events_by_type"])
    (comment, rows), = read_xyz(final)[-1:]
    below = sum(1 for row in rows if row[1] < 20)
    expect(below > len(rows) // 2, "hopper: only %d of %d disks below the funnel"
           % (below, len(rows)))
    worst = 0.0
    for x0, y0, x1, y1 in segments:
        dx, dy = x1 - x0, y1 - y0
        for row in rows:
            u = max(0.0, min(1.0, ((row[0] - x0) * dx + (row[1] - y0) * dy) / (dx * dx + dy * dy)))
            dist = math.hypot(row[0] - x0 - u * dx, row[1] - y0 - u * dy)
            worst = max(worst, 1.0 - dist / row[6])
    expect(worst < 1e-9, "hopper: a disk %r of its radius into a segment" % worst)
    init = r.path("on_segment.xyz")
    with open(init, "w") as f:
        f.write('2\nLattice="10 0 0 0 10 0 0 0 1" '
                'Properties=species:S:1:pos:R:3:velo:R:3:radius:R:1:mass:R:1 pbc="F F F" '
                "dim=2\nA 2 5 0 1 0 0 0.5 1\nA 5 1.3 0 0 0 0 0.5 1\n")
    p = r.run(["init=" + init, "segments=4,1,8,1", "time=1"])
    lines = p.stderr.splitlines()
    expect(p.returncode == 2 and len(lines) == 1 and init in lines[0] and
           "sphere 1 (radius 0.5) overlaps segment 0" in lines[0], "on segment: %r" % p.stderr)
    p = r.ok(["dim=2", "n=100", "boundary=walls", "segments=1,1,4,4", "time=1"])
    expect("segments           1 fixed" in p.stdout, "summary lacks segments:\n%s" % p.stdout)


def case_triangles(r):
    """triangles=: fixed triangles (3D). Two triangles make a tilted floor,
    the plane z = 2 - (x + y)/10, across a 10^3 box with walls. The
    spheres the placement puts on it are left out (counted); under
    gravity the others fall (those above onto the floor, those below it
    onto the box's) and bounce: in every frame each sphere is on the side
    of the floor it started on, at least its radius from both triangles;
    most of those above come down to the floor; kinetic plus potential
    energy is kept (elastic). An initial state with a sphere on a triangle
    is refused naming the file and the triangle; spheres compressed until
    they jam stay clear of the triangles."""
    corners = [((0, 0, 2), (10, 0, 1), (0, 10, 1)), ((10, 0, 1), (10, 10, 0), (0, 10, 1))]
    floor = "triangles=" + "/".join(",".join(str(v) for c in t for v in c) for t in corners)
    start, final, traj = r.path("floor_start.xyz"), r.path("floor.xyz"), r.path("floor_traj.xyz")
    d = r.json(["dim=3", "n=200", "box=10", "boundary=walls", "radius=0.3", "gravity=0,0,-1",
                "speed=0", floor, "equilibrate=0", "time=0", "final=" + start])
    expect(d["triangles"] == 2 and d["on_triangles"] > 3, "floor: %r" % d)
    expect(d["n"] + d["on_triangles"] == 200, "floor: n %r" % d["n"])
    d = r.json(["init=" + start, "gravity=0,0,-1", floor, "time=10", "frame_interval=0.05",
                "trajectory=" + traj, "final=" + final])
    expect(d["triangles"] == 2 and d["on_triangles"] == 0, "floor from init: %r" % d)
    expect(d["events_by_type"]["wall_hits"] > 200, "floor: few hits %r" % d["events_by_type"])
    expect(0 <= d["max_overlap"] < 1e-9, "floor: max_overlap %r" % d["max_overlap"])

    def above(row):  # the centre's signed distance from the floor's plane
        return (row[2] - 2 + (row[0] + row[1]) / 10) / math.sqrt(1.02)

    def energy(rows):  # kinetic + potential (g = 1 along -z)
        return sum(row[7] * (0.5 * (row[3] ** 2 + row[4] ** 2 + row[5] ** 2) + row[2])
                   for row in rows)

    (_, first), = read_xyz(start)
    side = [above(row) > 0 for row in first]
    expect(sum(side) > 150 and not all(side), "floor: %d of %d above" % (sum(side), len(side)))
    lowest = [math.inf] * len(first)
    worst = 0.0
    for comment, rows in read_xyz(traj):
        expect(len(rows) == len(first), "floor: %d rows" % len(rows))
        for i, row in enumerate(rows):
            h = above(row)
            expect((h > 0) == side[i], "floor: sphere %d crossed it (%s)" % (i, comment))
            lowest[i] = min(lowest[i], h / row[6])
            for t in corners:
                worst = max(worst, 1.0 - triangle_distance(row[:3], t) / row[6])
    expect(worst < 1e-9, "floor: a sphere %r of its radius into a triangle" % worst)
    # (Frames 0.05 apart see a sphere falling at 4.4 within 0.73 radii of
    # the contact; some of those from high up meet others bouncing back.)
    landed = sum(1 for i in range(len(first)) if side[i] and lowest[i] < 1.75)
    expect(landed > 0.7 * sum(side), "floor: only %d of %d above came down to it"
           % (landed, sum(side)))
    expect(min(lowest[i] for i in range(len(first)) if side[i]) < 1.01, "floor: none touched")
    (_, last), = read_xyz(final)
    e0, e1 = energy(first), energy(last)
    expect(abs(e1 / e0 - 1) < 1e-9, "floor: energy %r -> %r" % (e0, e1))
    init = r.path("on_triangle.xyz")
    with open(init, "w") as f:
        f.write('2\nLattice="10 0 0 0 10 0 0 0 10" '
                'Properties=species:S:1:pos:R:3:velo:R:3:radius:R:1:mass:R:1 pbc="F F F"\n'
                "A 2 5 5 1 0 0 0.5 1\nA 5 5 1.3 0 0 0 0.5 1\n")
    p = r.run(["init=" + init, "triangles=1,1,1,9,1,1,5,9,1", "time=1"])
    lines = p.stderr.splitlines()
    expect(p.returncode == 2 and len(lines) == 1 and init in lines[0] and
           "sphere 1 (radius 0.5) overlaps triangle 0" in lines[0], "on triangle: %r" % p.stderr)
    p = r.ok(["n=100", "box=10", "boundary=walls", floor, "time=1"])
    expect("triangles          2 fixed" in p.stdout, "summary lacks triangles:\n%s" % p.stdout)
    # Grown until they jam: none overlaps a triangle.
    jammed = r.path("floor_jammed.xyz")
    d = r.json(["n=300", "packing=0.1", "boundary=walls", floor, "compress=jam", "time=0.1",
                "equilibrate=0", "final=" + jammed])
    expect(d["packing_compressed"] > 3 * d["packing"] and d["max_overlap"] < 1e-9,
           "jammed: %r" % d)
    (_, rows), = read_xyz(jammed)
    worst = max(1.0 - triangle_distance(row[:3], t) / row[6] for row in rows for t in corners)
    expect(worst < 1e-9, "jammed: a sphere %r of its radius into a triangle" % worst)
    # Driven by random forces (A up to 20): they bounce off the triangles
    # too, every contact at its time (none late), none ever inside one.
    traj = r.path("floor_forces.xyz")
    d = r.json(["n=60", "box=10", "boundary=walls", "radius=0.3", floor, "motion=forces",
                "accel_bound=10,20", "time=3", "frame_interval=0.01", "trajectory=" + traj])
    e = d["events_by_type"]
    expect(d["motion"] == "forces" and d["triangles"] == 2 and e["wall_hits"] > 20,
           "forces: %r" % e)
    expect(e["late_contacts"] == 0 and e["bound_breaks"] == 0, "forces: late %r" % e)
    expect(d["max_overlap"] < 1e-9, "forces: max_overlap %r" % d["max_overlap"])
    worst = max(1.0 - triangle_distance(row[:3], t) / row[6]
                for _, rows in read_xyz(traj) for row in rows for t in corners)
    expect(worst < 1e-9, "forces: a sphere %r of its radius into a triangle" % worst)


def segment_image_distance(x, seg, box):
    """The distance from disk centre x to the nearest image of segment seg
    (x0, y0, x1, y1) in a box periodic along both axes (independent of
    carom)."""
    best = math.inf
    for i in (-1, 0, 1):
        for j in (-1, 0, 1):
            ax, ay = seg[0] + i * box, seg[1] + j * box
            dx, dy = seg[2] - seg[0], seg[3] - seg[1]
            u = ((x[0] - ax) * dx + (x[1] - ay) * dy) / (dx * dx + dy * dy)
            u = min(1.0, max(0.0, u))
            best = min(best, math.hypot(x[0] - ax - u * dx, x[1] - ay - u * dy))
    return best


def case_segments_periodic(r):
    """segments= with periodic axes: a floor at y = 2 across the whole
    width of a 10 x 10 box periodic along x (walls along y), under
    gravity; the disks wrap and cross its ends, none ever crosses it or
    comes nearer than its radius to it, and energy is kept (elastic).
    Walls at x = 0.1 and y = 9.95 in a box periodic both ways: the
    placement leaves out exactly the disks on them, through the boundary
    too."""
    floor = (0, 2, 10, 2)
    start, traj = r.path("psegs_start.xyz"), r.path("psegs.xyz")
    d = r.json(["dim=2", "n=60", "box=10", "boundary=periodic,walls", "radius=0.3",
                "gravity=1", "speed=1", "segments=0,2,10,2", "equilibrate=0", "time=0",
                "final=" + start])
    expect(d["segments"] == 1 and d["n"] + d["on_segments"] == 60, "periodic floor: %r" % d)
    d = r.json(["init=" + start, "boundary=periodic,walls", "gravity=1", "segments=0,2,10,2",
                "time=10", "frame_interval=0.05", "trajectory=" + traj])
    e = d["events_by_type"]
    expect(e["wall_hits"] > 50 and e["cell_crossings"] > 0 and d["max_overlap"] < 1e-9,
           "periodic floor: %r" % e)
    frames = read_xyz(traj)
    side = [row[1] > 2 for row in frames[0][1]]
    expect(sum(side) > 10 and not all(side), "periodic floor: %d above" % sum(side))
    worst = 0.0
    for comment, rows in frames:
        for i, row in enumerate(rows):
            expect((row[1] > 2) == side[i], "periodic floor: disk %d crossed (%s)" % (i, comment))
            worst = max(worst, 1.0 - segment_image_distance(row, floor, 10.0) / row[6])
    expect(worst < 1e-9, "periodic floor: a disk %r of its radius into the floor" % worst)

    def energy(rows):  # kinetic + potential (g = 1 along -y)
        return sum(row[7] * (0.5 * (row[3] ** 2 + row[4] ** 2) + row[1]) for row in rows)
    e0, e1 = energy(frames[0][1]), energy(frames[-1][1])
    expect(abs(e1 / e0 - 1) < 1e-9, "periodic floor: energy %r -> %r" % (e0, e1))
    # Two more walls: the placement leaves out exactly the disks the same
    # lattice without them puts within a radius of a wall or of an image
    # (the second wall, at y = 9.95, reaches the lattice's lowest row only
    # through the boundary, as its image at y = -0.05).
    walls, end, bare = [(0.1, 2, 0.1, 8), (2, 9.95, 8, 9.95)], r.path("pseg_wall.xyz"), \
        r.path("pseg_bare.xyz")
    r.json(["dim=2", "n=200", "box=10", "radius=0.3", "time=0", "equilibrate=0", "final=" + bare])
    (_, placed), = read_xyz(bare)
    on = [min(segment_image_distance(row, w, 10.0) for w in walls) < row[6] for row in placed]
    through = sum(1 for row in placed if 0 < segment_image_distance(row, walls[1], 10.0) < row[6])
    d = r.json(["dim=2", "n=200", "box=10", "radius=0.3",
                "segments=" + "/".join(",".join(str(v) for v in w) for w in walls), "time=1",
                "equilibrate=0", "final=" + end])
    expect(through > 0 and d["on_segments"] == sum(on) and d["n"] + d["on_segments"] == 200 and
           d["max_overlap"] < 1e-9, "periodic wall: %r, %d disks on the walls in the lattice, %d "
           "through the boundary" % (d, sum(on), through))
    (_, rows), = read_xyz(end)
    worst = max(1.0 - min(segment_image_distance(row, w, 10.0) for w in walls) / row[6]
                for row in rows)
    expect(worst < 1e-9, "periodic wall: a disk %r of its radius into a wall" % worst)


def case_triangles_periodic(r):
    """triangles= with periodic axes: a flat floor at z = 2 of two
    triangles over the whole 10 x 10 square, periodic along x and y
    (walls along z), under gravity. The triangles are repeated across the
    periodic axes: no sphere ever crosses the floor, in no frame is one
    nearer than its radius to a triangle's nearest image (the spheres
    wrap and cross the square's edges), and kinetic plus potential energy
    is kept (elastic). A wall at x = 0.1 in a box periodic every way: the
    placement leaves out the spheres that overlap it through the boundary
    (near x = 10), and the run goes on."""
    corners = [((0, 0, 2), (10, 0, 2), (10, 10, 2)), ((0, 0, 2), (10, 10, 2), (0, 10, 2))]
    floor = "triangles=" + "/".join(",".join(str(v) for c in t for v in c) for t in corners)
    images = [tuple((c[0] + 10 * i, c[1] + 10 * j, c[2]) for c in t)
              for t in corners for i in (-1, 0, 1) for j in (-1, 0, 1)]
    start, final, traj = r.path("pfloor_start.xyz"), r.path("pfloor.xyz"), r.path("pfloor.traj")
    d = r.json(["dim=3", "n=150", "box=10", "boundary=periodic,periodic,walls", "radius=0.3",
                "gravity=0,0,-1", "speed=1", floor, "equilibrate=0", "time=0",
                "final=" + start])
    expect(d["triangles"] == 2 and d["on_triangles"] > 3, "periodic floor: %r" % d)
    d = r.json(["init=" + start, "boundary=periodic,periodic,walls", "gravity=0,0,-1", floor,
                "time=10", "frame_interval=0.05", "trajectory=" + traj, "final=" + final])
    expect(d["triangles"] == 2 and d["events_by_type"]["wall_hits"] > 200 and
           d["events_by_type"]["cell_crossings"] > 0, "periodic floor: %r" % d["events_by_type"])
    expect(0 <= d["max_overlap"] < 1e-9, "periodic floor: max_overlap %r" % d["max_overlap"])
    (_, first), = read_xyz(start)
    side = [row[2] > 2 for row in first]
    expect(sum(side) > 50 and not all(side), "periodic floor: %d of %d above"
           % (sum(side), len(side)))
    worst = 0.0
    for comment, rows in read_xyz(traj):
        for i, row in enumerate(rows):
            expect((row[2] > 2) == side[i], "periodic floor: sphere %d crossed it (%s)"
                   % (i, comment))
        worst = max(worst, worst_into(rows, images))
    expect(worst < 1e-9, "periodic floor: a sphere %r of its radius into a triangle" % worst)
    (_, last), = read_xyz(final)

    def energy(rows):  # kinetic + potential (g = 1 along -z)
        return sum(row[7] * (0.5 * (row[3] ** 2 + row[4] ** 2 + row[5] ** 2) + row[2])
                   for row in rows)
    e0, e1 = energy(first), energy(last)
    expect(abs(e1 / e0 - 1) < 1e-9, "periodic floor: energy %r -> %r" % (e0, e1))
    # A wall at x = 0.1 in a box periodic every way: the placement leaves
    # out the spheres on it through the boundary too (near x = 10).
    wall = (0.1, 2, 2), (0.1, 8, 2), (0.1, 5, 8)
    placed_end = r.path("pwall.xyz")
    d = r.json(["n=500", "box=10", "radius=0.3", "triangles=" + ",".join(
        str(v) for c in wall for v in c), "time=1", "equilibrate=0", "final=" + placed_end])
    expect(d["on_triangles"] > 0 and d["n"] + d["on_triangles"] == 500 and
           d["max_overlap"] < 1e-9, "periodic wall: %r" % d)
    (_, rows), = read_xyz(placed_end)
    wall_images = [tuple((c[0] + 10 * i, c[1] + 10 * j, c[2] + 10 * k) for c in wall)
                   for i in (-1, 0, 1) for j in (-1, 0, 1) for k in (-1, 0, 1)]
    expect(worst_into(rows, wall_images) < 1e-9, "periodic wall: a sphere on the wall's image")


def bowl_obj(path):
    """A square bowl in unit coordinates: a floor of 3 x 3 squares (18
    triangles sharing edges) at z = 1/8 over [1/4, 3/4]^2, and four sides
    from its edges up to the rim [0, 1]^2 at z = 3/8 (two triangles each,
    one side a quad that Assimp triangulates); two faces without area and
    a line, which are skipped. Faces are written floor first. Returns the
    26 triangles (unit coordinates)."""
    grid = [0.25, 0.25 + 1 / 6, 0.75 - 1 / 6, 0.75]
    vertices, faces, triangles = [], [], []

    def vertex(p):
        vertices.append(p)
        return len(vertices)

    floor = [[vertex((x, y, 0.125)) for x in grid] for y in grid]
    rim = [vertex(p) for p in [(0, 0, 0.375), (1, 0, 0.375), (1, 1, 0.375), (0, 1, 0.375)]]
    middle = vertex((0.5, 0, 0.375))
    for j in range(3):
        for i in range(3):
            a, b, c, d = floor[j][i], floor[j][i + 1], floor[j + 1][i + 1], floor[j + 1][i]
            faces += [(a, b, c), (a, c, d)]
    corners = [floor[0][0], floor[0][3], floor[3][3], floor[3][0]]
    for k in range(4):
        a, b, c, d = corners[k], corners[(k + 1) % 4], rim[(k + 1) % 4], rim[k]
        faces += [(a, b, c, d)] if k == 3 else [(a, b, c), (a, c, d)]
    for f in faces:
        triangles += [(f[0], f[1], f[2])] + ([(f[0], f[2], f[3])] if len(f) == 4 else [])
    with open(path, "w") as out:
        out.write("# carom's test bowl\no bowl\n")
        out.writelines("v %r %r %r\n" % p for p in vertices)
        out.writelines("f " + " ".join(map(str, f)) + "\n" for f in faces)
        # No area: a corner twice, three corners on a line; and a line.
        out.write("f %d %d %d\nf %d %d %d\nl %d %d\n"
                  % (rim[0], rim[0], rim[1], rim[0], middle, rim[1], rim[0], rim[2]))
    return [tuple(vertices[k - 1] for k in t) for t in triangles]


def placed(triangles, scale, shift):
    return [tuple(tuple(c[k] * scale + shift[k] for k in range(3)) for c in t)
            for t in triangles]


def worst_into(rows, triangles):
    """Largest fraction of its radius by which a sphere reaches into a
    triangle (the distance only where its bounding box is near)."""
    worst = 0.0
    boxes = [([min(c[k] for c in t) for k in range(3)], [max(c[k] for c in t) for k in range(3)])
             for t in triangles]
    for row in rows:
        x, r = row[:3], row[6]
        for t, (lo, hi) in zip(triangles, boxes):
            if all(lo[k] - r <= x[k] <= hi[k] + r for k in range(3)):
                worst = max(worst, 1.0 - triangle_distance(x, t) / r)
    return worst


def case_segments_file(r):
    """segments_file=FILE: fixed segments from a text file, one 'x0 y0 x1
    y1' a line (or a path through more points), numbered after
    segments='s. Five segments given by segments=, by the file (comments,
    blank lines, tabs, CRLF), or split between the two, make the same run
    to the last bit; so does a square as one closed path; the example
    examples/shelves.txt loads. A board of 120
    (beyond segments='s 16) under gravity: counted in the JSON, no disk
    of the final state nearer than its radius to any. Every bad line is
    refused naming the file, the line and the field; 3D and viscosity=
    are refused naming the key."""
    five = [(5, 30, 15, 25), (35, 30, 25, 25), (10, 12, 30, 12), (2, 5, 8, 2), (38, 5, 32, 2)]
    keyed = "segments=" + "/".join(",".join(str(v) for v in g) for g in five)
    path = r.path("five.txt")
    with open(path, "w", newline="") as f:
        f.write("# five segments\n\n")
        for k, g in enumerate(five):
            f.write("%s%s  # segment %d%s" % ("\t" if k == 1 else "", " ".join(str(v) for v in g),
                                             k, "\r\n" if k == 2 else "\n"))
    tail = r.path("three.txt")
    with open(tail, "w") as f:
        f.write("".join(" ".join(str(v) for v in g) + "\n" for g in five[2:]))
    base = ["dim=2", "n=300", "box=40", "boundary=walls", "gravity=3", "restitution=0.9",
            "time=3"]
    runs = {}
    for name, keys in [("keyed", [keyed]), ("file", ["segments_file=" + path]),
                       ("split", ["segments=" + "/".join(",".join(str(v) for v in g)
                                                         for g in five[:2]),
                                  "segments_file=" + tail])]:
        final = r.path("five_%s.xyz" % name)
        d = r.json(base + keys + ["final=" + final])
        with open(final) as f:
            runs[name] = (d["segments"], d["on_segments"], d["collisions"], d["events_by_type"],
                          f.read())
        if name != "keyed":
            expect(d["segments_file"]["segments"] == (5 if name == "file" else 3) and
                   d["segments_file"]["file"].endswith(".txt"), "%s: %r" % (name, d))
    expect(runs["keyed"][0] == 5 and runs["keyed"][3]["wall_hits"] > 100,
           "five segments: %r" % (runs["keyed"][:4],))
    for name in ("file", "split"):
        expect(runs[name] == runs["keyed"], "segments_file (%s) differs from segments=: %r vs %r"
               % (name, runs[name][:4], runs["keyed"][:4]))
    # A path: a closed outline through five points is four segments.
    square = [(5, 5, 35, 5), (35, 5, 35, 35), (35, 35, 5, 35), (5, 35, 5, 5)]
    outline = r.path("outline.txt")
    with open(outline, "w") as f:
        f.write("5 5 35 5 35 35 5 35 5 5  # a square\n")
    runs = []
    for keys in (["segments=" + "/".join(",".join(str(v) for v in g) for g in square)],
                 ["segments_file=" + outline]):
        final = r.path("outline_%d.xyz" % len(runs))
        d = r.json(base + keys + ["final=" + final])
        with open(final) as f:
            runs.append((d["segments"], d["on_segments"], d["collisions"], d["events_by_type"],
                         f.read()))
    expect(runs[0][0] == 4 and runs[1] == runs[0], "outline: %r vs %r" % (runs[1][:4], runs[0][:4]))
    board = []
    for row in range(8):
        for k in range(15):
            x = 3 + 6.2 * k + (3 if row % 2 else 0)
            board.append((x, 70 - 6 * row, x + 2, 68.5 - 6 * row))
    board_path = r.path("board.txt")
    with open(board_path, "w") as f:
        f.write("".join("%r %r %r %r\n" % g for g in board))
    shelf = (0, 20, 60, 10)
    final = r.path("board.xyz")
    d = r.json(["dim=2", "n=800", "box=100", "boundary=walls", "gravity=2",
                "segments=%d,%d,%d,%d" % shelf, "segments_file=" + board_path, "time=4",
                "final=" + final])
    expect(d["segments"] == 121 and d["segments_file"]["segments"] == 120 and
           d["n"] + d["on_segments"] == 800 and d["on_segments"] > 0 and
           d["events_by_type"]["wall_hits"] > 500 and d["max_overlap"] < 1e-9,
           "board: %r" % d)
    (_, rows), = read_xyz(final)
    worst = 0.0
    for x0, y0, x1, y1 in [shelf] + board:
        dx, dy = x1 - x0, y1 - y0
        for row in rows:
            u = max(0.0, min(1.0, ((row[0] - x0) * dx + (row[1] - y0) * dy) / (dx * dx + dy * dy)))
            worst = max(worst, 1.0 - math.hypot(row[0] - x0 - u * dx, row[1] - y0 - u * dy) / row[6])
    expect(worst < 1e-9, "board: a disk %r of its radius into a segment" % worst)
    shelves = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples",
                           "shelves.txt")
    d = r.json(["dim=2", "n=2000", "box=100", "boundary=walls", "gravity=5", "restitution=0.8",
                "segments_file=" + shelves, "time=1"])
    expect(d["segments"] == 14 and d["on_segments"] > 0 and d["max_overlap"] < 1e-9,
           "examples/shelves.txt: %r" % d)
    p = r.ok(["dim=2", "n=100", "box=100", "boundary=walls", "segments_file=" + board_path,
              "time=0.1"])
    expect("segments_file      %s: 120 segments" % board_path in p.stdout,
           "summary lacks segments_file:\n%s" % p.stdout)
    bad = [("1 2 3\n", ":1: 3 numbers: expected the points of a segment or a path"),
           ("# c\n\n1 2 3 x\n", ":3: field 4 (y1): 'x' is not a number"),
           ("1 2 3 4 5 6 7\n", ":1: 7 numbers: expected the points"),
           ("1 2 3 4 5 6 7 y\n", ":1: field 8 (y3): 'y' is not a number"),
           ("1 2 300 4\n", ":1: point 1 (300, 4) leaves the box [0, 100] x [0, 100]"),
           ("1 2 3 4\n1 2 3 4 -1 2\n", ":2: point 2 (-1, 2) leaves the box"),
           ("1 2 1 2\n", ":1: points 0 and 1 are the same point (1, 2)"),
           ("1 2 3 4 3 4\n", ":1: points 1 and 2 are the same point (3, 4)"),
           ("1 nan 3 4\n", ":1: field 2 (y0): NaN is not allowed"),
           ("1 2 inf 4\n", ":1: field 3 (x1): infinity"),
           ("1 2 3 4\0\n", ":1: unexpected NUL byte"),
           ("# nothing\n\n", ": no segments")]
    for k, (content, words) in enumerate(bad):
        bad_path = r.path("bad_segments_%d.txt" % k)
        with open(bad_path, "w") as f:
            f.write(content)
        expect_refused(r, ["dim=2", "n=10", "box=100", "boundary=walls",
                           "segments_file=" + bad_path] + FAST, [bad_path + words],
                       "segments_file %r" % content)
    missing = r.path("no_such_segments.txt")
    expect_refused(r, ["dim=2", "n=10", "boundary=walls", "segments_file=" + missing] + FAST,
                   ["cannot open segments file " + missing], "segments_file missing")
    expect_refused(r, ["n=10", "boundary=walls", "segments_file=" + path] + FAST,
                   ["segments_file=" + path, "segments are for 2D worlds"], "segments_file 3D")
    expect_refused(r, ["dim=2", "n=10", "segments_file=" + path, "viscosity=on"] + FAST,
                   ["viscosity=on", "segments_file=" + path], "segments_file viscosity")


def expect_refused(r, args, words, what):
    p = r.run(args)
    lines = p.stderr.splitlines()
    expect(p.returncode == USAGE and len(lines) == 1 and lines[0].startswith("carom: ") and
           p.stdout == "" and all(w in lines[0] for w in words),
           "%s: expected one line with %r, exit %d; got exit %d, stderr %r"
           % (what, words, USAGE, p.returncode, p.stderr))


def case_mesh(r):
    """mesh=FILE: a mesh's faces as fixed triangles (3D). With Assimp
    (CAROM_HAVE_MESH=1): a bowl of 26 triangles (OBJ) scaled by 8 and
    shifted up by 1 into an 8^3 box; the JSON counts its triangles, the
    faces without an area and the line skipped, and its bounds are where
    mesh_scale and mesh_shift put them; the spheres the placement puts on
    it are left out. Under gravity the others fall into the bowl (or
    under it) and bounce: in no frame is a sphere nearer than its radius
    to a triangle, and kinetic plus potential energy is kept (elastic). An
    ASCII STL loads too (with triangles=, counted together). Bad input is
    refused with one line naming the file: missing, unparseable, no
    triangles (only faces without area), a vertex outside the box (face
    and coordinates), 2D, mesh_scale 0 or NaN, orbits.
    Without Assimp, mesh= is refused with one line saying so."""
    bowl = r.path("bowl.obj")
    unit = bowl_obj(bowl)
    if not os.environ.get("CAROM_HAVE_MESH"):
        expect_refused(r, ["boundary=walls", "mesh=" + bowl] + FAST,
                       ["mesh=" + bowl, "built without Assimp"], "no Assimp")
        expect_refused(r, ["boundary=walls", "mesh_scale=2"] + FAST,
                       ["mesh_scale needs mesh=FILE"], "mesh_scale alone")
        return
    scale, shift = 8.0, (0.0, 0.0, 1.0)
    bowl_key = ["mesh=" + bowl, "mesh_scale=8", "mesh_shift=0,0,1"]
    triangles = placed(unit, scale, shift)
    start, final, traj = r.path("bowl_start.xyz"), r.path("bowl.xyz"), r.path("bowl_traj.xyz")
    d = r.json(["dim=3", "n=200", "box=8", "boundary=walls", "radius=0.3", "gravity=0,0,-1",
                "speed=0", "equilibrate=0", "time=0", "final=" + start] + bowl_key)
    m = d.get("mesh", {})
    expect(d["triangles"] == 26 and m.get("triangles") == 26 and m.get("degenerate") == 2 and
           m.get("points_lines") == 1 and m.get("file") == bowl, "bowl: %r" % d)
    expect(m["lower"] == [0, 0, 2] and m["upper"] == [8, 8, 4] and m["scale"] == 8 and
           m["shift"] == [0, 0, 1], "bowl: not where scale and shift put it: %r" % m)
    expect(d["on_triangles"] > 0 and d["n"] + d["on_triangles"] == 200, "bowl: n %r" % d)
    (_, first), = read_xyz(start)
    expect(worst_into(first, triangles) < 1e-9, "bowl: a sphere placed on a triangle")
    d = r.json(["init=" + start, "gravity=0,0,-1", "time=4", "frame_interval=0.05",
                "trajectory=" + traj, "final=" + final] + bowl_key)
    expect(d["triangles"] == 26 and d["events_by_type"]["wall_hits"] > 100 and
           0 <= d["max_overlap"] < 1e-9, "bowl from init: %r" % d)
    frames = read_xyz(traj)
    expect(len(frames) >= 80, "bowl: %d frames" % len(frames))
    worst = max(worst_into(rows, triangles) for _, rows in frames)
    expect(worst < 1e-9, "bowl: a sphere %r of its radius into a triangle" % worst)
    # Spheres in the bowl (above its floor's middle) stay above its floor.
    inside = [i for i, row in enumerate(first)
              if 2 < row[0] < 6 and 2 < row[1] < 6 and row[2] > 2.3]
    expect(len(inside) > 5, "bowl: only %d spheres above its floor" % len(inside))
    for comment, rows in frames:
        expect(all(rows[i][2] > 2 for i in inside), "bowl: fell through the floor (%s)" % comment)
    lowest = min(rows[i][2] for _, rows in frames for i in inside)
    expect(lowest < 2.3 * 1.01, "bowl: none came down to its floor (lowest %r)" % lowest)

    def energy(rows):  # kinetic + potential (g = 1 along -z)
        return sum(row[7] * (0.5 * (row[3] ** 2 + row[4] ** 2 + row[5] ** 2) + row[2])
                   for row in rows)

    (_, last), = read_xyz(final)
    e0, e1 = energy(first), energy(last)
    expect(abs(e1 / e0 - 1) < 1e-9, "bowl: energy %r -> %r" % (e0, e1))
    p = r.ok(["n=50", "box=8", "boundary=walls", "time=0.1", "equilibrate=0"] + bowl_key)
    expect("mesh               %s: 26 triangles (2 faces without an area and 1 points or "
           "lines skipped)" % bowl in p.stdout, "summary lacks the mesh:\n%s" % p.stdout)

    # An ASCII STL of two facets, scaled and shifted, with triangles= too.
    stl = r.path("square.stl")
    with open(stl, "w") as f:
        f.write("solid square\n")
        for t in [((0, 0, 0), (1, 0, 0), (1, 1, 0)), ((0, 0, 0), (1, 1, 0), (0, 1, 0))]:
            f.write("facet normal 0 0 1\nouter loop\n")
            f.writelines("vertex %g %g %g\n" % c for c in t)
            f.write("endloop\nendfacet\n")
        f.write("endsolid square\n")
    d = r.json(["n=50", "box=8", "boundary=walls", "mesh=" + stl, "mesh_scale=2",
                "mesh_shift=1,1,1", "triangles=1,1,6,7,1,6,1,7,6", "time=0.5", "equilibrate=0"])
    m = d.get("mesh", {})
    expect(d["triangles"] == 3 and m.get("triangles") == 2 and m.get("degenerate") == 0 and
           m["lower"] == [1, 1, 1] and m["upper"] == [3, 3, 1], "stl: %r" % d)

    # Bad input: one line naming the file.
    garbage = r.path("garbage.ply")
    with open(garbage, "wb") as f:
        f.write(bytes(random.Random(5).randrange(256) for _ in range(300)))
    flat = r.path("flat.obj")
    with open(flat, "w") as f:
        f.write("v 0 0 0\nv 1 1 1\nv 2 2 2\nf 1 2 3\nf 1 1 2\n")
    walls = ["n=50", "box=8", "boundary=walls"] + FAST
    missing = r.path("no_such_mesh.obj")
    for args, words, what in [
            (walls + ["mesh=" + missing], [missing, "cannot read it"], "missing"),
            (walls + ["mesh=" + garbage], [garbage, "cannot read it"], "garbage"),
            (walls + ["mesh=" + flat], [flat, "no triangles", "2 without an area"], "flat"),
            (walls + ["mesh=" + bowl, "mesh_scale=8", "mesh_shift=0,0,-2.5"],
             [bowl, "face 0 has the vertex (2, 2, -1.5) outside the box [0, 8] x [0, 8] x [0, 8]"],
             "outside"),
            (walls + ["mesh=" + bowl, "mesh_scale=9"], [bowl, "outside the box"], "too large"),
            (["dim=2", "boundary=walls", "mesh=" + bowl] + FAST,
             ["mesh=" + bowl, "meshes are for 3D worlds"], "2D"),
            (walls + ["mesh=" + bowl, "mesh_scale=0"], ["mesh_scale=0", "> 0", bowl], "scale 0"),
            (walls + ["mesh=" + bowl, "mesh_scale=nan"], ["mesh_scale=nan", "NaN", bowl],
             "scale NaN"),
            (walls + ["mesh=" + bowl, "mesh_shift=1,2"], ["mesh_shift=1,2", "x,y,z", bowl],
             "shift of two"),
            (walls + ["mesh_shift=1,2,3"], ["mesh_shift needs mesh=FILE"], "shift alone"),
            (["orbits=" + os.path.join(r.data, "orbits_good.txt"), "box=200", "boundary=walls",
              "mesh=" + bowl], ["mesh=" + bowl, "cannot be combined with motion=orbits"],
             "orbits")]:
        expect_refused(r, args, words, what)


def case_thermostat(r):
    """thermostat=nu: Andersen's bath at `temperature`. An elastic gas in
    it is an equilibrium fluid at that temperature (Z on Carnahan-
    Starling); a granular gas (restitution 0.8) settles where the bath's
    heating nu (kT - T) balances the cooling (1 - e^2) Gamma(T) T / 3 of
    Enskog's collision rate (tests/test_thermostat.c), T = 0.734 here; the
    redraws number about nu N times the run."""
    d = r.json(["n=2000", "packing=0.3", "thermostat=0.2", "temperature=1.5", "time=20"])
    expect(abs(d["temperature_final"] / 1.5 - 1) < 0.06, "T %r, bath 1.5" % d["temperature_final"])
    expect(abs(d["compressibility"] / 3.9738 - 1) < 0.02, "Z %r" % d["compressibility"])
    redraws, mean = d["thermostat_redraws"], 0.2 * 2000 * 22
    expect(abs(redraws - mean) < 5 * math.sqrt(mean), "redraws %r, expected %r" % (redraws, mean))
    expect(d["thermostat_rate"] == 0.2, "thermostat_rate")
    d = r.json(["n=3000", "packing=0.1", "restitution=0.8", "thermostat=0.5", "equilibrate=10",
                "time=20"])
    expect(abs(d["temperature_final"] / 0.7338 - 1) < 0.05,
           "steady T %r, balance 0.7338" % d["temperature_final"])
    p = r.ok(["n=200", "time=1", "thermostat=1"])
    expect("Andersen" in p.stdout, "summary lacks the thermostat:\n%s" % p.stdout)
    expect("thermostat_rate" not in r.json(["n=200", "time=1"]), "a thermostat by default")


ROTATIONAL_FIELDS = ("rotational_energy_initial", "rotational_energy_final",
                     "rotational_temperature_initial", "rotational_temperature_final",
                     "energy_relative_change")


def case_rough(r):
    """Rough spheres (tangential_restitution=, wall_tangential_restitution=,
    inertia_factor=). A perfectly rough elastic gas (3D, periodic),
    spins starting at zero: its total energy E is kept (to 1e-12) while
    translation hands half of it to rotation; at the end the
    translational and rotational temperatures are both 2E/((3+3)N)
    within 5% (equipartition; a snapshot of 10^4 spheres, whose ratio
    fluctuates by 2/sqrt(3N) = 1.2%). Equilibrated first, its Z is
    Carnahan-Starling's (rough spheres keep the smooth ones' structure
    and normal impulses) and Enskog's D for smooth spheres is not
    offered. Rough walls alone (2D) spin the disks up, energy kept. A
    smooth run reports the three settings (-1, -1 and 0.4 or 0.5, the
    solid sphere or disk), no Coulomb limit (friction null) and no
    rotational field; a config file sets them as the command line does.
    With friction= the perfectly rough gas loses energy (sliding)."""
    n = 10000
    d = r.json(["n=%d" % n, "packing=0.3", "tangential_restitution=1", "equilibrate=0",
                "time=10"])
    expect(d["tangential_restitution"] == 1 and d["wall_tangential_restitution"] == -1 and
           d["inertia_factor"] == 0.4, "settings %r" % [d[k] for k in (
               "tangential_restitution", "wall_tangential_restitution", "inertia_factor")])
    expect(d["rotational_energy_initial"] == 0 and d["rotational_temperature_initial"] == 0,
           "spins do not start at zero: %r" % d["rotational_energy_initial"])
    energy = d["kinetic_energy_initial"]
    after = d["kinetic_energy_final"] + d["rotational_energy_final"]
    expect(abs(after / energy - 1) < 1e-12, "energy %r -> %r" % (energy, after))
    expect(abs(d["energy_relative_change"]) < 1e-12,
           "energy_relative_change %r" % d["energy_relative_change"])
    expect(abs(d["rotational_energy_final"] / energy - 0.5) < 0.025,
           "rotation holds %r of the energy" % (d["rotational_energy_final"] / energy))
    shared = 2 * energy / ((3 + 3) * n)
    for key in ("temperature_final", "rotational_temperature_final"):
        expect(abs(d[key] / shared - 1) < 0.05, "%s %r, equipartition %r" % (key, d[key], shared))
    ratio = d["rotational_temperature_final"] / d["temperature_final"]
    expect(abs(ratio - 1) < 0.05, "T_rot / T_tr = %r" % ratio)

    d = r.json(["n=4000", "packing=0.3", "tangential_restitution=1", "equilibrate=5", "time=20",
                "msd=on"])
    expect(abs(d["compressibility"] / d["compressibility_reference"] - 1) < 0.02,
           "rough Z %r against %r" % (d["compressibility"], d["compressibility_reference"]))
    expect(d["self_diffusion_enskog"] is None, "Enskog's smooth-sphere D for rough spheres")
    expect(d["rotational_energy_initial"] > 0, "equilibrated spins are zero")

    d = r.json(["dim=2", "n=400", "packing=0.3", "boundary=walls", "wall_tangential_restitution=1",
                "inertia_factor=1", "equilibrate=0", "time=10"])
    expect(d["tangential_restitution"] == -1 and d["wall_tangential_restitution"] == 1 and
           d["inertia_factor"] == 1, "2D settings")
    expect(d["rotational_energy_final"] > 0.01 * d["kinetic_energy_initial"],
           "rough walls gave %r to the spins" % d["rotational_energy_final"])
    expect(abs(d["energy_relative_change"]) < 1e-12, "2D energy %r" % d["energy_relative_change"])
    p = r.ok(["n=200", "time=0.5", "equilibrate=0", "tangential_restitution=0.5"])
    for w in ("rough spheres", "tangential restitution 0.5", "rotational energy"):
        expect(w in p.stdout, "rough summary lacks %r:\n%s" % (w, p.stdout))

    for args, inertia in ((["dim=3"], 0.4), (["dim=2"], 0.5)):
        d = r.json(args + ["n=200", "time=0.5", "equilibrate=0"])
        expect(d["tangential_restitution"] == -1 and d["wall_tangential_restitution"] == -1 and
               d["inertia_factor"] == inertia, "smooth %s settings" % args[0])
        expect(d["friction"] is None and d["wall_friction"] is None,
               "no Coulomb limit by default: %r" % [d["friction"], d["wall_friction"]])
        present = [k for k in ROTATIONAL_FIELDS if k in d]
        expect(not present, "a smooth run reports %s" % present)
    p = r.ok(["n=200", "time=0.5", "equilibrate=0"])
    expect("rough" not in p.stdout and "rotational" not in p.stdout,
           "a smooth summary speaks of spins:\n%s" % p.stdout)
    # Coulomb's limit: a perfectly rough gas then slides at some contacts,
    # and sliding loses energy.
    d = r.json(["n=500", "packing=0.3", "tangential_restitution=1", "friction=0.1",
                "wall_friction=0.2", "equilibrate=0", "time=2"])
    expect(d["friction"] == 0.1 and d["wall_friction"] == 0.2,
           "friction settings %r" % [d["friction"], d["wall_friction"]])
    expect(d["energy_relative_change"] < -1e-3,
           "a gas held back by Coulomb's limit kept its energy: %r" % d["energy_relative_change"])
    config = r.path("rough.cfg")
    with open(config, "w") as f:
        f.write("n = 200\ntime = 0.5\ntangential_restitution = 0.25\n"
                "wall_tangential_restitution = -0.5  # against the walls\ninertia_factor = 0.6\n")
    d = r.json([config, "boundary=walls"])
    expect((d["tangential_restitution"], d["wall_tangential_restitution"],
            d["inertia_factor"]) == (0.25, -0.5, 0.6), "settings from a file")
    expect(d["rotational_energy_final"] > 0, "no spin from the file's settings")


SPIN_PROPERTIES = "species:S:1:pos:R:3:velo:R:3:radius:R:1:mass:R:1:spin:R:3"
SMOOTH_PROPERTIES = "species:S:1:pos:R:3:velo:R:3:radius:R:1:mass:R:1"


def case_spin_round_trip(r):
    """Spins in the files of `carom run`. A rough run's final= file and
    XYZ trajectory have a spin:R:3 column (every frame, the first one's
    zeros too); restarted from that file (init=), the run starts with the
    rotational energy the first one ended with (to 1e-12) and, with
    time=0, writes the same spheres and spins again to the last bit. A
    smooth run from it keeps every spin as it was. A smooth run's files
    have no spin column (as before spins existed)."""
    for dim, keys in ((3, ["n=200", "packing=0.3", "tangential_restitution=0.5"]),
                      (2, ["dim=2", "n=150", "packing=0.3", "boundary=walls",
                           "tangential_restitution=1", "wall_tangential_restitution=0.5"])):
        a, b, c = (r.path("spin_%s_%d.xyz" % (x, dim)) for x in "abc")
        traj = r.path("spin_traj_%d.xyz" % dim)
        d = r.json(keys + ["equilibrate=0", "time=2", "final=" + a, "trajectory=" + traj,
                           "frame_interval=1"])
        expect(d["rotational_energy_final"] > 0, "%dD: no spin after a rough run" % dim)
        (comment, rows), = read_xyz(a)
        expect(comment_value(comment, "Properties") == SPIN_PROPERTIES,
               "%dD final: Properties %r" % (dim, comment_value(comment, "Properties")))
        expect(all(len(row) == 11 for row in rows), "%dD final: rows without 3 spins" % dim)
        expect(any(row[10] != 0 for row in rows), "%dD final: no spin about z" % dim)
        if dim == 2:
            expect(all(row[8] == row[9] == 0 for row in rows), "2D final: spins about x or y")
        frames = read_xyz(traj)
        expect(len(frames) == 3, "%dD trajectory: %d frames" % (dim, len(frames)))
        for k, (comment, rows) in enumerate(frames):
            expect(comment_value(comment, "Properties") == SPIN_PROPERTIES,
                   "%dD trajectory frame %d lacks spins: %r" % (dim, k, comment))
        expect(all(row[8:] == [0, 0, 0] for row in frames[0][1]),
               "%dD trajectory: spins at the start" % dim)
        spheres_equal(frames[-1][1], read_xyz(a)[0][1], "%dD last frame and final" % dim)
        again = r.json(["init=" + a] + [k for k in keys if k.startswith(("tangential",
                                                                          "wall_tangential"))] +
                       ["equilibrate=0", "time=0", "final=" + b])
        before, after = d["rotational_energy_final"], again["rotational_energy_initial"]
        expect(abs(after - before) <= 1e-12 * before,
               "%dD restart: rotational energy %r, the first run ended with %r" %
               (dim, after, before))
        spheres_equal(read_xyz(b)[0][1], read_xyz(a)[0][1], "%dD final -> init -> final" % dim)
        # A smooth run leaves the spins it is given alone.
        d = r.json(["init=" + a, "equilibrate=0", "time=1", "final=" + c])
        expect("rotational_energy_initial" not in d, "%dD smooth run reports spins" % dim)
        spins = [row[8:] for row in read_xyz(c)[0][1]]
        expect(spins == [row[8:] for row in read_xyz(a)[0][1]],
               "%dD: a smooth run changed the spins of its init file" % dim)
    for keys in (["dim=3"], ["dim=2", "boundary=walls"]):
        smooth, traj = r.path("smooth.xyz"), r.path("smooth_traj.xyz")
        r.ok(keys + ["n=100", "time=1", "equilibrate=0", "final=" + smooth, "trajectory=" + traj,
                     "frame_interval=0.5"])
        for path in (smooth, traj):
            for comment, rows in read_xyz(path):
                expect(comment_value(comment, "Properties") == SMOOTH_PROPERTIES,
                       "%s %s: Properties %r" % (keys[0], path, comment))
                expect(all(len(row) == 8 for row in rows), "%s %s: extra columns" % (keys[0],
                                                                                     path))


def species_of(path):
    """Each sphere's species in an XYZ file's first frame (S<k>; S: 0)."""
    with open(path) as f:
        lines = f.read().splitlines()
    names = [line.split()[0] for line in lines[2:2 + int(lines[0])]]
    return [int(x[1:]) if x[1:].isdigit() else 0 for x in names]


def carnahan_starling(eta):
    return (1 + eta + eta * eta - eta ** 3) / (1 - eta) ** 3


def case_sense(r):
    """sense=a-b: the pairs pass through each other and each contact is
    counted (JSON sensed_contacts, a summary line), and each parting
    (sensed_partings: in a steady state, as many). 1,000 tracers (species
    1, passing through each other) sense a hard-sphere fluid of 1,000
    (species 0): the fluid's collisions are those of the same run with
    the tracers passing through it, and the count is kinetic theory's N0
    N1 / V pi (2r)^2 <v_rel>, <v_rel> = sqrt(16 kT / (pi m)), within 5%
    (measured 0.8%), and so is the count of partings. Driven spheres
    (motion=forces) sense too: the same collisions as with the pairs
    passing through. A pair both passing through and sensing, driven
    spheres, growth and species beyond species= are refused."""
    base = ["n=2000", "packing=0.3", "species=2", "equilibrate=1", "time=5"]
    d = r.json(base + ["sense=0-1", "pass_through=1-1"])
    plain = r.json(base + ["pass_through=0-1,1-1"])
    expect(d["sense"] == [[0, 1]] and d["pass_through"] == [[1, 1]], "sense: %r" % d)
    expect(d["collisions"] == plain["collisions"] and "sensed_contacts" not in plain,
           "sense: %d collisions, %d passing through" % (d["collisions"], plain["collisions"]))
    n0, n1 = d["species_counts"]
    volume = d["box"][0] * d["box"][1] * d["box"][2]
    kT = d["temperature_final"]  # elastic: kept through the run
    rate = n0 * n1 / volume * math.pi * 1.0 ** 2 * math.sqrt(16 * kT / math.pi)
    expected = rate * 5
    expect(abs(d["sensed_contacts"] / expected - 1) < 0.05,
           "sense: %d sensed, kinetic theory %.0f" % (d["sensed_contacts"], expected))
    expect(abs(d["sensed_partings"] / expected - 1) < 0.05,
           "sense: %d partings, kinetic theory %.0f" % (d["sensed_partings"], expected))
    driven = ["n=500", "species=2", "motion=forces", "time=2"]
    d = r.json(driven + ["sense=0-1"])
    plain = r.json(driven + ["pass_through=0-1"])
    expect(d["collisions"] == plain["collisions"] and d["sensed_contacts"] > 1000 and
           0 <= d["sensed_contacts"] - d["sensed_partings"] < 0.3 * d["sensed_contacts"],
           "sense, driven: %d collisions (%d passing through), %d contacts, %d partings" %
           (d["collisions"], plain["collisions"], d["sensed_contacts"], d["sensed_partings"]))
    p = r.ok(base + ["sense=0-1", "time=1"])
    expect(re.search(r"sensed contacts    \d+ \(", p.stdout) and
           re.search(r"sensed partings    \d+\n", p.stdout) and "sensing each other: 0-1" in
           p.stdout, "summary lacks sensing:\n%s" % p.stdout)
    for keys, words in [(["sense=0-1", "pass_through=1-0"], ["sense=0-1", "pair 0-1 also passes "
                                                            "through", "pass_through=1-0"]),
                        (["sense=0-1", "compress=0.4"], ["sense=0-1", "compress=0.4"]),
                        (["sense=0-2"], ["sense=0-2", "species 2 out of range"]),
                        (["sense=0-x"], ["sense=0-x", "expected pairs of species a-b"])]:
        expect_refused(r, ["n=100", "species=2"] + keys + FAST, words, "sense %r" % keys)


def check_shear_pressure(d, n):
    """The sheared run's pressure tensor: symmetric; its trace over dim is
    the pressure Z gives (the same contacts, the same kinetic energy by
    the same rule: to round-off); -P_xy / rate, whose kinetic part is
    sampled, agrees with the heat's eta (exact) within 3 combined errors
    (measured 0.752 +- 0.017 against 0.744 +- 0.018); the normal stress
    differences are small at a low rate (N1 within 4 errors of 0, N2
    under 2% of the pressure, measured -0.003 +- 0.009 and 0.016 +-
    0.005)."""
    p, dim = d["shear_pressure_tensor"], d["dim"]
    expect(len(p) == dim and all(p[a][b] == p[b][a] for a in range(dim) for b in range(dim)),
           "shear pressure tensor %r" % p)
    trace = sum(p[k][k] for k in range(dim)) / dim
    z = trace * box_volume(d) / (n * d["shear_temperature"])
    expect(abs(z / d["compressibility"] - 1) < 1e-9, "shear: tensor's Z %r, Z %r" %
           (z, d["compressibility"]))
    eta, err = d["shear_viscosity_virial"], d["shear_viscosity_virial_error"]
    expect(err > 0 and abs(eta - d["shear_viscosity"]) <
           3 * math.hypot(err, d["shear_viscosity_error"]) and
           abs(-p[0][1] / d["shear_rate"] - eta) < 1e-12 * eta,
           "shear: -Pxy/rate %r +- %r, from the heat %r" % (eta, err, d["shear_viscosity"]))
    n1, n2 = d["shear_normal_stress_1"], d["shear_normal_stress_2"]
    expect(abs(n1 - (p[0][0] - p[1][1])) < 1e-12 * trace and
           abs(n1) < 4 * d["shear_normal_stress_1_error"] and
           (dim == 2 and n2 is None or abs(n2) < 0.02 * trace),
           "shear: N1 %r, N2 %r, tensor %r" % (n1, n2, p))


def case_shear(r):
    """shear=RATE: Lees-Edwards shear flow along x, gradient along y. The
    run starts with the profile rate (y - Ly/2) added to the velocities,
    rescales the velocities relative to it to the temperature every
    shear_interval (by default the time in which Enskog's heat would
    raise kT by 1%), and gives the shear viscosity from the heat the
    boundaries made (exact for elastic smooth contacts): at packing 0.3
    (3D) and 0.4 (2D), at low rates, within 3 error bars and 5% of
    Enskog's (measured +2.2% and +1.6%), whose own agreement with the
    Einstein-Helfand route (viscosity=on) was measured 0.707 +- 0.057
    against 0.725 +- 0.031. The final state keeps the profile (the slope of
    v_x against y within 15% of the rate). Without rescaling
    (shear_interval=0) the fluid heats, and still gives eta from its one
    interval (no error). A granular gas shears (restitution 0.9) but has
    no viscosity from its heat. With neighbour lists (neighbours=lists)
    the 3D run gives the same within its errors (measured 0.718 +- 0.019
    against 0.744 +- 0.018 with cells). msd=on measures across the flow
    (y and z), and its D is the fluid's at rest when the shear is slow.
    A thermostat (Andersen's bath, which redraws about the profile) keeps
    the temperature in place of the rescalings, and the heat less what the
    bath gave is the boundaries' work: eta within 3 error bars and 5% of
    Enskog's (measured 0.742 +- 0.020 against 0.740 at bath rate 1).
    Sensing tracers count their contacts with the sheared fluid as at
    rest. Refused, naming the key: walls
    along y, the equilibrium routes (viscosity),
    shear_interval without shear, a rate that is not
    a number, and the viewer's drag= (its large sphere is left out)."""
    final = r.path("shear.xyz")
    d = r.json(["n=1000", "packing=0.3", "shear=0.2", "equilibrate=5", "time=60",
                "final=" + final, "msd=on"])
    eta, err, enskog = d["shear_viscosity"], d["shear_viscosity_error"], d["shear_viscosity_enskog"]
    expect(err > 0 and err < 0.1 * eta and abs(eta - enskog) < 3 * err and
           abs(eta / enskog - 1) < 0.05,
           "shear 3D: eta %r +- %r, Enskog %r" % (eta, err, enskog))
    # Self-diffusion across the flow (y and z: along x the flow spreads
    # the spheres as t^3) is the fluid's at rest when the shear is slow
    # (measured 0.1821 against 0.1820; with x counted, some 20 times
    # more), and Enskog's is given at the temperature relative to the
    # profile.
    rest = r.json(["n=1000", "packing=0.3", "equilibrate=5", "time=60", "msd=on"])
    D, D_rest = d["self_diffusion"], rest["self_diffusion"]
    expect(abs(D / D_rest - 1) < 0.15 and
           math.isclose(d["mean_square_displacement"], 4 * D * (d["end_time"] - d["start_time"]),
                        rel_tol=1e-12) and
           abs(d["self_diffusion_enskog"] / rest["self_diffusion_enskog"] - 1) < 0.02,
           "shear msd: D %r against %r at rest (Enskog %r, %r)" % (
               D, D_rest, d["self_diffusion_enskog"], rest["self_diffusion_enskog"]))
    # The interval chosen: Enskog's heat would raise kT by 1% in it.
    n_density = 1000 / box_volume(d)
    interval = 0.01 * 1.5 * n_density / (d["shear_viscosity_enskog"] * 0.2 ** 2)
    expect(abs(d["shear_interval"] / interval - 1) < 0.02 and
           abs(d["shear_rescales"] - 60 / d["shear_interval"]) <= 1,
           "shear: interval %r (%r expected), %r rescales" %
           (d["shear_interval"], interval, d["shear_rescales"]))
    expect(d["shear_rate"] == 0.2 and
           abs(d["shear_temperature"] - 1) < 0.03 and d["compressibility_reference"] is None and
           abs(d["compressibility"] / 3.9738 - 1) < 0.02,
           "shear 3D: %r" % {k: d[k] for k in d if k.startswith("shear") or
                            k.startswith("compress")})
    check_shear_pressure(d, 1000)
    comment, rows = read_xyz(final)[-1]
    box = d["box"]
    ys = [row[1] for row in rows]
    vx = [row[3] for row in rows]
    my, mv = sum(ys) / len(ys), sum(vx) / len(vx)
    slope = (sum((y - my) * (v - mv) for y, v in zip(ys, vx)) /
             sum((y - my) ** 2 for y in ys))
    expect(abs(slope / 0.2 - 1) < 0.15, "shear: final profile slope %r, box %r" % (slope, box))
    # The final state keeps its offset as the Lattice's tilt, and a
    # restart from it goes on from there, given the rate alone (refused
    # without one: its images would jump back).
    lattice = [float(x) for x in re.search(r'Lattice="([^"]*)"', comment).group(1).split()]
    expect(lattice[3] == d["shear_offset"] and lattice[1:3] + lattice[5:8] == [0.0] * 5,
           "shear final Lattice %r, offset %r" % (lattice, d["shear_offset"]))
    back = r.json(["init=" + final, "shear=0.2", "time=2"])
    expect(back["max_overlap"] < 1e-9 and back["collisions"] > 0 and
           abs(back["shear_offset"] - (d["shear_offset"] + 0.2 * box[1] * 2) % box[0]) < 1e-9,
           "shear restart: %r" % {k: back[k] for k in back if k.startswith("shear")})
    expect_refused(r, ["init=" + final, "time=1"], ["shear.xyz", "sheared", "shear="],
                   "a sheared init without shear=")
    cells = (eta, err)
    d = r.json(["n=1000", "packing=0.3", "shear=0.2", "thermostat=1", "equilibrate=5",
                "time=60"])
    eta, err, enskog = d["shear_viscosity"], d["shear_viscosity_error"], d["shear_viscosity_enskog"]
    expect(d["shear_rescales"] == 0 and d["thermostat_redraws"] > 50000 and err > 0 and
           abs(eta - enskog) < 3 * err and abs(eta / enskog - 1) < 0.05 and
           abs(d["shear_temperature"] - 1) < 0.08 and
           abs(d["shear_viscosity_virial"] - eta) < 2 * err,
           "shear 3D, thermostat: eta %r +- %r, Enskog %r, %r" % (
               eta, err, enskog, {k: d[k] for k in d if k.startswith("shear")}))
    d = r.json(["n=1000", "packing=0.3", "shear=0.2", "equilibrate=5", "time=60",
                "neighbours=lists"])
    eta, err, enskog = d["shear_viscosity"], d["shear_viscosity_error"], d["shear_viscosity_enskog"]
    expect(d["list_skin"] > 0 and err > 0 and abs(eta - enskog) < 3 * err and
           abs(eta / enskog - 1) < 0.05 and abs(eta - cells[0]) < 3 * math.hypot(err, cells[1]),
           "shear 3D, lists: eta %r +- %r, Enskog %r, cells %r" % (eta, err, enskog, cells))
    d = r.json(["dim=2", "n=1000", "packing=0.4", "shear=0.2", "equilibrate=5", "time=60"])
    eta, err, enskog = d["shear_viscosity"], d["shear_viscosity_error"], d["shear_viscosity_enskog"]
    expect(err > 0 and abs(eta - enskog) < 3 * err and abs(eta / enskog - 1) < 0.05,
           "shear 2D: eta %r +- %r, Enskog %r" % (eta, err, enskog))
    check_shear_pressure(d, 1000)
    d = r.json(["n=500", "packing=0.3", "shear=0.5", "shear_interval=0", "equilibrate=0",
                "time=10"])
    expect(d["shear_rescales"] == 0 and d["shear_viscosity_error"] is None and
           d["shear_viscosity"] > 0 and d["temperature_final"] > 1.1 * d["temperature_initial"],
           "shear without rescaling: %r" % {k: d[k] for k in d if k.startswith("shear") or
                                            k.startswith("temperature")})
    # Tracers that sense the sheared fluid through the moving images too
    # (tests/test_shear_sensing.c checks them one by one): about as many
    # contacts as at rest, each parted but those in contact at the end.
    sheared = r.json(["n=1000", "packing=0.3", "species=2", "sense=0-1", "pass_through=1-1",
                      "shear=0.2", "time=5"])
    rest = r.json(["n=1000", "packing=0.3", "species=2", "sense=0-1", "pass_through=1-1",
                   "time=5"])
    expect(sheared["sensed_contacts"] > 5000 and
           0 <= sheared["sensed_contacts"] - sheared["sensed_partings"] < 100 and
           abs(sheared["sensed_contacts"] / rest["sensed_contacts"] - 1) < 0.1,
           "shear, sense: %r against %r at rest" % (
               (sheared["sensed_contacts"], sheared["sensed_partings"]),
               (rest["sensed_contacts"], rest["sensed_partings"])))
    d = r.json(["n=500", "packing=0.3", "shear=0.5", "restitution=0.9", "time=5"])
    expect(d["shear_viscosity"] is None and d["collisions"] > 0 and
           d["shear_viscosity_virial"] > 0 and d["shear_pressure_tensor"][0][1] < 0,
           "shear, granular: %r" % d)
    d = r.json(["n=200", "packing=0.3", "shear=0.5", "tangential_restitution=1", "time=2"])
    expect(d["shear_viscosity"] is None and d["shear_viscosity_virial"] is None and
           d["shear_pressure_tensor"][0][0] is None, "shear, rough: %r" % d)
    p = r.ok(["n=300", "shear=0.1", "msd=on"] + FAST)
    expect(re.search(r"msd \(y, z\)         [0-9.]+ over t = [0-9.]+  \(D across the flow = "
                     r"msd/\(2 2 t\) = [0-9.]+; Enskog: ", p.stdout),
           "summary lacks msd across the flow:\n%s" % p.stdout)
    expect(re.search(r"shear              rate 0.1 \(Lees-Edwards\)", p.stdout) and
           "shear viscosity    " in p.stdout and "normal stresses    N1 = Pxx - Pyy" in p.stdout and
           "pressure tensor    xx " in p.stdout, "summary lacks shear:\n%s" % p.stdout)
    base = ["n=100", "shear=0.1"] + FAST
    for keys, words in [(["boundary=periodic,walls,periodic"], ["shear=0.1", "boundary="]),
                        (["viscosity=on"], ["shear=0.1", "viscosity=on"]),
                        (["gravity=1"], ["shear=0.1", "gravity=1"])]:
        expect_refused(r, base + keys, words, "shear %r" % keys)
    expect_refused(r, ["n=100", "shear_interval=1"] + FAST, ["shear_interval=1", "needs shear"],
                   "shear_interval alone")
    expect_refused(r, ["n=100", "shear=fast"] + FAST, ["shear=fast"], "shear=fast")
    expect_refused(r, ["n=100", "shear_offset=1"] + FAST, ["shear_offset=1", "needs shear"],
                   "shear_offset alone")
    expect_refused(r, ["init=" + final, "shear=0.2", "compress=0.31"] + FAST,
                   ["shear=0.2", "compress=0.31", "init="], "shear, compress and init")
    expect_refused(r, ["n=100", "shear=0.1", "shear_interval=-1"] + FAST,
                   ["shear_interval=-1", ">= 0"], "shear_interval=-1")
    # The viewer shears without its large sphere: drag= is refused (in a
    # build without the viewer, render itself is; tests/viewer shears).
    p = r.run(["dim=2", "n=100", "boundary=periodic", "shear=0.1", "frames=2", "drag=1,1,2,2",
               "out=" + r.path("s")], command="render")
    expect(p.returncode != 0 and ("shear=" in p.stderr and "drag=" in p.stderr or
                                  "render" in p.stderr),
           "render shear= drag=: %d %r" % (p.returncode, p.stderr))


def case_species(r):
    """Species (species=, species_fraction=, pass_through=). Species 1 an
    ideal gas passing through everything, species 0 a hard-sphere fluid
    of packing 0.25 (half of the 0.5 of all the spheres): Z = (N0
    Z_CS(0.25) + N1) / N, as the collisions of species 0 alone give it
    (within 2%), and no collision in the log involves a sphere of species
    1; the references that assume every pair meets are null. Exact
    counts round(f_k N) shuffled over the spheres (the seed's), written
    as S<k> to final and trajectory files, which a restart reads back (to
    the last bit); a run with one species writes "S" as before species
    existed. Every pair passing through: an ideal gas, Z = 1, no
    collision. An init file's overlapping spheres of species that pass
    through each other are accepted, refused otherwise."""
    n, log, final = 4000, r.path("species.log"), r.path("species.xyz")
    d = r.json(["n=%d" % n, "packing=0.5", "species=2", "species_fraction=0.5,0.5",
                "pass_through=1-1,0-1", "equilibrate=2", "time=20", "collision_log=" + log,
                "final=" + final])
    expect(d["species"] == 2 and d["species_counts"] == [2000, 2000],
           "species %r, counts %r" % (d["species"], d["species_counts"]))
    expect(d["pass_through"] == [[1, 1], [0, 1]], "pass_through %r" % d["pass_through"])
    n0, n1 = d["species_counts"]
    expected = (n0 * carnahan_starling(0.25) + n1) / n
    print("species: Z = %.5f, expected (N0 Z_CS(0.25) + N1)/N = %.5f (%+.2f%%), %d collisions"
          % (d["compressibility"], expected, 100 * (d["compressibility"] / expected - 1),
             d["collisions"]))
    expect(abs(d["compressibility"] / expected - 1) < 0.02,
           "Z = %r, expected %r" % (d["compressibility"], expected))
    expect(d["compressibility_reference"] is None,
           "a one-fluid reference with pairs passing through: %r" % d["compressibility_reference"])
    expect(abs(d["kinetic_energy_final"] / d["kinetic_energy_initial"] - 1) < 1e-10, "energy")
    expect(0 <= d["max_overlap"] < 1e-9, "max_overlap %r" % d["max_overlap"])
    species = species_of(final)
    expect(len(species) == n and species.count(0) == n0 and species.count(1) == n1,
           "final file: %d of species 0, %d of 1" % (species.count(0), species.count(1)))
    with open(log) as f:
        pairs = [tuple(int(x) for x in line.split()[1:]) for line in f]
    expect(len(pairs) == d["collisions"] > 10000, "%d log lines, %d collisions"
           % (len(pairs), d["collisions"]))
    met = [(i, j) for i, j in pairs if species[i] != 0 or species[j] != 0]
    expect(not met, "%d logged collisions of spheres passing through, the first %r"
           % (len(met), met[:1]))
    # Other figures that assume every pair meets: none.
    d = r.json(["n=500", "packing=0.3", "species=2", "pass_through=0-0", "equilibrate=0.5",
                "time=2", "msd=on", "rdf=on"])
    for key in ("compressibility_reference", "self_diffusion_enskog",
                "rdf_contact_from_pressure", "rdf_contact_reference"):
        expect(d[key] is None, "%s = %r with pairs passing through" % (key, d[key]))
    # Species that all meet: the usual references.
    d = r.json(["n=500", "species=3", "species_fraction=1,2,3", "time=1", "equilibrate=0.5"])
    expect(d["species_counts"] == [83, 167, 250] and d["pass_through"] == [],
           "counts %r" % d["species_counts"])
    expect(d["compressibility_reference"] is not None, "no reference for species that meet")
    # Exact counts, shuffled by the seed; one species: as before.
    a, b, c = (r.path("species_%s.xyz" % x) for x in "abc")
    for path, seed in ((a, 1), (b, 1), (c, 2)):
        d = r.json(["n=300", "species=3", "species_fraction=1,0,2", "seed=%d" % seed,
                    "equilibrate=0", "time=0", "final=" + path])
        expect(d["species_counts"] == [100, 0, 200], "counts %r" % d["species_counts"])
    sa, sb, sc = species_of(a), species_of(b), species_of(c)
    expect(sa == sb and sa != sc, "the seed does not decide the species")
    expect(sa.count(0) == 100 and sa.count(2) == 200 and sa != sorted(sa), "not shuffled: %r"
           % sa[:20])
    d = r.json(["n=100", "time=0.2", "final=" + c])
    expect(d["species"] == 1 and d["species_counts"] == [100] and d["pass_through"] == [],
           "one species: %r" % [d["species"], d["species_counts"], d["pass_through"]])
    (comment, rows), = read_xyz(c)
    with open(c) as f:
        expect(all(line.startswith("S ") for line in f.read().splitlines()[2:]),
               "one species must be written S")
    p = r.ok(["n=100", "time=0.2"])
    expect("species" not in p.stdout, "one species in the summary:\n%s" % p.stdout)
    p = r.ok(["n=200", "species=2", "pass_through=1-1", "time=0.2"])
    expect("species            2 (100, 100 spheres); passing through each other: 1-1" in p.stdout
           and "no equilibrium reference" in p.stdout, "summary:\n%s" % p.stdout)
    # Files: S<k> in the final state and every trajectory frame, read back by init=.
    a, b, traj = r.path("sp_a.xyz"), r.path("sp_b.xyz"), r.path("sp_traj.xyz")
    keys = ["dim=2", "n=200", "packing=0.4", "species=4", "pass_through=0-0,1-2,3-3"]
    d = r.json(keys + ["equilibrate=0", "time=2", "final=" + a, "trajectory=" + traj,
                       "frame_interval=1"])
    frames = read_xyz(traj)
    expect(len(frames) == 3, "%d frames" % len(frames))
    with open(traj) as f:
        names = [line.split()[0] for line in f if line[0] == "S"]
    expect(set(names) == {"S0", "S1", "S2", "S3"} and len(names) == 600, "frames' species")
    again = r.json(["init=" + a, "pass_through=0-0,1-2,3-3", "equilibrate=0", "time=0",
                    "final=" + b])
    expect(again["species"] == 4 and again["species_counts"] == d["species_counts"] and
           again["pass_through"] == [[0, 0], [1, 2], [3, 3]], "restart: %r" % again)
    with open(a) as fa, open(b) as fb:
        expect(fa.read().splitlines()[2:] == fb.read().splitlines()[2:],
               "final -> init -> final changed the spheres")
    # An ideal gas: every pair passes through.
    d = r.json(["n=300", "pass_through=0-0", "time=1"])
    expect(d["collisions"] == 0 and d["compressibility"] == 1, "ideal gas: %d collisions, Z %r"
           % (d["collisions"], d["compressibility"]))
    # Overlapping spheres of species that pass through each other.
    overlap = r.path("species_overlap.xyz")
    with open(overlap, "w") as f:
        f.write('3\nLattice="10 0 0 0 10 0 0 0 10" Properties=species:S:1:pos:R:3:velo:R:3:'
                'radius:R:1:mass:R:1 pbc="F F F"\n'
                "S0 2 2 2 0 0 0 0.5 1\nS0 5 5 5 1 0 0 0.5 1\nS1 5.6 5 5 0 0 0 0.5 1\n")
    d = r.json(["init=" + overlap, "pass_through=0-1", "time=1"])
    expect(d["species"] == 2 and d["species_counts"] == [2, 1], "overlap file %r" % d)
    p = r.run(["init=" + overlap, "time=1"])
    expect(p.returncode == RUNTIME and "spheres 1 and 2" in p.stderr, "overlap accepted: %r"
           % p.stderr)
    bad = r.path("species_bad.xyz")
    with open(bad, "w") as f:
        f.write('2\nLattice="10 0 0 0 10 0 0 0 10" Properties=species:S:1:pos:R:3:radius:R:1\n'
                "S1 2 2 2 0.5\nS32 5 5 5 0.5\n")
    expect_refused(r, ["init=" + bad], ["species_bad.xyz:4", "column 1 (species)",
                                        "'S32' is out of range (S0 to S31)"], "species S32")


def case_pair_restitution(r):
    """Restitution by species (pair_restitution=, species_wall_restitution=).
    restitution=0.5 made elastic for every pair of two species: the
    kinetic energy is kept (to rounding) and the equilibrium references
    apply, while the same run without pair_restitution cools and has none.
    Species 1 inelastic among itself only (1-1: 0.5): it ends colder than
    species 0 (which cools too, through the elastic 0-1 contacts). The
    species' temperatures (species_temperature) average, over their
    counts, to the run's; a species without spheres has null. Species 1
    inelastic at the walls only, in an ideal gas (every pair passing
    through, so that only walls are met): species 0 ends as it does
    without species_wall_restitution, to the last bit, species 1 colder."""
    base = ["n=500", "packing=0.3", "species=2", "restitution=0.5", "equilibrate=0", "time=2"]
    elastic = r.json(base + ["pair_restitution=0-0:1,0-1:1,1-1:1"])
    expect(elastic["pair_restitution"] == [[0, 0, 1], [0, 1, 1], [1, 1, 1]] and
           elastic["species_wall_restitution"] == [],
           "pair_restitution %r" % elastic["pair_restitution"])
    change = elastic["kinetic_energy_final"] / elastic["kinetic_energy_initial"] - 1
    expect(abs(change) < 1e-10 and elastic["collisions"] > 1000,
           "every pair elastic: kinetic energy changed by %r (%d collisions)"
           % (change, elastic["collisions"]))
    expect(abs(elastic["temperature_final"] / elastic["temperature_initial"] - 1) < 1e-10,
           "every pair elastic: temperature %r -> %r" % (elastic["temperature_initial"],
                                                         elastic["temperature_final"]))
    expect(elastic["compressibility_reference"] is not None,
           "no reference with every pair elastic")
    cooled = r.json(base)
    expect(cooled["pair_restitution"] == [], "pair_restitution %r" % cooled["pair_restitution"])
    expect(cooled["kinetic_energy_final"] < 0.5 * cooled["kinetic_energy_initial"],
           "restitution=0.5: kinetic energy %r -> %r" % (cooled["kinetic_energy_initial"],
                                                         cooled["kinetic_energy_final"]))
    expect(cooled["compressibility_reference"] is None, "a reference for inelastic pairs")
    # One pair inelastic: its species ends colder.
    d = r.json(["n=1000", "packing=0.2", "species=2", "pair_restitution=1-1:0.5",
                "equilibrate=0", "time=2"])
    t0, t1 = d["species_temperature"]
    print("pair_restitution=1-1:0.5: kT %.5f (species 0), %.5f (species 1), %.5f (all)"
          % (t0, t1, d["temperature_final"]))
    expect(t1 < 0.85 * t0 and t0 < 0.9 * d["temperature_initial"],
           "species' temperatures %r, %r (from %r)" % (t0, t1, d["temperature_initial"]))
    n0, n1 = d["species_counts"]
    mean = (n0 * t0 + n1 * t1) / (n0 + n1)
    expect(abs(mean / d["temperature_final"] - 1) < 1e-12,
           "species' temperatures average to %r, not %r" % (mean, d["temperature_final"]))
    expect(d["compressibility_reference"] is None, "a reference with an inelastic pair")
    p = r.ok(["n=200", "species=2", "pair_restitution=1-1:0.5,0-1:0.9",
              "species_wall_restitution=0:0.25", "time=0.2"])
    expect("  restitution        pairs 1-1: 0.5, 0-1: 0.9 (the others 1); walls: species 0: "
           "0.25 (the others 1)\n" in p.stdout and "no equilibrium reference" in p.stdout,
           "summary:\n%s" % p.stdout)
    p = r.ok(["n=200", "species=2", "time=0.2"])
    expect("restitution" not in p.stdout, "restitution in the summary:\n%s" % p.stdout)
    p = r.ok(["--help"], command=None)
    expect("pair_restitution" in p.stdout and "species_wall_restitution" in p.stdout,
           "--help lacks the keys:\n%s" % p.stdout)
    # A species without spheres: null; an inelastic pair of it changes nothing.
    d = r.json(["n=300", "species=3", "species_fraction=1,0,1", "pair_restitution=1-1:0.5",
                "equilibrate=0", "time=0.5"])
    expect(d["species_temperature"][1] is None and d["species_temperature"][0] > 0,
           "species_temperature %r" % d["species_temperature"])
    expect(d["compressibility_reference"] is not None, "no reference (the pair never meets)")
    d = r.json(["n=100", "time=0.2"])
    expect("species_temperature" not in d and d["pair_restitution"] == [] and
           d["species_wall_restitution"] == [], "one species: %r" % d)
    # Walls: species 1 inelastic there, an ideal gas meeting only walls.
    walls = ["dim=2", "n=200", "packing=0.4", "boundary=walls", "species=2",
             "pass_through=0-0,0-1,1-1", "equilibrate=0", "time=10"]
    plain = r.json(walls)
    d = r.json(walls + ["species_wall_restitution=1:0.5"])
    expect(d["species_wall_restitution"] == [[1, 0.5]],
           "species_wall_restitution %r" % d["species_wall_restitution"])
    expect(d["species_temperature"][0] == plain["species_temperature"][0],
           "species 0 changed: %r, %r" % (d["species_temperature"], plain["species_temperature"]))
    expect(d["species_temperature"][1] < 0.5 * plain["species_temperature"][1],
           "species 1 at walls of restitution 0.5: %r, %r"
           % (d["species_temperature"], plain["species_temperature"]))


def spins_by_species(path):
    """Largest |spin| of each species (0 and 1) in an XYZ file with spins
    (SPIN_PROPERTIES: spin:R:3 last)."""
    (comment, rows), = read_xyz(path)
    expect(comment_value(comment, "Properties") == SPIN_PROPERTIES,
           "%s: Properties %r" % (path, comment_value(comment, "Properties")))
    largest = [0.0, 0.0]
    for k, row in zip(species_of(path), rows):
        largest[k] = max(largest[k], max(abs(w) for w in row[8:11]))
    return largest


def case_pair_friction(r):
    """Friction by species (pair_friction=, species_wall_friction=). Species
    1 perfectly rough among itself (1-1: beta 1, no Coulomb limit), every
    other pair smooth, in a periodic box: the run is rough (rotational
    fields), translation hands energy to the spins of species 1 only
    (final= file: species 0 never spins) while the total energy is kept
    (to 1e-12), and Carnahan-Starling's Z still applies (smooth and
    perfectly rough pairs keep the smooth fluid's structure) but not
    Enskog's smooth-sphere D. With a Coulomb limit (1-1:1:0.1) sliding
    loses energy and the reference is null; mu defaults to friction=.
    pair_friction=1-1:-1 (smooth) leaves the run smooth: no rotational
    field, Enskog's D offered; response=none is never rough. Species 1
    rough at walls only (species_wall_friction=1:0), in an ideal gas
    (every pair passing through): species 1 spins, species 0 does not.
    The summary's friction line; --help names the keys."""
    base = ["n=1000", "packing=0.3", "species=2", "equilibrate=0", "time=2"]
    final = r.path("pair_friction.xyz")
    d = r.json(base + ["pair_friction=1-1:1", "final=" + final])
    expect(d["pair_friction"] == [[1, 1, 1, None]] and d["species_wall_friction"] == [] and
           d["tangential_restitution"] == -1 and d["friction"] is None,
           "settings %r" % [d.get(k) for k in ("pair_friction", "species_wall_friction",
                                               "tangential_restitution", "friction")])
    present = [k for k in ROTATIONAL_FIELDS if k in d]
    expect(present == list(ROTATIONAL_FIELDS), "rotational fields %r" % present)
    expect(d["rotational_energy_initial"] == 0 and d["rotational_temperature_final"] > 0,
           "rotation %r -> %r" % (d["rotational_energy_initial"],
                                  d["rotational_temperature_final"]))
    energy = d["kinetic_energy_initial"]
    after = d["kinetic_energy_final"] + d["rotational_energy_final"]
    print("pair_friction=1-1:1: rotation holds %.4f of the energy, total energy change %.3g"
          % (d["rotational_energy_final"] / energy, after / energy - 1))
    expect(d["rotational_energy_final"] > 0.05 * energy,
           "rotation holds %r of the energy" % (d["rotational_energy_final"] / energy))
    expect(abs(after / energy - 1) < 1e-12 and abs(d["energy_relative_change"]) < 1e-12,
           "energy %r -> %r (%r)" % (energy, after, d["energy_relative_change"]))
    expect(d["compressibility_reference"] is not None,
           "no reference for smooth and perfectly rough pairs")
    spins = spins_by_species(final)
    expect(spins[0] == 0 and spins[1] > 0, "largest spins by species: %r" % spins)
    d = r.json(base + ["pair_friction=1-1:1", "msd=on"])
    expect(d["self_diffusion_enskog"] is None, "Enskog's smooth-sphere D with rough pairs")

    # Coulomb's limit: sliding loses energy, and the reference goes.
    d = r.json(base + ["pair_friction=1-1:1:0.1"])
    expect(d["pair_friction"] == [[1, 1, 1, 0.1]], "pair_friction %r" % d["pair_friction"])
    expect(d["energy_relative_change"] < -1e-4,
           "Coulomb's limit kept the energy: %r" % d["energy_relative_change"])
    expect(d["compressibility_reference"] is None, "a reference with sliding pairs")
    d = r.json(base + ["friction=0.2", "pair_friction=1-1:1,0-1:0.5:0.3"])
    expect(d["pair_friction"] == [[1, 1, 1, 0.2], [0, 1, 0.5, 0.3]],
           "mu from friction=: %r" % d["pair_friction"])

    # Smooth after all, and no response: not rough.
    d = r.json(base + ["pair_friction=1-1:-1,0-1:-1:0.5", "msd=on"])
    present = [k for k in ROTATIONAL_FIELDS if k in d]
    expect(not present, "beta -1 everywhere reports %s" % present)
    expect(d["self_diffusion_enskog"] is not None, "no Enskog D for smooth pairs")
    d = r.json(base + ["pair_friction=1-1:1", "response=none"])
    present = [k for k in ROTATIONAL_FIELDS if k in d]
    expect(not present, "response=none reports %s" % present)

    # Walls: species 1 rough there, in an ideal gas meeting only walls.
    final = r.path("wall_friction.xyz")
    d = r.json(["dim=2", "n=200", "packing=0.3", "boundary=walls", "species=2",
                "pass_through=0-0,0-1,1-1", "species_wall_friction=1:0", "equilibrate=0",
                "time=10", "final=" + final])
    expect(d["species_wall_friction"] == [[1, 0, None]],
           "species_wall_friction %r" % d["species_wall_friction"])
    expect(d["rotational_energy_final"] > 0 and d["energy_relative_change"] < 0,
           "rough walls: rotation %r, energy change %r" % (d["rotational_energy_final"],
                                                          d["energy_relative_change"]))
    spins = spins_by_species(final)
    expect(spins[0] == 0 and spins[1] > 0, "2D walls: largest spins by species %r" % spins)

    p = r.ok(["n=200", "species=2", "friction=0.3", "pair_friction=1-1:1,0-1:0.5:0.2",
              "species_wall_friction=0:0", "boundary=walls", "time=0.2"])
    line = ("  friction           pairs 1-1: beta 1 mu 0.3, 0-1: beta 0.5 mu 0.2 (the others "
            "beta -1 mu 0.3); walls: species 0: beta 0 mu inf (the others beta -1 mu inf)\n")
    expect(line in p.stdout and "rotational energy" in p.stdout, "summary:\n%s" % p.stdout)
    # The per-pair laws are below; the rough line does not claim one for all.
    expect("  rough spheres      tangential restitution by pair and species (friction below), "
           "inertia 0.4 m r^2\n" in p.stdout, "rough line:\n%s" % p.stdout)
    # inf: no limit, for one pair where friction= sets one for the others, and
    # spelled out for the default; as a pair's mu the same as leaving it out.
    no_limit = ["n=200", "species=2", "time=0.5", "seed=4", "tangential_restitution=0.5",
                "final=" + r.path("no_limit.xyz")]
    d = r.json(no_limit + ["friction=0.3", "pair_friction=0-1:1:inf"])
    expect(d["pair_friction"] == [[0, 1, 1, None]], "pair_friction %r" % d["pair_friction"])
    spelled = r.json(no_limit + ["friction=inf", "wall_friction=inf"])
    default = r.json(no_limit)
    expect(spelled["collisions"] == default["collisions"] and
           spelled["rotational_energy_final"] == default["rotational_energy_final"],
           "friction=inf differs from the default: %r, %r" % (spelled, default))
    given = r.json(no_limit + ["pair_friction=0-1:0.5:inf"])
    expect(given["collisions"] == default["collisions"] and
           given["rotational_energy_final"] == default["rotational_energy_final"],
           "a pair's mu inf differs from friction='s default")
    p = r.ok(["n=200", "species=2", "time=0.2"])
    expect("friction" not in p.stdout, "friction in the summary:\n%s" % p.stdout)
    d = r.json(["n=100", "time=0.2"])
    expect(d["pair_friction"] == [] and d["species_wall_friction"] == [], "one species: %r" % d)
    p = r.ok(["--help"], command=None)
    expect("pair_friction" in p.stdout and "species_wall_friction" in p.stdout,
           "--help lacks the keys:\n%s" % p.stdout)


def min_gap(path):
    """Smallest distance / contact distance over all pairs of an XYZ file
    (periodic box, minimum image)."""
    (comment, rows), = read_xyz(path)
    box = [float(v) for v in comment.split('Lattice="')[1].split('"')[0].split()][0::4]
    dim = 2 if "dim=2" in comment else 3
    least = math.inf
    for a in range(len(rows)):
        for b in range(a + 1, len(rows)):
            d2 = 0.0
            for k in range(dim):
                d = rows[a][k] - rows[b][k]
                d -= box[k] * round(d / box[k])
                d2 += d * d
            least = min(least, math.sqrt(d2) / (rows[a][6] + rows[b][6]))
    return least


def case_compress(r):
    """compress=: spheres grown (Lubachevsky-Stillinger) before equilibrate.
    To packing 0.45 from 0.3: the packing reached is 0.45, Z then on
    Carnahan-Starling within 2%. compress=jam: 3D equal spheres jam near
    random close packing (0.62-0.66), 2D disks of radii 0.5-0.7 near 0.84
    (0.82-0.86), with no overlap in the final file. Rough spheres start
    the run with their spins at the temperature too."""
    d = r.json(["n=1000", "packing=0.3", "compress=0.45", "time=20"])
    expect(abs(d["packing_compressed"] / 0.45 - 1) < 1e-9, "reached %r" % d["packing_compressed"])
    expect(abs(d["compressibility"] / d["compressibility_reference"] - 1) < 0.02,
           "Z %r against %r" % (d["compressibility"], d["compressibility_reference"]))
    expect(abs(d["compressibility_reference"] - 9.3847) < 1e-3, "reference at 0.45")
    for keys, lo, hi in ((["n=400", "packing=0.3"], 0.62, 0.66),
                         (["dim=2", "n=600", "radius=0.5", "radius_max=0.7", "packing=0.5"],
                          0.82, 0.86)):
        final = r.path("jammed.xyz")
        d = r.json(keys + ["compress=jam", "equilibrate=0", "time=0.01", "final=" + final])
        expect(lo < d["packing_compressed"] < hi,
               "jammed at %r, expected %g-%g" % (d["packing_compressed"], lo, hi))
        expect(d["compressibility"] > 100, "jammed Z %r" % d["compressibility"])
        expect(d["compressibility_reference"] is None, "a fluid's Z for a jammed packing")
        gap = min_gap(final)
        expect(1 - 1e-9 < gap < 1.01, "closest pair at %r contact distances" % gap)
    p = r.ok(["n=300", "packing=0.2", "compress=0.3", "time=1"])
    expect("grown to 0.3" in p.stdout, "summary lacks the compression:\n%s" % p.stdout)
    # Rough spheres leave the compression with their spins at the
    # temperature too (they start at none; the growth heats them).
    d = r.json(["n=1000", "packing=0.2", "compress=0.4", "tangential_restitution=1",
                "equilibrate=0", "time=0.1"])
    for key in ("temperature_initial", "rotational_temperature_initial"):
        expect(abs(d[key] - 1) < 1e-9, "%s %r after compress=, not 1" % (key, d[key]))


CASES = {
    "json_fields": case_json_fields,
    "few_spheres": case_few_spheres,
    "summary": case_summary,
    "pressure_error": case_pressure_error,
    "progress_terminal": case_progress_terminal,
    "help_version": case_help_version,
    "config_file": case_config_file,
    "xyz_round_trip": case_xyz_round_trip,
    "report_only_round_trip": case_report_only_round_trip,
    "init_temperature": case_init_temperature,
    "collision_log": case_collision_log,
    "trajectory": case_trajectory,
    "scenarios": case_scenarios,
    "equilibrate_excluded": case_equilibrate_excluded,
    "neighbours": case_neighbours,
    "neighbours_report_only": case_neighbours_report_only,
    "prefetch": case_prefetch,
    "reorder": case_reorder,
    "kgs_forces": case_kgs_forces,
    "kgs_field": case_kgs_field,
    "orbits_collision_log": case_orbits_collision_log,
    "msd": case_msd,
    "rdf": case_rdf,
    "viscosity": case_viscosity,
    "conductivity": case_conductivity,
    "bulk_viscosity": case_bulk_viscosity,
    "planes": case_planes,
    "segments": case_segments,
    "segments_periodic": case_segments_periodic,
    "segments_file": case_segments_file,
    "triangles": case_triangles,
    "triangles_periodic": case_triangles_periodic,
    "mesh": case_mesh,
    "thermostat": case_thermostat,
    "compress": case_compress,
    "rough": case_rough,
    "spin_round_trip": case_spin_round_trip,
    "species": case_species,
    "sense": case_sense,
    "shear": case_shear,
    "pair_restitution": case_pair_restitution,
    "pair_friction": case_pair_friction,
}


def main(argv):
    if len(argv) == 2 and argv[1] == "--list":
        print(";".join(["bad_" + k for k in BAD_INPUT] + list(CASES)))
        return 0
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    carom, data, work, name = argv[1:]
    os.makedirs(work, exist_ok=True)
    r = Runner(os.path.abspath(carom), os.path.abspath(data), work)
    try:
        if name.startswith("bad_") and name[4:] in BAD_INPUT:
            bad_input(r, name[4:])
        elif name in CASES:
            CASES[name](r)
        else:
            print("unknown case %s" % name, file=sys.stderr)
            return 2
    except Failure as e:
        print("FAIL %s: %s" % (name, e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
