"""The junction geometry on the generator's own lines of play, seen through a tilted camera.

The layouts come from ``companion.synth.layouts`` (spinners, crosswise doubles, corners, one wrong
junction in some); a pinhole camera 20 to 45 degrees from overhead projects their outlines, which is
what a perfect reader would report. No rendering, so this stays quick; ``benchmarks/
verify_benchmark.py`` measures the same on rendered photos through the recognizer.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from companion.verifier import verify_scan
from companion.vision.junctions import find_junctions, prune_loops

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Outline:
    pips: tuple[int, int]
    corners: np.ndarray


def _camera(tilt_deg: float, yaw: float, distance: float = 30.0, focal: float = 1500.0) -> np.ndarray:
    """Homography from the ground (tile widths) to pixels for a camera tilted ``tilt_deg``."""
    t = math.radians(tilt_deg)
    c, s = math.cos(yaw), math.sin(yaw)
    spin = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
    tilt = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    rotation = tilt @ spin
    intrinsics = np.array([[focal, 0, 800], [0, focal, 600], [0, 0, 1.0]])
    return intrinsics @ np.column_stack([rotation[:, 0], rotation[:, 1], [0, 0, distance]])


def _project(quad: np.ndarray, homography: np.ndarray) -> np.ndarray:
    points = np.hstack([quad, np.ones((4, 1))]) @ homography.T
    return points[:, :2] / points[:, 2:]


def test_generated_lines_of_play_seen_from_20_to_45_degrees():
    from companion.synth.layouts import footprint, make_layout

    rng = np.random.default_rng(20261122)
    labelled = found = right = photos = photos_right = 0
    for _ in range(60):
        layout = make_layout(rng, "layout")
        camera = _camera(float(rng.uniform(20, 45)), float(rng.uniform(0, 2 * math.pi)))
        tiles = [Outline(t.pips, _project(footprint(t), camera)) for t in layout.tiles]
        junctions = {j.tiles: j for j in prune_loops(find_junctions(tiles))[0]}
        for truth in layout.junctions:
            labelled += 1
            pair = tuple(sorted(truth.tiles))
            if pair in junctions:
                found += 1
                right += junctions[pair].ok == truth.ok
        photos += 1
        legal = all(j.ok for j in layout.junctions)
        photos_right += legal == all(j.ok for j in junctions.values())
    assert labelled > 400
    assert found / labelled >= 0.98
    assert right / labelled >= 0.98
    assert photos_right / photos >= 0.98


@pytest.mark.parametrize("name", ["layout-legal", "layout-wrong"])
def test_the_committed_layout_photos_labels_give_their_junctions(name):
    path = ROOT / "sample_images" / f"{name}.json"
    if not path.exists():
        pytest.skip(f"{path} is not there")
    label = json.loads(path.read_text())
    scan = {"file": label["file"], "warnings": [],
            "tiles": [{"pips": t["pips"], "corners": t["corners"], "confidence": 1.0} for t in label["tiles"]]}
    verdict = verify_scan(scan)
    expected = sorted((sorted(j["tiles"]), j["ok"]) for j in label["junctions"])
    assert sorted((j["tiles"], j["ok"]) for j in verdict["junctions"]) == expected
    assert verdict["legal"] == label["legal"]
    assert verdict["warnings"] == []  # one line of play, every tile on it, every reading sure
