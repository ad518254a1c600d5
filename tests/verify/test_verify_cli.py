"""`companion verify` as CONTRACTS.md states it, on a small generated photo of a line of play."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.verifier import headline


@pytest.fixture(scope="module")
def layout_photo(tmp_path_factory):
    from companion.synth import render_photo

    folder = tmp_path_factory.mktemp("layout")
    data, label = render_photo(7011, kind="layout", size=(1280, 960), name="table.jpg")
    path = folder / "table.jpg"
    path.write_bytes(data)
    return path, label


def test_json_is_one_contract_object_on_stdout(layout_photo, capsys):
    path, _ = layout_photo
    assert main(["verify", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    lines = out.strip().splitlines()
    assert len(lines) == 1
    verdict = json.loads(lines[0])
    assert list(verdict) == ["file", "tiles", "junctions", "legal", "warnings"]
    assert verdict["file"] == str(path)
    for tile in verdict["tiles"]:
        assert set(tile) == {"pips", "corners", "confidence"} and len(tile["corners"]) == 4
    for junction in verdict["junctions"]:
        i, j = junction["tiles"]
        assert 0 <= i < j < len(verdict["tiles"])
        assert junction["ok"] == (junction["pips"][0] == junction["pips"][1])
    assert verdict["legal"] == all(j["ok"] for j in verdict["junctions"])


def test_human_output_and_annotate(layout_photo, tmp_path, capsys):
    path, _ = layout_photo
    assert main(["verify", str(path), "--annotate", str(tmp_path / "out")]) == 0
    out, _ = capsys.readouterr()
    assert main(["verify", str(path), "--json"]) == 0
    verdict = json.loads(capsys.readouterr()[0])
    # the same one-line verdict as the picture and the dashboard (never a bare "legal" over unchecked tiles)
    assert out.splitlines()[0] == f"{path}: {len(verdict['tiles'])} tiles: {headline(verdict)[0]}"
    written = list((tmp_path / "out").iterdir())
    assert [p.name for p in written] == ["table.verify.png"] and written[0].stat().st_size > 1000


def test_an_unreadable_photo_exits_1_with_one_line(tmp_path, capsys):
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0 truncated")
    assert main(["verify", str(bad), "--json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["file"] == str(bad) and "error" in json.loads(out)
    assert len(err.strip().splitlines()) == 1 and "broken.jpg" in err
    assert main(["verify", str(tmp_path / "missing.jpg")]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "missing.jpg" in err


def test_an_unknown_profile_is_a_usage_error(layout_photo, capsys):
    path, _ = layout_photo
    assert main(["verify", str(path), "--profile", "no-such-set"]) == 2
    _, err = capsys.readouterr()
    assert "no-such-set" in err and len(err.strip().splitlines()) == 1
