"""The first look at a detector's guess: final where it saw the face square on, or nearly so and read surely;
otherwise the face is looked at again through the corners it found."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import Profile
from companion.vision import geometry as geo
from companion.vision import read
from companion.vision.read import STRIDE, count_pips

TWO = [(28.0, 24.0), (52.0, 48.0)]  # a two's pips in the crop's left half, diagonal about its middle (40, 36)
FRAME = (np.array([300.0, 200.0]), 0.0, 160.0, 80.0)  # a guess in the photo: centre, axis, length, width


class _Photo:
    def crop(self, matrix, length):
        return np.zeros((geo.CROP_H, geo.CROP_W, 3), np.uint8)


def _maps(offset: float, pip_heat: float) -> np.ndarray:
    """Reader maps for a 2-2 whose corners (and pips) lie ``offset`` crop pixels right of their place."""
    h, w = geo.CROP_H // STRIDE, geo.CROP_W // STRIDE
    rows, cols = np.mgrid[0:h, 0:w]
    maps = np.zeros((5, h, w), np.float32)
    pips = TWO + [(geo.CROP_W - x, geo.CROP_H - y) for x, y in TWO]  # the right half: the left turned round
    for k, points in enumerate([pips, *([c] for c in geo.CANONICAL)]):
        for x, y in points:
            cx, cy = (x + offset - (STRIDE - 1) / 2) / STRIDE, (y - (STRIDE - 1) / 2) / STRIDE
            heat = pip_heat if k == 0 else 0.9
            maps[k] = np.maximum(maps[k], heat * np.exp(-((cols - cx) ** 2 + (rows - cy) ** 2) / 1.5))
    return maps


def _looks(monkeypatch, offset: float, tile: float = 0.95, pip_heat: float = 0.9, **profile) -> tuple[int, tuple]:
    """How many times the reader ran on the one guess, and what it read there."""
    runs = []

    def run(crops, profile):
        runs.append(len(crops))
        return np.stack([_maps(offset, pip_heat)] * len(crops)), np.array([[tile, 0.0]] * len(crops), np.float32)

    monkeypatch.setattr(read, "_run", run)
    face = read.read_faces(_Photo(), [FRAME], Profile(**profile))[0]
    return len(runs), count_pips(face, Profile(**profile)).pips


def test_a_look_square_on_is_final(monkeypatch):
    assert _looks(monkeypatch, 1.0) == (1, (2, 2))


@pytest.mark.parametrize("offset", [3.0, 4.5])
def test_a_look_nearly_square_on_read_surely_is_final(monkeypatch, offset):
    assert _looks(monkeypatch, offset) == (1, (2, 2))  # its pips counted in the face's own frame


def test_a_look_nearly_square_on_is_looked_at_again_unless_read_surely(monkeypatch):
    looks = Profile().max_looks  # the fake reader finds the same corners each time: they never settle
    assert _looks(monkeypatch, 3.0, sure_square_on_px=0.0)[0] == looks
    assert _looks(monkeypatch, 3.0, tile=0.6)[0] == looks  # not surely a whole tile
    assert _looks(monkeypatch, 3.0, pip_heat=0.55)[0] == looks  # its pips faint: in doubt
    assert _looks(monkeypatch, 6.0)[0] == looks  # beyond sure_square_on_px


def _orphan_read(monkeypatch, small_tile: float, small: np.ndarray) -> read.FaceReading | None:
    """What ``read_faces`` keeps for a frame left unread by the first looks (taken for a second outline of
    the face at frame 1, ``small``, read ``small_tile`` a whole tile) and read after all as a whole 2-2."""
    tile = geo.quad_of(*FRAME)
    calls = []

    def read_frames(pyramid, frames, which, profile, out):
        calls.append(list(which))
        for k in which:
            if len(calls) == 1 and k == 1:
                out[k] = read.FaceReading(small, small_tile, ((), ()))
            elif len(calls) == 2:
                out[k] = read.FaceReading(tile, 1.0, ((), ()))

    monkeypatch.setattr(read, "_read_frames", read_frames)
    second = (geo.centre_of(small), 0.0, 60.0, 30.0)
    out = read.read_faces(_Photo(), [FRAME, second], Profile())
    assert calls == [[0, 1], [0]]
    return out[0]


def test_a_frame_read_after_all_is_not_hidden_by_a_sliver_read_as_no_tile(monkeypatch):
    # a sliver at the tile's end (60 x 30 photo pixels, half of it on the tile 160 x 80), read as no whole tile
    sliver = geo.quad_of(np.array([390.0, 200.0]), 0.0, 60.0, 30.0)
    assert _orphan_read(monkeypatch, 0.45, sliver) is not None
    assert _orphan_read(monkeypatch, 0.95, sliver) is None  # a whole face there: the look took it in again


def test_a_frame_read_after_all_that_lies_on_a_face_read_is_dropped(monkeypatch):
    # a face read as no tile, beside the frame's centre, that takes in near half of the tile
    wide = geo.quad_of(np.array([405.0, 200.0]), 0.0, 200.0, 100.0)
    assert _orphan_read(monkeypatch, 0.45, wide) is None
