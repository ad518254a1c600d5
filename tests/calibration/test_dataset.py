"""The training set's renderer: the photos' camera tilt, where asked for; and the benchmark's photos taken as they
are."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import cv2
import pytest

from calibration.training import dataset

ROOT = Path(__file__).resolve().parents[2]


def test_a_training_photo_takes_its_tilt_within_the_degrees_asked(tmp_path):
    assert dataset.make_one(tmp_path, 7, kinds=("hand",), tilt=(44.0, 46.0)) == "00000007"
    label = json.loads((tmp_path / "00000007.json").read_text())
    assert 44.0 <= label["tilt_deg"] <= 46.0
    assert (tmp_path / "00000007.jpg").is_file() and (tmp_path / "00000007_d.jpg").is_file()
    assert dataset.make_one(tmp_path, 7, kinds=("hand",), tilt=(44.0, 46.0)) is None  # kept, not rendered again


@pytest.mark.parametrize("bad", [["50", "40"], ["0", "61"]])
def test_a_tilt_out_of_range_is_refused_before_anything_is_rendered(tmp_path, capsys, bad):
    with pytest.raises(SystemExit):
        dataset.main([str(tmp_path / "out"), "--count", "1", "--tilt", *bad])
    assert "give LOW and HIGH" in capsys.readouterr().err and not (tmp_path / "out").exists()


def _benchmark_photo(folder, seed, orientation=1):
    """A photo as ``benchmarks/make_photos.py`` writes it (turned by an EXIF tag where ``orientation`` is not 1)."""
    spec = importlib.util.spec_from_file_location("make_photos", ROOT / "benchmarks" / "make_photos.py")
    make_photos = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_photos)
    folder.mkdir(exist_ok=True)
    return make_photos.write_photo(folder, f"synth-{seed:06d}", seed, kind="hand", size=(640, 480), count=3,
                                   orientation=orientation)


@pytest.mark.parametrize("orientation", [1, 6])
def test_a_benchmark_photo_is_taken_under_its_seed_upright_with_its_label_as_rendered(tmp_path, orientation):
    label = _benchmark_photo(tmp_path / "bench", 123, orientation)
    out = tmp_path / "train"
    out.mkdir()
    assert dataset.take_one(out, tmp_path / "bench" / "synth-000123.json") == "00000123"
    taken = json.loads((out / "00000123.json").read_text())
    assert "exif_orientation" not in taken and taken["read_scale"] == 1.0
    assert [t["corners"] for t in taken["tiles"]] == [t["corners"] for t in label["tiles"]]
    image = cv2.imread(str(out / "00000123.jpg"), cv2.IMREAD_IGNORE_ORIENTATION | cv2.IMREAD_COLOR)
    assert image.shape[:2] == (480, 640)  # upright, as the label is: a turned file's pixels are turned back
    small = cv2.imread(str(out / "00000123_d.jpg"))
    assert small.shape[1] == round(640 * taken["detect_scale"]) == dataset.DETECT_SIDE
    assert dataset.take_one(out, tmp_path / "bench" / "synth-000123.json") is None  # kept, not taken again


def test_photos_not_named_by_a_seed_are_refused(tmp_path, capsys):
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "hand-grass-top.json").write_text("{}")
    with pytest.raises(ValueError, match="synth-SEED"):
        dataset.take_one(tmp_path, tmp_path / "bench" / "hand-grass-top.json")
    with pytest.raises(SystemExit):
        dataset.main([str(tmp_path / "out"), "--from", str(tmp_path / "bench")])
    assert "no labelled photos" in capsys.readouterr().err and not (tmp_path / "out").exists()
    with pytest.raises(SystemExit):
        dataset.main([str(tmp_path / "out"), "--from", str(tmp_path / "bench"), "--tilt", "40", "50"])
    assert "do not go with it" in capsys.readouterr().err
    (tmp_path / "bench" / "synth-7.json").write_text("{}")
    (tmp_path / "bench" / "synth-copy.json").write_text("{}")
    with pytest.raises(SystemExit):
        dataset.main([str(tmp_path / "out"), "--from", str(tmp_path / "bench")])
    assert "synth-copy.json is not named by a seed" in capsys.readouterr().err and not (tmp_path / "out").exists()
