"""``companion calibrate PHOTO --name NAME [--set ...] [--out PATH]``: what it writes, when it refuses, and
that the profile it writes is what ``--profile PATH`` then reads with.

Most of these hold whatever the recognizer's accuracy: the refusal tests use photos that cannot show a
whole set, and the writing tests replace the recognizer with one that reads the photo's label (so they
test calibration's own work: choosing thresholds, measuring, checking, writing), said where it is done."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

import calibration.learn as learn
from calibration import load_profile, profile_names
from companion.cli import main
from companion.synth import render_photo
from companion.vision import Faces, Profile
from companion.vision import geometry as geo
from companion.vision.read import FaceReading, Peak

SET_SEED = 31  # one set, photographed twice below


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def full_set(tmp_path_factory):
    """A small photo of a whole pine set, and its label."""
    data, label = render_photo(5, kind="full-set", style="pine-black", set_seed=SET_SEED, size=(960, 720),
                               tilt_deg=5.0)
    path = tmp_path_factory.mktemp("photos") / "set.jpg"
    path.write_bytes(data)
    return path, label


def _faces(tiles, size=(960, 720)) -> Faces:
    """What the networks would see: each labelled tile sure (0.95) with its pips clear (0.95) and a faint mark
    (0.3) on each half, the double-blank taken surely for the logo tile (0.99, the others 0.02), and two
    patches of ground that are no tile (0.1)."""
    faces = []
    for pips, corners in tiles:
        halves = tuple(tuple([Peak(0.95, 0.3)] * n + [Peak(0.3, 0.2)]) for n in pips)
        logo = 0.99 if tuple(pips) == (0, 0) else 0.02
        faces.append(FaceReading(geo.clockwise(np.asarray(corners, float)), 0.95, halves, logo))
    ground = geo.quad_of((20.0, 20.0), 0.0, 30.0, 15.0)
    faces += [FaceReading(ground, 0.1, ((), ())), FaceReading(ground + 40, 0.1, ((), ()))]
    return Faces(faces, *size)


@pytest.fixture()
def label_reader(monkeypatch, full_set):
    """The networks replaced by what they would see in the full-set photo's label, whatever the profile."""
    _, label = full_set
    tiles = [(tuple(t["pips"]), t["corners"]) for t in label["tiles"]]
    monkeypatch.setattr(learn, "find_faces", lambda image_bgr, profile, **kw: _faces(tiles))
    return tiles


def test_a_photo_read_as_the_whole_set_writes_a_profile_and_a_picture(capsys, tmp_path, full_set, label_reader):
    photo, _ = full_set
    out = tmp_path / "profiles" / "garden.json"
    code, stdout, stderr = run(capsys, "calibrate", photo, "--name", "garden", "--out", out)
    assert code == 0
    assert "read all 28 tiles of the double-six set exactly once" in stdout
    assert "garden.json" in stdout and "garden.png" in stdout
    assert "calibrated: 28 of 28 tiles read exactly once" in stderr  # progress
    data = json.loads(out.read_text())
    assert data["name"] == "garden" and data["max_pips"] == 6
    # learned: the start's pip threshold (0.5) lies too near the strongest other mark (0.3), within a quarter
    # (in log-odds) of the gap up to the faintest pip (0.95), so it moves halfway across the gap; the start's
    # tile threshold lies well inside its gap, from the surest patch that is no tile (0.1) to the least sure
    # tile (0.95), and its logo threshold inside the gap from 0.02 to the double-blank's 0.99: both are kept
    assert data["pip_threshold"] == pytest.approx(0.74, abs=0.01)
    assert data.get("tile_threshold", Profile().tile_threshold) == Profile().tile_threshold
    assert f"tile threshold kept at {Profile().tile_threshold}" in stdout and "pip threshold 0.74" in stdout
    assert (data["_learned"]["tile_least_sure"], data["_learned"]["not_tile_surest"]) == (0.95, 0.1)
    # its 1-0 and 0-1 read at 0.95, less surely than the start's threshold for a one-pip face: that comes down
    assert Profile().bare_tile_threshold > 0.95 and data["bare_tile_threshold"] == 0.95
    assert data["logo"] is True and data.get("logo_threshold", Profile().logo_threshold) == Profile().logo_threshold
    assert data["_learned"]["tiles_measured"] == 28
    assert 1.8 < data["_learned"]["tile_aspect_median"] < 2.3  # a 2 x 1 tile seen almost from above
    picture = cv2.imread(str(tmp_path / "profiles" / "garden.png"))
    assert picture is not None and picture.shape[1] == 960 and picture.shape[0] > 720  # the photo + a band
    profile = load_profile(str(out))
    assert profile.name == "garden" and profile.max_pips == 6


def test_a_threshold_moves_only_where_the_photo_shows_it_too_near_one_side_of_its_gap():
    # a gap from 0.1 to 0.9 (-2.2 to 2.2 in log-odds): a quarter of it (1.1) in from either side is kept
    assert learn._kept_or_halfway(0.5, 0.1, 0.9) == 0.5
    assert learn._kept_or_halfway(0.7, 0.1, 0.9) == 0.7  # 0.85 in log-odds, 1.35 from the top
    assert learn._kept_or_halfway(0.85, 0.1, 0.9) == pytest.approx(0.5, abs=0.01)  # too near the top: halfway
    assert learn._kept_or_halfway(0.2, 0.1, 0.9) == pytest.approx(0.5, abs=0.01)  # too near the bottom
    # faint pips (0.45) below the start's 0.5: a threshold that did not read them moves into their gap
    assert learn._kept_or_halfway(0.5, 0.05, 0.45) < 0.45


def test_by_default_the_profile_goes_to_the_users_profiles_and_is_found_by_name(capsys, tmp_path, monkeypatch,
                                                                                  full_set, label_reader):
    photo, _ = full_set
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code, stdout, _ = run(capsys, "calibrate", photo, "--name", "pine.2", "--quiet")
    assert code == 0 and "--profile pine.2" in stdout
    folder = tmp_path / "companion" / "profiles"
    assert (folder / "pine.2.json").is_file() and (folder / "pine.2.png").is_file()
    assert load_profile("pine.2").name == "pine.2"
    assert "pine.2" in profile_names()  # so the dashboard offers it for a match


def test_a_shipped_profiles_name_is_not_taken(capsys, tmp_path, monkeypatch, full_set):
    photo, _ = full_set
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code, stdout, stderr = run(capsys, "calibrate", photo, "--name", "ivory", "--quiet")
    assert code == 2 and stdout == "" and "'ivory' is a shipped profile" in stderr
    assert not (tmp_path / "companion").exists()


def test_quiet_leaves_stderr_empty(capsys, tmp_path, full_set, label_reader):
    photo, _ = full_set
    code, _, stderr = run(capsys, "calibrate", photo, "--name", "q", "--out", tmp_path / "q.json", "--quiet")
    assert code == 0 and stderr == ""


def test_the_written_profile_is_what_scan_and_verify_read_with(capsys, tmp_path, full_set, label_reader):
    photo, _ = full_set
    out = tmp_path / "garden.json"
    assert run(capsys, "calibrate", photo, "--name", "garden", "--out", out, "--quiet")[0] == 0
    code, stdout, stderr = run(capsys, "scan", photo, "--profile", out, "--json")
    assert code == 0, stderr
    assert json.loads(stdout)["width"] == 960
    code, stdout, stderr = run(capsys, "verify", photo, "--profile", out, "--json")
    assert code == 0, stderr


def test_a_misread_tile_refuses_naming_the_tiles_and_writes_no_profile(capsys, tmp_path, monkeypatch, full_set,
                                                                       label_reader):
    photo, _ = full_set
    misread = [((6, 2), c) if sorted(pips) == [3, 5] else (pips, c) for pips, c in label_reader]
    monkeypatch.setattr(learn, "find_faces", lambda image_bgr, profile, **kw: _faces(misread))
    out = tmp_path / "bad.json"
    code, stdout, stderr = run(capsys, "calibrate", photo, "--name", "bad", "--out", out, "--quiet")
    assert code == 1 and stdout == ""
    assert stderr.count("\n") == 1
    assert "refused to write profile 'bad'" in stderr
    assert "27 of 28" not in stderr and "26 of 28 tiles read exactly once" in stderr
    assert "not found: 5-3" in stderr and "read more than once: 6-2 x2" in stderr
    assert not out.exists()
    assert (tmp_path / "bad.png").is_file()  # the picture shows what was recognised


def test_double_nine_expects_55_tiles(capsys, tmp_path, full_set, label_reader):
    photo, _ = full_set
    code, _, stderr = run(capsys, "calibrate", photo, "--name", "nine", "--set", "double-nine",
                          "--out", tmp_path / "nine.json", "--quiet")
    assert code == 1
    assert "28 of 55 tiles read exactly once; not found: 7-0, 7-1" in stderr


def test_a_photo_of_a_few_tiles_is_refused_with_the_tiles_it_lacks(capsys, tmp_path):
    # the real recognizer: a hand of three tiles can never be a whole set, however well it is read
    data, label = render_photo(8, kind="hand", count=3, style="ivory-black", size=(480, 360), tilt_deg=0.0)
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(data)
    code, stdout, stderr = run(capsys, "calibrate", photo, "--name", "hand", "--out", tmp_path / "hand.json")
    assert code == 1 and stdout == ""
    last = stderr.strip().splitlines()[-1]
    assert last.startswith(f"companion calibrate: {photo}: refused to write profile 'hand'")
    assert "not found: " in last and "see " in last
    assert "looking at the photo" in stderr  # progress came first
    assert not (tmp_path / "hand.json").exists()


@pytest.mark.parametrize("argv, message", [
    (["--name", "a/b"], "invalid --name: 'a/b'"),
    (["--name", "x.json"], "invalid --name: 'x.json'"),
    (["--name", "x", "--out", "x.txt"], "--out must end in .json"),
    (["--name", "x", "--set", "double-seven"], "invalid choice: 'double-seven'"),
])
def test_usage_errors_exit_2_with_one_line(capsys, tmp_path, argv, message):
    code, stdout, stderr = run(capsys, "calibrate", tmp_path / "none.jpg", *argv)
    assert code == 2 and stdout == "" and stderr.count("\n") == 1 and message in stderr


def test_a_photo_that_cannot_be_read_exits_1_naming_it(capsys, tmp_path):
    code, stdout, stderr = run(capsys, "calibrate", tmp_path / "missing.jpg", "--name", "x",
                               "--out", tmp_path / "x.json")
    assert code == 1 and stdout == "" and stderr.count("\n") == 1 and "missing.jpg" in stderr


def test_a_calibrated_profile_can_be_chosen_for_a_match(tmp_path, monkeypatch):
    from companion.web import create_app

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "companion" / "profiles"
    folder.mkdir(parents=True)
    (folder / "garden.json").write_text(json.dumps({"name": "garden", "pip_threshold": 0.4}))
    client = create_app({"DATABASE": str(tmp_path / "db.sqlite3")}).test_client()
    assert "garden" in client.get("/api/presets").get_json()["profiles"]
    answer = client.post("/api/matches", json={"players": ["Ann", "Bob"], "rules": "block", "profile": "garden"})
    assert answer.status_code == 201 and answer.get_json()["profile"] == "garden"
    refused = client.post("/api/matches", json={"players": ["Ann", "Bob"], "rules": "block", "profile": "nope"})
    assert refused.status_code == 400 and "garden" in refused.get_json()["error"]
