"""The verify benchmark's scoring: a read tile is right when each half is at its own end.

The reader may start a tile's corners at either end (``corners[0]``-``corners[1]`` is then the end of
the half it calls ``pips[0]``); the benchmark must compare halves end for end, not list for list.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("verify_benchmark", ROOT / "benchmarks" / "verify_benchmark.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["verify_benchmark"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


LABEL_TILE = {"pips": [6, 2], "corners": [[0, 0], [0, 50], [100, 50], [100, 0]], "partial": False}
TURNED_CORNERS = [[101, 51], [101, 1], [1, 1], [1, 51]]  # the same face, corners from the other end


def _tally(bench, read_pips, read_corners):
    label = {"file": "x.jpg", "tiles": [LABEL_TILE], "junctions": [], "legal": True}
    verdict = {"tiles": [{"pips": read_pips, "corners": read_corners, "confidence": 0.9}],
               "junctions": [], "legal": True, "warnings": []}
    tally = bench.Tally()
    bench.score(label, verdict, tally, "x")
    return tally


def test_a_tile_read_from_its_other_end_is_read_right(bench):
    assert bench.in_read_order(LABEL_TILE, {"corners": TURNED_CORNERS}) == [2, 6]
    assert _tally(bench, [2, 6], TURNED_CORNERS).tiles_right == 1
    assert _tally(bench, [6, 2], LABEL_TILE["corners"]).tiles_right == 1


def test_halves_at_the_wrong_ends_are_a_misread(bench):
    assert _tally(bench, [6, 2], TURNED_CORNERS).tiles_right == 0
    assert _tally(bench, [2, 6], LABEL_TILE["corners"]).tiles_right == 0
