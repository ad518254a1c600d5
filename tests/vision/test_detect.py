"""The detector's second, finer look where the tiles are small, and where it looks."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from calibration import load_profile
from companion.vision import read_tiles
from companion.vision.detect import PAD, Candidate, busy_region, finer_side, merged
from companion.vision.profile import Profile
from drawing import draw_tile, table


def _candidate(x: float, y: float, length: float, score: float = 0.8) -> Candidate:
    return Candidate(np.array([x, y], float), 0.0, length, length / 2, score)


def test_small_tiles_ask_for_a_finer_look_and_long_ones_do_not():
    profile = Profile()  # detect_side 768, tiles wanted about 60 px there
    small = [_candidate(100 + 50 * k, 100, 40) for k in range(8)]  # 40 px on a 1536 photo: 20 px at 768
    side = finer_side(small, 1536, profile)
    assert side is not None and side % PAD == 0
    assert side == pytest.approx(768 * 60 / 20, abs=PAD) or side == profile.detect_side_most
    assert finer_side([_candidate(100, 100, 200)], 1536, profile) is None  # 100 px at 768
    assert finer_side([], 1536, profile) is None
    # unsure candidates say nothing of the tiles' size
    assert finer_side([replace(c, score=0.1) for c in small], 1536, profile) is None


def test_the_finer_look_is_capped():
    tiny = [_candidate(100, 100, 10)]
    assert finer_side(tiny, 1536, Profile()) == Profile().detect_side_most


def test_the_second_look_covers_where_the_tiles_are_and_skips_an_empty_photo_s_rest():
    found = [_candidate(500, 400, 60), _candidate(700, 450, 60)]
    x0, y0, x1, y1 = busy_region(found, 4000, 3000)
    assert x0 < 500 - 60 and x1 > 700 + 60 and y0 < 400 - 60 and y1 > 450 + 60
    assert busy_region([_candidate(100, 100, 60), _candidate(3900, 2900, 60)], 4000, 3000) is None
    assert busy_region([], 4000, 3000) is None


def test_the_coarse_look_adds_only_faces_the_fine_one_did_not_see():
    fine = [_candidate(100, 100, 60, 0.6)]
    coarse = [_candidate(105, 102, 70, 0.9), _candidate(400, 100, 200, 0.7)]
    out = merged(fine, coarse)
    assert [tuple(c.centre) for c in out] == [(400, 100), (100, 100)]  # best first


def test_tiles_small_in_a_large_photo_are_read_through_the_finer_look():
    img = table(2400, 1600)
    tiles = [((900 + 110 * (k % 5), 600 + 130 * (k // 5)), 90 * (k % 2), 44, pips)
             for k, pips in enumerate([(6, 4), (3, 0), (5, 2), (1, 1), (6, 6), (2, 0), (4, 3), (5, 5), (6, 1), (3, 2)])]
    for centre, angle, width, pips in tiles:
        draw_tile(img, centre, angle, width, pips)
    profile = load_profile("ivory")
    reading = read_tiles(img, profile)
    assert sorted(tuple(sorted(t.pips)) for t in reading.tiles) == sorted(tuple(sorted(p)) for *_, p in tiles)


class _Maps:
    """A detector network stub whose heat (logits) is given, with every face's frame a tile 64 x 32 along x."""

    def __init__(self, heat: np.ndarray) -> None:
        self.heat = heat

    def run(self, x, outputs=None):
        n, _, h, w = x.shape
        assert self.heat.shape == (h // 4, w // 4)
        maps = np.zeros((n, 7, h // 4, w // 4), np.float32)
        maps[:, 0] = np.log(self.heat / (1 - self.heat))
        maps[:, 3] = 1.0  # cos(2 * angle): along x
        maps[:, 5], maps[:, 6] = np.log(2.0), 0.0  # 64 and 32 pixels
        return [maps]


def test_weak_peaks_at_the_border_are_kept_apart_as_tiles_cut_off(monkeypatch):
    from companion.vision import detect

    heat = np.full((24, 32), 0.01, np.float32)  # a 96 x 128 photo, at its own size
    heat[10, 15] = 0.9  # a tile
    heat[0, 5] = 0.1  # weak, on the top border
    heat[12, 31] = 0.06  # weak, on the right border
    heat[20, 1] = 0.04  # weaker than border_heat
    heat[6, 6] = 0.1  # weak, inside: nothing
    monkeypatch.setattr(detect, "network", lambda name: _Maps(heat))
    image = np.zeros((96, 128, 3), np.uint8)
    profile = Profile(detect_side=128)
    border: list[Candidate] = []
    found = detect.find_candidates(image, profile, border=border)
    cell = 4 * np.array([[15, 10], [5, 0], [31, 12]]) + 1.5  # the cells' centres, xy
    assert np.allclose([c.centre for c in found], cell[:1])
    assert np.allclose([c.centre for c in border], cell[1:])  # best first
    assert border[0].length == pytest.approx(64) and border[0].angle == pytest.approx(0)
    none: list[Candidate] = []
    detect.find_candidates(image, replace(profile, border_heat=0.0), border=none)
    assert none == []


def test_weak_peaks_inside_the_photo_are_kept_apart_too(monkeypatch):
    from companion.vision import detect

    heat = np.full((24, 32), 0.01, np.float32)  # a 96 x 128 photo, at its own size
    heat[10, 15] = 0.9  # a tile
    heat[6, 6] = 0.1  # weak, inside
    heat[18, 20] = 0.06  # weaker than weak_heat
    heat[0, 5] = 0.1  # weak, on the top border: a tile cut off, not one of these
    monkeypatch.setattr(detect, "network", lambda name: _Maps(heat))
    image = np.zeros((96, 128, 3), np.uint8)
    profile = Profile(detect_side=128)
    weak: list[Candidate] = []
    found = detect.find_candidates(image, profile, weak=weak)
    assert len(found) == 1 and np.allclose([c.centre for c in weak], [4 * np.array([6, 6]) + 1.5])
    none: list[Candidate] = []
    detect.find_candidates(image, replace(profile, weak_heat=0.0), weak=none)
    assert none == []


def test_the_finer_looks_weak_peaks_are_looked_at_as_the_first_looks_are(monkeypatch):
    import companion.vision.looks as looks

    sides: list = []

    def find_candidates(image, profile, side=None, region=None, border=None, weak=None):
        sides.append(side)
        if weak is not None:  # a weak peak at each look, at x 150 and then 200
            weak.append(_candidate(100 + 50 * len(sides), 100, 30, 0.1))
        return [_candidate(200, 200, 30), _candidate(300, 200, 30)]  # tiles small for the detector

    class Filled(Exception):
        pass

    def filled(pyramid, faces, orphans, beside, profile, weak=(), above=()):
        raise Filled([frame[0][0] for frame in weak])

    monkeypatch.setattr("companion.vision.detect.find_candidates", find_candidates)
    monkeypatch.setattr(looks, "_filled", filled)
    with pytest.raises(Filled) as looked:
        looks.find_faces(table(640, 480), Profile())
    assert sides[0] is None and sides[1] is not None  # the first look, then the finer one
    assert sorted(looked.value.args[0]) == [150, 200]
