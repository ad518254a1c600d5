"""Loading photos as phones save them, the scan object, and the real jmherzog photos (when ../shared is there)."""

from __future__ import annotations

import io
import json
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from calibration import UnknownProfileError, load_profile, shipped_profile_names
from companion import photo
from companion.cli import main
from companion.photo import PhotoFormatError, PhotoNotFoundError, PhotoTooLargeError, load_photo
from companion.scanner import scan_photo
from companion.vision import read_tiles
from companion.vision.nets import network
from companion.vision.profile import Profile, ProfileError
from drawing import draw_tile, table

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "real-photos"


def _jpeg_with_orientation(orientation: int) -> bytes:
    img = np.zeros((20, 40, 3), np.uint8)
    img[:, :20] = (255, 0, 0)  # left half red (RGB)
    pil = Image.fromarray(img)
    exif = Image.Exif()
    exif[0x0112] = orientation
    buf = io.BytesIO()
    pil.save(buf, "JPEG", exif=exif.tobytes(), quality=95)
    return buf.getvalue()


def test_exif_orientation_is_applied():
    img = load_photo(_jpeg_with_orientation(6))  # rotate 90 clockwise to view
    assert img.shape[:2] == (40, 20)
    assert img[2, 10, 2] > 200 and img[-2, 10, 2] < 60  # the red half is now on top (BGR: red is [2])


@pytest.mark.parametrize("orientation", range(1, 9))
def test_opencv_decodes_a_jpeg_as_pillow_does(orientation, monkeypatch):
    rng = np.random.default_rng(orientation)
    rgb = cv2.GaussianBlur(rng.integers(0, 256, (203, 331, 3), np.uint8), (0, 0), 2)  # odd sides: reductions round up
    exif = Image.Exif()
    exif[0x0112] = orientation
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, "JPEG", exif=exif.tobytes(), quality=90)
    data = buf.getvalue()
    for draft_side in (None, 170, 90, 45):  # whole, 1/2, 1/4, 1/8
        fast = load_photo(data, draft_side=draft_side)
        with monkeypatch.context() as m:
            m.setattr(photo, "_jpeg_by_opencv", lambda *args: None)  # Pillow alone
            slow = load_photo(data, draft_side=draft_side)
        assert fast.shape == slow.shape and np.array_equal(fast, slow), (orientation, draft_side)


def test_png_and_heic_round_trip(tmp_path):
    rgb = np.zeros((16, 24, 3), np.uint8)
    rgb[:, :, 1] = 200
    Image.fromarray(rgb).save(tmp_path / "a.png")
    assert load_photo(tmp_path / "a.png")[0, 0].tolist() == [0, 200, 0]
    try:
        Image.fromarray(rgb).save(tmp_path / "a.heic")
    except (KeyError, OSError, ValueError):
        pytest.skip("pillow-heif cannot write HEIC here")
    back = load_photo(tmp_path / "a.heic")
    assert back.shape == (16, 24, 3) and abs(int(back[5, 5, 1]) - 200) < 20


def test_bad_photos_get_clear_errors(tmp_path):
    with pytest.raises(PhotoNotFoundError, match="nope.jpg"):
        load_photo(tmp_path / "nope.jpg")
    (tmp_path / "t.txt").write_text("hello")
    with pytest.raises(PhotoFormatError, match="t.txt"):
        load_photo(tmp_path / "t.txt")
    whole = _jpeg_with_orientation(1)
    with pytest.raises(PhotoFormatError):
        load_photo(whole[: len(whole) // 2])
    with pytest.raises(PhotoFormatError, match="truncated"):  # cut short within its image data
        load_photo(whole[:-40], draft_side=10)
    big = io.BytesIO()
    Image.new("1", (8000, 8000)).save(big, "PNG")
    with pytest.raises(PhotoTooLargeError, match="8000x8000"):
        load_photo(big.getvalue(), max_pixels=10_000_000)


def test_a_tiny_file_declaring_a_huge_image_is_refused_before_decoding():
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", 30000, 30000, 8, 2, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b"")
    assert len(png) < 200
    with pytest.raises(PhotoTooLargeError, match="too large"):
        load_photo(png)


def test_profiles_load_and_unknown_is_refused():
    assert load_profile(None).name == "giant-wood"
    assert load_profile("ivory").max_pips == 6
    assert load_profile("twelve-color").max_pips == 12
    with pytest.raises(UnknownProfileError, match="nope"):
        load_profile("nope")


@pytest.mark.parametrize("name", shipped_profile_names())
def test_every_shipped_profile_names_shipped_networks_of_the_right_kind(name):
    profile = load_profile(name)
    assert network(profile.detector).input == "image" and network(profile.reader).input == "crops"


@pytest.mark.parametrize("data, named", [({"cut_area": 1.5}, "cut_area"), ({"square_on_px": -1}, "square_on_px"),
                                         ({"sure_square_on_px": -1}, "sure_square_on_px"),
                                         ({"tile_threshold": "high"}, "tile_threshold"),
                                         ({"reader": "../x.onnx"}, "reader"), ({"pips": 3}, "pips"),
                                         ({"detect_finer_gain": 0.5}, "detect_finer_gain"),
                                         ({"detect_side_most": 100}, "detect_side_most"),
                                         ({"size_floor": 2.0}, "size_floor"), ({"size_ceiling": 0.9}, "size_ceiling"),
                                         ({"size_noise": -0.1}, "size_noise"), ({"size_fit_min": 3}, "size_fit_min"),
                                         ({"size_steepest": 0}, "size_steepest"),
                                         ({"logo_look_side": -1}, "logo_look_side"), ({"logo_sure": 1.5}, "logo_sure"),
                                         ({"max_looks": 0}, "max_looks"), ({"corner_skew": -0.1}, "corner_skew"),
                                         ({"corner_peak_floor": 1.5}, "corner_peak_floor"),
                                         ({"shape_overlap": 1.2}, "shape_overlap"), ({"tile_aspect": 0.5}, "tile_aspect"),
                                         ({"bare_tile_threshold": 2.0}, "bare_tile_threshold"),
                                         ({"shift_along": -0.25}, "shift_along"), ({"fit_margin": 1.5}, "fit_margin"),
                                         ({"settled_px": -1}, "settled_px"), ({"gap_slack": 0.5}, "gap_slack"),
                                         ({"split_odds": 0.5}, "split_odds"),
                                         ({"gap_fit": 1.2}, "gap_fit"),
                                         ({"candidate_confidence": -0.1}, "candidate_confidence"),
                                         ({"candidate_fit": 1.1}, "candidate_fit"), ({"end_touch": -0.1}, "end_touch"),
                                         ({"impossible_confidence": 0.6}, "impossible_confidence"),
                                         ({"border_heat": 1.2}, "border_heat"),
                                         ({"border_tile_sure": -0.1}, "border_tile_sure"),
                                         ({"whole_sure": 1.1}, "whole_sure"),
                                         ({"set_missing_most": -1}, "set_missing_most"),
                                         ({"weak_heat": 1.5}, "weak_heat"), ({"weak_tiles": -1}, "weak_tiles"),
                                         ({"weak_near": -0.5}, "weak_near"),
                                         ({"above_reach": -1.0}, "above_reach"),
                                         ({"above_side_most": 16}, "above_side_most"),
                                         ({"colour_saturation_far": 0.0}, "colour_saturation_far"),
                                         ({"logo_hue_far": -5.0}, "logo_hue_far"),
                                         ({"logo_chroma_ratio": 0.5}, "logo_chroma_ratio"),
                                         ({"lone_pip_off": -0.3}, "lone_pip_off")])
def test_a_bad_profile_field_is_refused_by_name(data, named):
    with pytest.raises(ProfileError, match=named):
        Profile.from_dict(data)


def test_scan_object_and_cli(tmp_path, capsys):
    img = table()
    draw_tile(img, (200, 240), 0, 70, (6, 2))
    draw_tile(img, (450, 240), 90, 70, (1, 0))
    Image.fromarray(img[:, :, ::-1]).save(tmp_path / "hand.png")
    result = scan_photo(tmp_path / "hand.png", profile=load_profile("ivory"), annotate_to=tmp_path / "ann")
    assert result["width"] == 640 and result["height"] == 480
    assert sorted(sorted(t["pips"]) for t in result["tiles"]) == [[0, 1], [2, 6]]
    assert result["pip_total"] == 9 and result["warnings"] == []
    assert (tmp_path / "ann" / "hand.annotated.png").is_file()
    code = main(["scan", "--json", "--profile", "ivory", str(tmp_path / "hand.png"), str(tmp_path / "missing.jpg")])
    lines = capsys.readouterr().out.strip().splitlines()
    assert code == 1 and len(lines) == 2
    assert json.loads(lines[0])["pip_total"] == 9 and "error" in json.loads(lines[1])
    assert main(["scan", "--profile", "nope", str(tmp_path / "hand.png")]) == 2


def _score_jmherzog():
    labels = json.loads((SHARED / "labels.json").read_text())
    profile = load_profile("ivory")
    total = right = missed = 0
    for entry in labels["images"]:
        if not entry["file"].startswith("jmherzog/"):
            continue
        reading = read_tiles(load_photo(SHARED / entry["file"]), profile)
        got = [(sorted(t.pips), t.corners.mean(axis=0)) for t in reading.tiles]
        for want in entry["tiles"]:
            total += 1
            near = [p for p, c in got if np.linalg.norm(c - np.array(want["center"])) < 40]
            if not near:
                missed += 1
            elif near[0] == sorted(want["pips"]):
                right += 1
    return total, right, missed


@pytest.mark.skipif(not (SHARED / "labels.json").is_file(), reason="../shared/real-photos is not here")
def test_jmherzog_ivory_target():
    total, right, missed = _score_jmherzog()
    assert right / total >= 0.98 and missed == 0


def test_large_jpeg_is_read_reduced_with_corners_in_photo_pixels(tmp_path):
    img = table(2400, 1800)
    drawn = draw_tile(img, (800, 900), 20, 220, (5, 1))
    draw_tile(img, (1600, 900), 100, 220, (4, 4))
    Image.fromarray(img[:, :, ::-1]).save(tmp_path / "big.jpg", quality=92)
    result = scan_photo(tmp_path / "big.jpg", profile=load_profile("giant-wood"), annotate_to=tmp_path)
    assert (result["width"], result["height"]) == (2400, 1800)
    assert sorted(sorted(t["pips"]) for t in result["tiles"]) == [[1, 5], [4, 4]]
    five = next(t for t in result["tiles"] if sorted(t["pips"]) == [1, 5])
    assert np.linalg.norm(np.mean(five["corners"], axis=0) - drawn.mean(axis=0)) < 15
    assert (tmp_path / "big.annotated.png").is_file()


def test_scan_piped_into_a_reader_that_stops_early_ends_quietly(tmp_path):
    import subprocess
    import sys

    img = table(800, 600)
    for k in range(6):  # enough lines that the pipe is closed before the last one
        draw_tile(img, (120 + (k % 3) * 260, 160 + (k // 3) * 280), 0, 80, (k, 6 - k))
    photo = tmp_path / "hand.png"
    Image.fromarray(img[..., ::-1]).save(photo)
    scan = subprocess.Popen([sys.executable, "-m", "companion", "scan", str(photo), str(photo), str(photo)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    scan.stdout.readline()
    scan.stdout.close()  # like `companion scan ... | head -1`
    _, err = scan.communicate(timeout=120)
    assert b"Traceback" not in err and scan.returncode == 0, err.decode()
