"""The training set's renderer: the photos' camera tilt, where asked for."""

from __future__ import annotations

import json

import pytest

from calibration.training import dataset


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
