"""The synthetic photo generator: determinism, honest labels, every kind and style, clear errors."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from companion.rules.tiles import Tile, check_distinct
from companion.synth import (KINDS, STYLE_NAMES, InvalidSceneError, UnknownGroundError, UnknownKindError,
                             UnknownLightError, UnknownStyleError, render_photo, render_scene)
from companion.synth.faces import face_texture
from companion.synth.layouts import make_layout
from companion.synth.styles import pick_style

SMALL = (480, 360)


def _check_label(img: np.ndarray, label: dict) -> None:
    h, w = img.shape[:2]
    assert (label["width"], label["height"]) == (w, h)
    tiles = [Tile(*t["pips"]) for t in label["tiles"]]
    check_distinct({"photo": tiles})  # each tile at most once
    for t in label["tiles"]:
        assert all(0 <= v <= 6 for v in t["pips"])
        q = np.asarray(t["corners"], float)
        assert q.shape == (4, 2)
        if not t["partial"]:
            assert (q[:, 0] >= 0).all() and (q[:, 0] < w).all() and (q[:, 1] >= 0).all() and (q[:, 1] < h).all()
        else:
            assert ((q[:, 0] < 0) | (q[:, 0] >= w) | (q[:, 1] < 0) | (q[:, 1] >= h)).any()
        # a face is a convex quad, twice as long as wide seen from above (short edges 0-1 and 2-3); a far
        # tile in a steep view is foreshortened along the line of sight, so allow down to half of that
        assert cv2.isContourConvex(q.astype(np.float32))
        short = np.linalg.norm(q[0] - q[1]) + np.linalg.norm(q[2] - q[3])
        long_ = np.linalg.norm(q[1] - q[2]) + np.linalg.norm(q[3] - q[0])
        assert 0.5 < long_ / short < 4.0
    assert label["pip_total"] == sum(sum(t["pips"]) for t in label["tiles"] if not t["partial"])


def test_same_seed_same_photo_other_seed_other_photo():
    a, la = render_scene(7, size=SMALL)
    b, lb = render_scene(7, size=SMALL)
    c, _ = render_scene(8, size=SMALL)
    assert np.array_equal(a, b) and la == lb
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_renders_with_a_consistent_label(kind):
    img, label = render_scene(3, kind=kind, size=(800, 600))
    assert img.shape == (600, 800, 3) and img.dtype == np.uint8
    _check_label(img, label)
    assert label["kind"] == kind and kind in label["tags"]
    whole = [t for t in label["tiles"] if not t["partial"]]
    if kind == "full-set":
        assert len(whole) == 28
    if kind == "crowd":
        assert len(label["tiles"]) >= 15


@pytest.mark.parametrize("seed", range(6))
def test_line_of_play_junctions_agree_with_the_tiles(seed):
    img, label = render_scene(seed, kind="layout", size=(640, 480))
    _check_label(img, label)
    tiles = label["tiles"]
    assert 5 <= len(tiles) <= 15 and not any(t["partial"] for t in tiles)
    assert 20 <= label["tilt_deg"] <= 45
    assert len(label["junctions"]) == len(tiles) - 1  # a tree: every tile but the first joins one other
    for j in label["junctions"]:
        a, b = j["tiles"]
        assert a != b and 0 <= a < len(tiles) and 0 <= b < len(tiles)
        assert j["pips"][0] in tiles[a]["pips"] and j["pips"][1] in tiles[b]["pips"]
        assert j["ok"] == (j["pips"][0] == j["pips"][1])
        # the junction's tiles touch: their faces come close in the photo
        qa, qb = np.asarray(tiles[a]["corners"]), np.asarray(tiles[b]["corners"])
        gap = min(abs(cv2.pointPolygonTest(qb.astype(np.float32), tuple(map(float, p)), True)) for p in qa)
        assert gap < 0.25 * np.linalg.norm(qa[0] - qa[1]) or _edges_touch(qa, qb)
    assert label["legal"] == all(j["ok"] for j in label["junctions"])


def _edges_touch(qa: np.ndarray, qb: np.ndarray) -> bool:
    d = cv2.pointPolygonTest(qa.astype(np.float32), tuple(map(float, qb.mean(0))), True)
    return abs(d) < np.linalg.norm(qb[1] - qb[2])


def test_wrong_layout_has_exactly_one_wrong_junction():
    for seed in range(4):
        _, label = render_scene(seed, kind="layout", size=SMALL, wrong=True)
        assert [j["ok"] for j in label["junctions"]].count(False) == 1 and label["legal"] is False
        _, label = render_scene(seed, kind="layout", size=SMALL, wrong=False)
        assert label["legal"] is True


def test_corner_zero_is_at_the_pips0_end():
    # render one tile face-up from straight above; its pips[0] half is the half next to corners[0]-[1]
    img, label = render_scene(5, kind="hand", count=1, size=(800, 600), tilt_deg=0.0, light="overcast",
                              ground="table", style="pine-black", jpeg_quality=95)
    (tile,) = label["tiles"]
    q = np.asarray(tile["corners"], np.float32)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)

    def dark_fraction(quad: np.ndarray) -> float:
        mask = np.zeros(gray.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
        vals = gray[mask > 0]
        return float((vals < 0.5 * np.median(vals)).mean())

    mid_a, mid_b = (q[0] + q[3]) / 2, (q[1] + q[2]) / 2
    half0 = np.array([q[0], q[1], mid_b, mid_a])
    half1 = np.array([mid_a, mid_b, q[2], q[3]])
    p0, p1 = tile["pips"]
    if p0 != p1:
        assert (dark_fraction(half0) > dark_fraction(half1)) == (p0 > p1)


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_styles_are_selectable(style):
    _, label = render_scene(2, kind="hand", style=style, size=SMALL)
    assert label["style"] == style


def test_face_texture_shape_and_range():
    rng = np.random.default_rng(0)
    tex, centres = face_texture(rng, (6, 0), 40, pick_style(rng, "dark-light"))
    assert tex.shape == (40, 80, 3) and tex.dtype == np.float32
    assert 0.0 <= tex.min() and tex.max() <= 1.0
    assert len(centres[0]) == 6 and centres[1] == []


def test_photo_bytes_are_a_jpeg_of_the_label_size():
    data, label = render_photo(4, size=SMALL)
    assert data[:3] == b"\xff\xd8\xff"
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert img.shape[:2] == (label["height"], label["width"])


def test_partial_tiles_are_labelled_and_left_out_of_the_total():
    found = False
    for seed in range(40):
        img, label = render_scene(seed, kind="crowd", size=SMALL)
        _check_label(img, label)
        if any(t["partial"] for t in label["tiles"]):
            found = "partial" in label["tags"]
            break
    assert found


def test_unknown_names_raise_clear_errors():
    with pytest.raises(UnknownKindError, match="'heap'"):
        render_scene(1, kind="heap")
    with pytest.raises(UnknownStyleError, match="'plaid'"):
        render_scene(1, style="plaid")
    with pytest.raises(UnknownGroundError, match="'lava'"):
        render_scene(1, ground="lava", size=SMALL)
    with pytest.raises(UnknownLightError, match="'strobe'"):
        render_scene(1, light="strobe", size=SMALL)
    for bad in (dict(size=(0, 100)), dict(count=29), dict(tilt_deg=80.0), dict(jpeg_quality=0)):
        (key, value), = bad.items()
        with pytest.raises(InvalidSceneError, match=re.escape(f"{key}: {value!r}")):
            render_scene(1, **bad)


def test_layout_tiles_never_overlap():
    rng = np.random.default_rng(11)
    from companion.synth.layouts import _overlap, footprint
    for kind in ("crowd", "touching", "layout", "full-set"):
        lay = make_layout(rng, kind)
        for i, a in enumerate(lay.tiles):
            for b in lay.tiles[:i]:
                assert not _overlap(footprint(a, -0.03), footprint(b, -0.03))


@pytest.mark.parametrize("orientation", [3, 6, 8])
def test_exif_orientation_shows_the_same_upright_photo(orientation):
    import io

    from PIL import Image, ImageOps

    from companion.synth.exif import with_orientation

    data, label = render_photo(9, size=(320, 240), jpeg_quality=95)
    turned = with_orientation(data, orientation)
    with Image.open(io.BytesIO(turned)) as img:
        stored = img.size
        upright = np.asarray(ImageOps.exif_transpose(img).convert("L"), np.float32)
    assert stored == ((240, 320) if orientation in (6, 8) else (320, 240))
    original = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE).astype(np.float32)
    assert upright.shape == original.shape
    assert np.abs(upright - original).mean() < 3.0  # the same picture, only re-encoded
    with pytest.raises(ValueError, match="5"):
        with_orientation(data, 5)


def test_set_seed_keeps_one_physical_set_across_photos():
    _, a = render_scene(1, kind="full-set", style="dark-light", size=SMALL, set_seed=42)
    _, b = render_scene(2, kind="full-set", style="dark-light", size=SMALL, set_seed=42)
    _, c = render_scene(1, kind="full-set", style="dark-light", size=SMALL)
    assert a["set"] == b["set"] and a["set"] != c["set"]
    assert a["style"] == b["style"] == "dark-light" and a["tiles"] != b["tiles"]
