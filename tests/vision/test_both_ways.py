"""A face read with doubt is read again straight and turned end for end, each mirrored too, and judged on the four
looks."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.vision import Profile
from companion.vision import geometry as geo
from companion.vision import read
from companion.vision.read import FaceReading, Pyramid, count_pips, read_both_ways, read_outlines

from drawing import draw_tile, table

STRAY = (40.0, 36.0)  # crop pixels (the middle of the crop's first half): where the flawed reader sees a pip


def _flawed_reader(crops: list[np.ndarray], profile: Profile, stray: float = 0.6,
                   at: tuple[tuple[float, float], ...] = (STRAY,)) -> tuple[np.ndarray, np.ndarray]:
    """A stand-in for the reader network: the face where a crop through its corners puts it, a pip wherever
    the crop shows a dark round mark, and more, of heat ``stray``, ``at`` those places in every crop (a flaw
    tied to where the crop looks, as a network's are, not to the face)."""
    h, w = geo.CROP_H // read.STRIDE, geo.CROP_W // read.STRIDE
    rows, cols = np.mgrid[0:h, 0:w]

    def bump(x: float, y: float, heat: float) -> np.ndarray:
        cx, cy = (x - (read.STRIDE - 1) / 2) / read.STRIDE, (y - (read.STRIDE - 1) / 2) / read.STRIDE
        return heat * np.exp(-((cols - cx) ** 2 + (rows - cy) ** 2) / 1.5)

    maps = np.zeros((len(crops), 5, h, w), np.float32)
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    for n, crop in enumerate(crops):
        ink = cv2.morphologyEx((cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) < 60).astype(np.uint8), cv2.MORPH_OPEN, disk)
        count, _, _, centres = cv2.connectedComponentsWithStats(ink)  # the pips (the thin divider is opened away)
        for x, y in centres[1:count]:
            maps[n, 0] = np.maximum(maps[n, 0], bump(x, y, 0.95))
        for x, y in at:
            maps[n, 0] = np.maximum(maps[n, 0], bump(x, y, stray))
        for k, (x, y) in enumerate(geo.CANONICAL):
            maps[n, k + 1] = bump(x, y, 0.9)
    logits = np.log(maps.clip(1e-6, 1 - 1e-6) / (1 - maps.clip(1e-6, 1 - 1e-6)))  # the network gives logits
    return read.sigmoid(logits), np.tile([0.99, 0.0], (len(crops), 1))


def _drawn(angle: float, pips: tuple[int, int]) -> tuple[Pyramid, FaceReading]:
    """A photo of one drawn tile, and the face the reader in place reads through its outline."""
    image = table()
    corners = geo.clockwise(draw_tile(image, (320, 240), angle, 80, pips))
    pyramid = Pyramid(image)
    face, = read_outlines(pyramid, [corners], Profile())
    return pyramid, face


def test_a_face_in_doubt_is_counted_on_a_straight_and_a_turned_look(monkeypatch):
    # a faint stray where a pip may lie (a four's middle makes a five): the pattern cannot tell it (a stray that
    # alone sets the half askew is no pip anyway)
    monkeypatch.setattr(read, "_run", lambda crops, profile: _flawed_reader(crops, profile, stray=0.6))
    profile = Profile()
    pyramid, face = _drawn(0.0, (4, 2))
    straight = count_pips(face, profile)
    assert straight.pips == (5, 2) and straight.confidence < profile.doubt_below  # the stray read as a pip
    again, = read_both_ways(pyramid, [face], profile)
    count = count_pips(again, profile)
    assert count.pips == (4, 2)  # each look's stray, at a quarter of its heat in the mean, is no pip
    assert np.array_equal(again.corners, face.corners) and again.tile_score == face.tile_score
    assert face.straight is None and again.straight == straight.confidence  # the straight look's, kept


def test_a_flaw_the_turned_look_shares_is_told_apart_by_the_mirrored_looks(monkeypatch):
    # marks tied to the crop that turning it end for end lays on themselves (a diagonal pair, and the pair turned):
    # straight and turned they read a two on the blank half and a three on the one; mirrored, they lie on the
    # other diagonals, and in the mean of the four looks they are no pips
    diagonal = ((54.4, 23.0), (25.6, 49.0))  # crop pixels: a two on the first half
    flaws = diagonal + tuple((geo.CROP_W - 1 - x, geo.CROP_H - 1 - y) for x, y in diagonal)
    monkeypatch.setattr(read, "_run", lambda crops, profile: _flawed_reader(crops, profile, 0.7, flaws))
    profile = Profile()
    pyramid, face = _drawn(15.0, (0, 1))
    straight = count_pips(face, profile)
    assert straight.pips == (2, 3) and straight.confidence < profile.doubt_below
    again, = read_both_ways(pyramid, [face], profile)
    assert count_pips(again, profile).pips == (0, 1)


def test_a_face_read_surely_is_not_read_again(monkeypatch):
    calls = []

    def reader(crops, profile):
        calls.append(len(crops))
        return _flawed_reader(crops, profile, stray=0.0)

    monkeypatch.setattr(read, "_run", reader)
    profile = Profile()
    pyramid, face = _drawn(30.0, (5, 3))
    assert count_pips(face, profile).pips == (5, 3) and count_pips(face, profile).confidence >= profile.doubt_below
    calls.clear()
    assert read_both_ways(pyramid, [face], profile)[0] is face and not calls
    # nor is a face read both ways already (a look the gaps' looks judged so, kept as it was)
    judged = replace(face, tile_score=(profile.shaped_tile_threshold + profile.tile_threshold) / 2, straight=0.3)
    assert read_both_ways(pyramid, [judged], profile)[0] is judged and not calls


def test_a_face_the_reader_is_unsure_is_whole_is_judged_on_both_looks(monkeypatch):
    monkeypatch.setattr(read, "_run", lambda crops, profile: _flawed_reader(crops, profile, stray=0.0))
    profile = Profile()
    pyramid, face = _drawn(-20.0, (6, 4))
    unsure = replace(face, tile_score=(profile.shaped_tile_threshold + profile.tile_threshold) / 2, logo_score=0.4)
    no_tile = replace(face, tile_score=profile.shaped_tile_threshold / 2)
    judged, left = read_both_ways(pyramid, [unsure, no_tile], profile)
    assert judged.tile_score == pytest.approx(0.99) and judged.logo_score == 0.0  # the looks' means
    assert count_pips(judged, profile).pips == (6, 4)
    assert left is no_tile


def test_two_cells_of_a_peak_s_equal_heat_are_one_pip():
    # the mean of looks a pixel apart can give the top of a pip two cells of the same heat
    heat = np.zeros((geo.CROP_H // read.STRIDE, geo.CROP_W // read.STRIDE), np.float32)
    heat[10, 12:14] = 0.9
    heat[20, 40] = heat[21, 40] = 0.8
    first, second = read._peaks(heat, Profile())
    assert [p.heat for p in first] == [pytest.approx(0.9)] and [p.heat for p in second] == [pytest.approx(0.8)]
