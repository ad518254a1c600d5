"""Calibration with the real recognizer, end to end: learn a profile from a generated photo of a whole set,
then read a new photo of the same set with it through ``--profile PATH``.

Three sets of different styles (pale pine with black pips, dark wood with light pips, ivory with black
pips), each photographed whole from almost straight above and then again as a hand of five tiles. Expected
readings come from the generator's labels, never from an earlier run."""

from __future__ import annotations

import json
from collections import Counter

import cv2
import numpy as np
import pytest

from calibration import load_profile
from calibration.learn import calibrate
from companion.cli import main
from companion.synth import render_photo

SETS = [("pine-black", 3), ("dark-light", 4), ("ivory-black", 5)]  # (style, set seed)


def multiset(tiles):
    return Counter(tuple(sorted(int(v) for v in t["pips"])) for t in tiles if not t.get("partial"))


@pytest.fixture(scope="module", params=SETS, ids=[s for s, _ in SETS])
def calibrated(request, tmp_path_factory):
    style, set_seed = request.param
    folder = tmp_path_factory.mktemp(style)
    data, label = render_photo(set_seed, kind="full-set", style=style, set_seed=set_seed, size=(1280, 960),
                               tilt_deg=5.0)
    (folder / "set.jpg").write_bytes(data)
    result = calibrate(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR), name=style)
    if result.ok:
        (folder / "learned.json").write_text(json.dumps(result.profile_json("set.jpg")))
    return style, set_seed, result, folder, label


def test_calibration_reads_the_whole_set_and_writes_what_reads_it_again(calibrated, capsys):
    style, _, result, folder, label = calibrated
    read = multiset({"pips": t.pips} for t in result.reading.tiles)
    assert result.ok, result.check.summary()
    assert read == multiset(label["tiles"])  # accepted, and rightly: it is the labelled set
    capsys.readouterr()
    assert main(["scan", str(folder / "set.jpg"), "--profile", str(folder / "learned.json"), "--json"]) == 0
    assert multiset(json.loads(capsys.readouterr().out)["tiles"]) == multiset(label["tiles"])
    assert load_profile(str(folder / "learned.json")).name == style


def test_the_learned_profile_reads_a_new_photo_of_the_same_set(calibrated, tmp_path, capsys):
    style, set_seed, result, folder, _ = calibrated
    assert result.ok, result.check.summary()
    data, label = render_photo(107, kind="hand", style=style, set_seed=set_seed, size=(960, 720), count=5)
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(data)
    capsys.readouterr()
    assert main(["scan", str(photo), "--profile", str(folder / "learned.json"), "--json"]) == 0
    assert multiset(json.loads(capsys.readouterr().out)["tiles"]) == multiset(label["tiles"])
