"""The networks kept in ``calibration/training/candidates/`` for a later judgement read as the shipped ones do."""

import dataclasses
import json
from pathlib import Path

import pytest

from companion.scanner import scan_photo
from companion.vision.profile import Profile

ROOT = Path(__file__).resolve().parents[2]
CANDIDATES = sorted((ROOT / "calibration" / "training" / "candidates").glob("*.onnx"))


@pytest.mark.parametrize("candidate", CANDIDATES, ids=[c.name for c in CANDIDATES])
def test_a_kept_candidate_reads_a_sample_photo_in_place_of_the_shipped_network(candidate):
    kind = candidate.name.split("-")[0]  # reader-steep.onnx replaces the reader
    photo = ROOT / "sample_images" / "hand-grass-top.jpg"
    label = json.loads(photo.with_suffix(".json").read_text())
    scan = scan_photo(photo, profile=dataclasses.replace(Profile(), **{kind: str(candidate)}), name=photo.name)
    assert sorted(sorted(t["pips"]) for t in scan["tiles"]) == sorted(sorted(t["pips"]) for t in label["tiles"])
