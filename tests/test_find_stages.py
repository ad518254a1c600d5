"""benchmarks/find_stages.py runs on small generated photos, its stages account for every whole tile, and the
finder is left as it was."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import find_stages as fs  # noqa: E402
from calibration import load_profile  # noqa: E402
from companion.synth import render_photo  # noqa: E402
from companion.vision import find  # noqa: E402


def test_stages_add_up_and_finder_restored(tmp_path):
    before = {n: getattr(find, n) for n in ("_as_line", "_fits", "_window", "_fit_quad", "_distinct_lines",
                                             "face_regions", "logo_faces", "_region_candidate", "_dedupe", "_select")}
    profile = load_profile(None)
    for seed, kind in ((7, "hand"), (8, "touching")):
        data, label = render_photo(seed, kind=kind, size=(640, 480), name=f"t{seed}.jpg")
        fates, watch = fs.analyse(data, label, profile)
        whole = [t for t in label["tiles"] if not t.get("partial", False)]
        assert len(fates) == len(whole)
        assert all(f.stage in fs.STAGES for f in fates)
        assert watch.work is not None and watch.fits  # the watch saw the finder at work
        for f in fates:
            if f.stage != "found":
                fs.draw_crop(watch, f, tmp_path / f"{seed}-{f.index}.png")
    assert {n: getattr(find, n) for n in before} == before


def test_geometry():
    sq = np.array([[0, 0], [10, 0], [10, 20], [0, 20]], float)
    assert abs(fs.quad_iou(sq, sq) - 1) < 0.02
    assert fs.quad_iou(sq, sq + [30, 0]) == 0.0
    assert abs(fs.quad_iou(sq, sq + [5, 0]) - 1 / 3) < 0.03
    assert fs.misfit(np.array([[0, 0], [10, 0], [10, 40], [0, 40]], float), sq) == "too_long"
    assert fs.misfit(np.array([[0, 0], [20, 0], [20, 20], [0, 20]], float), sq) == "too_wide"
    assert fs.misfit(np.array([[-5, 5], [15, 5], [15, 15], [-5, 15]], float), sq) == "rot90"
