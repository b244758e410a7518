"""The Python mirror of the headers (carom/_library.py, carom/drive.py)
against the C compiler's view of them (layout.c, run through
CAROM_LAYOUT): sizes, field offsets, enum values, and every enum constant
of the headers mirrored."""

import ctypes
import json
import os
import re
import subprocess

import carom
from carom import _library, drive, thermostat

C = json.loads(subprocess.run([os.environ["CAROM_LAYOUT"]], check=True, capture_output=True,
                              text=True).stdout)

ENUMS = {"CAROM_BOUNDARY_": _library.BOUNDARY, "CAROM_RESPONSE_": _library.RESPONSE,
         "CAROM_NEIGHBOURS_": _library.NEIGHBOURS, "CAROM_PREFETCH_": _library.PREFETCH,
         "CAROM_REORDER_": _library.REORDER, "CAROM_CONTACT_": _library.CONTACT_KIND,
         "CAROM_LATTICE_": _library.LATTICE}


STRUCTURES = _library.STRUCTURES + drive.STRUCTURES + thermostat.STRUCTURES


def test_every_structure_has_the_c_size_and_offsets():
    assert sorted(C["structs"]) == sorted(s.__name__ for s in STRUCTURES)
    for structure in STRUCTURES:
        c = C["structs"][structure.__name__]
        fields = [name for name, _ in structure._fields_]
        assert fields == list(c["fields"]), structure.__name__
        offsets = {name: getattr(structure, name).offset for name in fields}
        assert offsets == c["fields"], structure.__name__
        assert c["size"] == ctypes.sizeof(structure), structure.__name__


def test_enum_values_agree():
    constants = C["constants"]
    for value, name in enumerate(_library.STATUS_NAMES):
        assert constants[name] == value
        assert _library.status_name(value) == name
        assert _library.status_text(value) not in ("", "unknown status")
    assert constants["CAROM_ERROR_MESSAGE_SIZE"] == _library.ERROR_MESSAGE_SIZE
    assert constants["CAROM_SPECIES_MAX"] == _library.SPECIES_MAX
    for prefix, table in ENUMS.items():
        for name, value in table.items():
            assert constants[prefix + name.upper()] == value, prefix + name


def test_every_constant_of_the_headers_is_mirrored():
    headers = os.environ["CAROM_INCLUDE"]
    text = "".join(open(os.path.join(headers, "carom", h)).read()
                   for h in ("carom.h", "scene.h"))
    found = set(re.findall(r"\bCAROM_[A-Z_]+\b", text))
    found -= {"CAROM_CAROM_H", "CAROM_SCENE_H", "CAROM_VERSION_STRING"}
    assert found == set(C["constants"])
    mirrored = set(_library.STATUS_NAMES) | {"CAROM_ERROR_MESSAGE_SIZE", "CAROM_SPECIES_MAX"}
    mirrored |= {prefix + name.upper() for prefix, table in ENUMS.items() for name in table}
    assert mirrored == found


def test_query_constant_agrees():
    assert C["query_no_sphere"] == _library.QUERY_NO_SPHERE


def test_version_agrees():
    assert carom.__version__ == C["version"]
