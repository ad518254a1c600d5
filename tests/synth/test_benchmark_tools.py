"""The benchmark scripts' logic: matching detections to labels, and writing labelled photos."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench():
    pytest.importorskip("companion.scanner")
    return _load("scan_benchmark")


SQUARE = [[0, 0], [0, 50], [100, 50], [100, 0]]
OTHER = [[200, 0], [200, 50], [300, 50], [300, 0]]
CUT = [[-40, 100], [-40, 150], [60, 150], [60, 100]]


def _det(pips, corners):
    return {"pips": pips, "corners": corners, "confidence": 0.9}


def test_a_perfect_scan_is_hand_exact(bench):
    label = {"seed": 1, "tiles": [{"pips": [6, 4], "corners": SQUARE, "partial": False},
                                  {"pips": [0, 0], "corners": OTHER, "partial": False}]}
    scan = {"tiles": [_det([4, 6], SQUARE), _det([0, 0], OTHER)]}
    r = bench.compare(label, scan, "x")
    assert (r.labelled, r.detected, r.found, r.right) == (2, 2, 2, 2) and r.exact
    assert r.ends_checked == 1 and r.ends_right == 0  # 4-6 read with its ends swapped
    del label["seed"]  # a real photo's rough outline has no corner order: ends are not judged
    assert bench.compare(label, scan, "x").ends_checked == 0


def test_misses_extras_misreads_and_partial_tiles(bench):
    label = {"tiles": [{"pips": [6, 4], "corners": SQUARE, "partial": False},
                       {"pips": [2, 1], "corners": OTHER, "partial": False},
                       {"pips": [3, 3], "corners": CUT, "partial": True}]}
    scan = {"tiles": [_det([6, 5], SQUARE), _det([1, 1], [[10, 110], [10, 140], [50, 140], [50, 110]]),
                      _det([5, 5], [[500, 500], [500, 550], [600, 550], [600, 500]])]}
    r = bench.compare(label, scan, "x")
    assert r.labelled == 2  # the cut tile is left out of recall
    assert r.detected == 2  # ...and a detection of it is not counted
    assert (r.found, r.right) == (1, 0) and not r.exact
    text = " ".join(r.problems)
    assert "missed 2-1" in text and "read 6-4 as 6-5" in text and "extra 5-5" in text


def test_tiles_cut_by_the_border_are_counted_named_when_a_warning_lies_near(bench):
    label = {"tiles": [{"pips": [6, 4], "corners": SQUARE, "partial": False},
                       {"pips": [3, 3], "corners": CUT, "partial": True},
                       {"pips": [2, 2], "corners": [[380, 100], [380, 150], [480, 150], [480, 100]], "partial": True}]}
    near = "a tile cut off by the left border of the photo (near x=5, y=125, top left) was left out"
    astray = "a tile cut off by the top and right border of the photo (near x=390, y=5, top right) was left out"
    results = []
    for warnings in ([near], [near, astray], []):
        r = bench.compare(label, {"tiles": [_det([6, 4], SQUARE)]}, "x")
        r.label, r.scan = label, {"width": 400, "height": 300, "tiles": [], "warnings": warnings}
        results.append(r)
    assert bench.cut_line(results[:1]).startswith("tiles cut by the border, fresh: 1 of 2 named")
    assert "0 of 1 cut-off warnings near no cut tile" in bench.cut_line(results[:1])
    assert "1 of 2 cut-off warnings near no cut tile" in bench.cut_line(results[1:2])
    assert "0 of 2 named" in bench.cut_line(results[2:])


def test_labels_without_positions_compare_as_multisets(bench):
    label = {"tiles": [{"pips": [12, 3]}, {"pips": [0, 5]}, {"pips": [1, 1]}]}
    scan = {"tiles": [_det([3, 12], SQUARE), _det([5, 0], OTHER), _det([2, 1], CUT), _det([4, 4], CUT)]}
    r = bench.compare(label, scan, "x")
    assert (r.labelled, r.detected, r.found, r.right) == (3, 4, 3, 2)


def test_an_unreadable_photo_counts_as_all_missed(bench):
    r = bench.compare({"tiles": [{"pips": [1, 2], "corners": SQUARE}]}, {"file": "a", "error": "nope"}, "a")
    assert r.error and r.labelled == 1 and r.found == 0 and not r.exact


def test_make_photos_writes_images_with_labels(tmp_path):
    make = _load("make_photos")
    assert make.main([str(tmp_path), "--count", "2", "--seed-start", "5", "--size", "320x240"]) == 0
    labels = sorted(tmp_path.glob("*.json"))
    assert [p.stem for p in labels] == ["synth-000005", "synth-000006"]
    for p in labels:
        label = json.loads(p.read_text())
        assert (tmp_path / label["file"]).is_file() and (label["width"], label["height"]) == (320, 240)


def test_make_photos_takes_the_cameras_tilt_within_the_degrees_asked(tmp_path, capsys):
    make = _load("make_photos")
    args = ["--count", "3", "--seed-start", "5", "--size", "320x240", "--tilt", "40", "50"]
    assert make.main([str(tmp_path / "a"), *args]) == 0 and make.main([str(tmp_path / "b"), *args]) == 0
    tilts = [[json.loads(p.read_text())["tilt_deg"] for p in sorted((tmp_path / d).glob("*.json"))] for d in "ab"]
    assert tilts[0] == tilts[1] and len(set(tilts[0])) == 3 and all(40 <= t <= 50 for t in tilts[0])
    for bad in (["50", "40"], ["40", "61"], ["-1", "10"]):
        with pytest.raises(SystemExit):
            make.main([str(tmp_path / "c"), "--count", "1", "--tilt", *bad])
        assert "give LOW and HIGH" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        make.main([str(tmp_path / "c"), "--sample", "--tilt", "40", "50"])
    assert "does not go with --sample" in capsys.readouterr().err and not (tmp_path / "c").exists()


def test_labelled_photos_stored_in_folders_are_measured_together_and_by_kind(bench, tmp_path, capsys):
    make = _load("make_photos")
    for n, kind in enumerate(("hand", "crowd")):
        assert make.main([str(tmp_path / kind), "--count", "1", "--seed-start", str(7 + n), "--size", "320x240",
                          "--kind", kind]) == 0
    capsys.readouterr()
    assert bench.main(["--fresh", "0", "--no-samples", "--no-real", "--worst", "0",
                       "--folder", str(tmp_path / "hand"), "--folder", str(tmp_path / "crowd")]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert [row[:3] for row in rows[1:4]] == [["folder", "hand", "1"], ["folder", "crowd", "1"], ["2", "folders", "2"]]
    assert [row[:4] for row in rows[4:6]] == [["of", "which", "crowd", "1"], ["of", "which", "hand", "1"]]
    assert rows[6][0] == "tilted" and sum(int(row[-9]) for row in rows if row[:1] == ["tilted"]) == 2
    assert sum(int(row[-9]) for row in rows if row[:1] == ["set"]) == 2  # by style (seeds 7 and 8: two)
    assert any(row[:5] == ["photos", "that", "say", "so", "(a"] and "stored:" in row for row in rows)
    with pytest.raises(SystemExit):
        bench.main(["--fresh", "0", "--folder", str(tmp_path / "none")])
    assert "no labelled photos in" in capsys.readouterr().err
    # a folder of other JSON (the real photos' labels.json, say) is refused by name, before anything is read
    (tmp_path / "hand" / "labels.json").write_text(json.dumps([{"file": "a.jpg", "pips": [1, 2]}]))
    with pytest.raises(SystemExit):
        bench.main(["--fresh", "0", "--folder", str(tmp_path / "hand")])
    assert "labels.json is not a label of a photo beside it" in capsys.readouterr().err


def test_the_bare_decoding_is_the_photo_as_shown(bench, tmp_path):
    import cv2
    import numpy as np

    from companion.photo import load_photo
    from companion.synth.exif import with_orientation

    image = np.zeros((40, 60, 3), np.uint8)
    image[:, :30] = (0, 0, 255)  # red on the left
    data = cv2.imencode(".jpg", image)[1].tobytes()
    (tmp_path / "p.jpg").write_bytes(data)
    assert bench.bare_decode(tmp_path / "p.jpg").shape == (40, 60, 3)
    turned = with_orientation(data, 6)  # stored turned, with the tag that turns it back, as phones do
    for decoded in (bench.bare_decode(turned), load_photo(turned)):
        assert decoded.shape == (40, 60, 3) and decoded[20, 10, 2] > 200 and decoded[20, 50, 2] < 60


def test_the_stage_timings_account_for_a_scan_and_leave_it_unchanged():
    stages_tool = _load("scan_stages")
    from companion import scanner
    from companion.vision import nets, read

    photo = min((ROOT / "sample_images").glob("*.jpg"), key=lambda p: p.stat().st_size)  # the smallest
    before = scanner.scan_photo(photo)
    originals = (read.read_faces, scanner.load_photo, nets.Network.run)
    with stages_tool.Stages() as stages:
        t0 = time.perf_counter()
        during = scanner.scan_photo(photo)
        took = time.perf_counter() - t0
    assert during == before  # timing from outside changes no reading
    assert (read.read_faces, scanner.load_photo, nets.Network.run) == originals  # and is undone
    assert stages.seconds["decoding"] > 0 and stages.passes["find_candidates"] >= 1
    assert sum(stages.crops.values()) >= len(before["tiles"]) > 0  # each tile read through a crop at least
    assert 0 < sum(stages.seconds.values()) <= took  # the stages lie within the scan, none counted twice
    table = stages_tool.report(stages, 1, took, 1, 1)
    assert "read_faces" in table and table.splitlines()[-1].startswith("scan")


def test_other_networks_replace_the_shipped_ones_by_path(bench, tmp_path):
    from companion.vision import nets
    from companion.vision.profile import Profile

    shipped = nets.MODELS_DIR / "reader.onnx"
    other = tmp_path / "reader-trained.onnx"
    other.write_bytes(shipped.read_bytes())
    profile = bench.with_networks(Profile(), {"reader": str(other)})
    assert (profile.reader, profile.detector) == (str(other), Profile().detector)
    assert bench.with_networks(Profile(), {}) == Profile()
    assert nets.network(profile.reader) is not nets.network("reader.onnx")  # its own session, from its own file


def test_fresh_photos_stored_in_a_folder_are_read_back_the_same(bench, tmp_path, monkeypatch):
    first = list(bench.fresh_photos(2, 50001, exif=1.0, folder=tmp_path))  # every photo turned by EXIF
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "synth-50001.jpg", "synth-50001.json", "synth-50002.jpg", "synth-50002.json"]
    import companion.synth

    def no_rendering(*args, **kwargs):
        raise AssertionError("rendered again")

    monkeypatch.setattr(companion.synth, "render_photo", no_rendering)
    again = list(bench.fresh_photos(2, 50001, exif=1.0, folder=tmp_path))
    assert [(seed, kind, data, label) for seed, kind, data, label in again] == first
    # stored for another kind or EXIF turn, a photo is rendered anew
    with pytest.raises(AssertionError, match="rendered again"):
        list(bench.fresh_photos(1, 50001, exif=0.0, folder=tmp_path))
    with pytest.raises(AssertionError, match="rendered again"):
        list(bench.fresh_photos(1, 50001, exif=1.0, kinds=("crowd",), folder=tmp_path))


def test_the_stage_timings_take_a_folder_for_its_photos(tmp_path):
    stages_tool = _load("scan_stages")
    for name in ("b.jpg", "a.jpg", "notes.txt"):
        (tmp_path / name).write_bytes(name.encode())
    args = argparse.Namespace(photos=[tmp_path, tmp_path / "b.jpg"], fresh=0, seed_start=50000)
    assert stages_tool.big_photos(args) == [("a.jpg", b"a.jpg"), ("b.jpg", b"b.jpg"), ("b.jpg", b"b.jpg")]


def test_the_least_a_scan_takes_is_its_parts_against_the_decoding():
    stages_tool = _load("scan_stages")
    photo = min((ROOT / "sample_images").glob("*.jpg"), key=lambda p: p.stat().st_size).read_bytes()
    parts = stages_tool.least_scan(photo, 1)
    assert len(parts) == 4 and all(t > 0 for t in parts)
    line = stages_tool.least_line([(0.010, 0.008, 0.002, 0.030), (0.012, 0.010, 0.004, 0.034)], None)
    assert "= 23.0 ms" in line and "bare decoding: 48.0 ms" in line and "already mapped" not in line
    warm = stages_tool.least_line([(0.010, 0.008, 0.002, 0.030)], 0.02)
    assert warm.endswith("already mapped (glibc keeping large blocks): 30.0 ms")


def test_the_figures_name_the_machine_and_libraries_they_were_measured_with(bench):
    import cv2
    import numpy as np
    import onnxruntime

    line = bench.environment()
    assert line.startswith("machine: ")
    for version in (np.__version__, cv2.__version__, onnxruntime.__version__):
        assert version in line


def _one_tile(bench, right: bool, **label_fields):
    """A photo of one 6-4, read right or as 6-3, its label with ``label_fields`` (those given as None left out)."""
    label = {"tiles": [{"pips": [6, 4], "corners": SQUARE, "partial": False}],
             **{k: v for k, v in label_fields.items() if v is not None}}
    r = bench.compare(label, {"tiles": [_det([6, 4] if right else [6, 3], SQUARE)]}, "x")
    r.label = label
    return r


def test_photos_are_measured_by_the_cameras_tilt_where_the_label_gives_it(bench):
    def result(tilt, right):
        return _one_tile(bench, right, tilt_deg=tilt)

    rows = [row.split() for row in bench.by_tilt([result(0, True), result(19.9, True), result(20, False),
                                                  result(50, False), result(45, True), result(None, False)])]
    # (each row's span, photos and hand exact)
    assert [(row[1], row[-9], row[-4]) for row in rows] == [("0-19", "2", "100.00%"), ("20-39", "1", "0.00%"),
                                                            ("40", "2", "50.00%")]
    assert bench.by_tilt([result(None, True)]) == []  # real photos: no tilt, no rows


def test_a_photo_read_wrong_says_so_by_a_doubted_tile_or_a_warning_but_a_cut_tiles(bench):
    label = {"tiles": [{"pips": [6, 4], "corners": SQUARE, "partial": False},
                       {"pips": [2, 1], "corners": OTHER, "partial": False}]}
    cut = "a tile cut off by the left border of the photo (near x=0, y=120, middle left) was left out"

    def result(tiles, warnings):
        r = bench.compare(label, {"tiles": tiles, "warnings": warnings}, "x")
        r.scan = {"tiles": tiles, "warnings": warnings}
        return r

    missed_silently = result([_det([6, 4], SQUARE)], [cut])
    missed_warned = result([_det([6, 4], SQUARE)], ["tile 1 (6|4) is hard to read; check it"])
    misread_doubted = result([_det([6, 4], SQUARE), dict(_det([2, 2], OTHER), confidence=0.3)], [])
    exact_doubted = result([_det([6, 4], SQUARE), dict(_det([2, 1], OTHER), confidence=0.3)], [])
    exact = result([_det([6, 4], SQUARE), _det([2, 1], OTHER)], [cut])
    line = bench.says_so_line([missed_silently, missed_warned, misread_doubted, exact_doubted, exact], 0.5)
    assert line.endswith("2 of 3 not exact, 1 of 2 exact")


def _saved(pips: list, exact: bool, warnings: tuple = ()) -> dict:
    return {"scan": {"tiles": [{"pips": p, "corners": SQUARE, "confidence": 0.9} for p in pips],
                     "warnings": list(warnings)}, "exact": exact, "problems": [] if exact else ["read 6-4 as 6-5"]}


def test_a_run_against_a_saved_one_names_the_photos_put_right_and_wrong(bench):
    before = {"a": _saved([[6, 4]], False), "b": _saved([[1, 1]], True), "c": _saved([[2, 2]], False),
              "d": _saved([[3, 3]], True), "gone": _saved([], True)}
    now = {"a": _saved([[4, 6]], True), "b": _saved([[1, 2]], False), "c": _saved([[2, 3]], False),
           "d": _saved([[3, 3]], True, ("tile 1 (3|3) is hard to read; check it",)), "new": _saved([], True)}
    lines = bench.against_lines(before, now)
    assert lines[0].startswith("against the saved run: 4 photos in both (1 not in it), 4 scans differ "
                               "(2 in the tiles read, 1 in the warnings); exact 2 before, 2 now")
    assert lines[1:] == ["  put right: a", "  put wrong: b: read 6-4 as 6-5",
                         "  read otherwise (exact or not as before): c"]  # (a read with its ends turned: the same tile)
    assert bench.against_lines(now, now)[1:] == [] and " 0 scans differ" in bench.against_lines(now, now)[0]


def test_a_saved_run_read_again_differs_in_nothing(bench, tmp_path, capsys):
    make = _load("make_photos")
    assert make.main([str(tmp_path / "hand"), "--count", "2", "--seed-start", "7", "--size", "320x240",
                      "--kind", "hand"]) == 0
    run = ["--fresh", "0", "--no-samples", "--no-real", "--worst", "0", "--folder", str(tmp_path / "hand")]
    assert bench.main(run + ["--save", str(tmp_path / "run.json")]) == 0
    saved = json.loads((tmp_path / "run.json").read_text())
    assert sorted(saved) == [f"hand/{p.name}" for p in sorted((tmp_path / "hand").glob("*.jpg"))]
    capsys.readouterr()
    assert bench.main(run + ["--against", str(tmp_path / "run.json")]) == 0
    assert "against the saved run: 2 photos in both (0 not in it), 0 scans differ" in capsys.readouterr().out
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(SystemExit):
        bench.main(run + ["--against", str(tmp_path / "bad.json")])
    assert "cannot read the saved run" in capsys.readouterr().err
    (tmp_path / "other.json").write_text(json.dumps({"hand/a.jpg": [[1, 2]]}))  # JSON, but not a saved run
    with pytest.raises(SystemExit):
        bench.main(run + ["--against", str(tmp_path / "other.json")])
    assert "is not a run written by --save" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        bench.main(run + ["--save", str(tmp_path / "none" / "run.json")])
    assert "no folder for the saved run" in capsys.readouterr().err


def test_a_folder_read_in_two_processes_reads_as_one_process_does(bench, tmp_path, capsys):
    make = _load("make_photos")
    assert make.main([str(tmp_path / "mix"), "--count", "3", "--seed-start", "7", "--size", "320x240"]) == 0
    run = ["--fresh", "0", "--no-samples", "--no-real", "--worst", "0", "--folder", str(tmp_path / "mix")]
    assert bench.main(run + ["--save", str(tmp_path / "one.json")]) == 0
    capsys.readouterr()
    assert bench.main(run + ["--jobs", "2", "--against", str(tmp_path / "one.json")]) == 0
    out = capsys.readouterr().out
    assert "against the saved run: 3 photos in both (0 not in it), 0 scans differ" in out
    with pytest.raises(SystemExit):
        bench.main(run + ["--jobs", "0"])
    assert "--jobs 0: give at least 1 process" in capsys.readouterr().err


TILE = [[0, 0], [0, 50], [100, 50], [100, 0]]  # 100 long along x, 50 wide


def _moved_by(quad, dx, dy):
    return [[x + dx, y + dy] for x, y in quad]


def test_a_tile_lost_is_classed_by_the_faces_read_on_it_and_around_it():
    pytest.importorskip("companion.scanner")
    lost_as = _load("lost_tiles").lost_as
    tile = TILE
    assert lost_as(tile, (2, 5), [(tile, (5, 2), True)]) == "read right, left out"
    assert lost_as(tile, (2, 5), [(tile, (2, 4), True)]) == "read wrong"
    assert lost_as(tile, (2, 5), [(tile, (2, 4), True), (_moved_by(tile, 5, 0), (2, 5), True)]) == \
        "read right, left out"
    assert lost_as(tile, (2, 5), [(tile, (2, 5), False)]) == "read as no tile"
    # half a tile along it (IoU 1/3): across the junction with the next tile; half a width across: beside it
    assert lost_as(tile, (2, 5), [(_moved_by(tile, 50, 0), (5, 3), True)]) == "read across two tiles end to end"
    assert lost_as(tile, (2, 5), [(_moved_by(tile, -50, 0), (1, 2), False)]) == "read across two tiles end to end"
    assert lost_as(tile, (2, 5), [(_moved_by(tile, 0, 25), (2, 5), True)]) == "read across two tiles side by side"
    twice = [[-50, -25], [-50, 75], [150, 75], [150, -25]]  # a face twice its size around it
    assert lost_as(tile, (2, 5), [(twice, (2, 2), True)]) == "framed otherwise"
    # the same along a tile lying the other way
    upright = [[0, 0], [50, 0], [50, 100], [0, 100]]
    assert lost_as(upright, (2, 5), [(_moved_by(upright, 0, 50), (5, 3), True)]) == "read across two tiles end to end"
    assert lost_as(tile, (2, 5), [(_moved_by(tile, 300, 0), (2, 5), True)]) == "not seen"
    assert lost_as(tile, (2, 5), []) == "not seen"


def test_the_tiles_lost_in_a_folder_are_counted_by_class_and_the_scan_left_as_it_was(tmp_path, capsys):
    pytest.importorskip("companion.scanner")
    import companion.vision as vision
    make, lost = _load("make_photos"), _load("lost_tiles")
    assemble = vision.assemble
    assert make.main([str(tmp_path), "--count", "1", "--seed-start", "7", "--size", "320x240", "--kind", "hand"]) == 0
    label_path = next(tmp_path.glob("*.json"))
    label = json.loads(label_path.read_text())
    # a tile labelled where the photo shows only the ground beside the others: missed, and nothing read there
    tiles = [t for t in label["tiles"] if not t["partial"]]
    xs = [x for t in tiles for x, _ in t["corners"]]
    far = 0 if min(xs) > 70 else 250 if max(xs) < 250 else None
    if far is None:
        pytest.skip("the rendered hand leaves no free strip")
    label["tiles"].append({"pips": [6, 6], "partial": False,
                           "corners": [[far, 10], [far, 30], [far + 40, 30], [far + 40, 10]]})
    label_path.write_text(json.dumps(label))
    capsys.readouterr()
    assert lost.main(["--folder", str(tmp_path), "--list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:3] == ["tiles", "lost", "all"] and out[0].endswith("unseen")
    folder, kind, listed = out[1].split(), out[2].split(), out[3:]
    assert folder[1] == str(len(listed)) and kind[:3] == ["of", "which", "hand"] and kind[3:] == folder[1:]
    assert int(folder[-1]) >= 1  # the last column: not seen at all
    assert f"{label['file']} (hand): 6-6 missed, not seen" in out
    assert vision.assemble is assemble
    with pytest.raises(SystemExit):  # other networks, as scan_benchmark.py takes them: a missing one by name
        lost.main(["--folder", str(tmp_path), "--reader", str(tmp_path / "none.onnx")])
    assert "no network file" in capsys.readouterr().err


def test_photos_are_measured_by_the_sets_style_where_they_hold_more_than_one(bench):
    def result(style, right):
        return _one_tile(bench, right, style=style)

    dark, pine = "giant-wood/dark-light", "giant-wood/pine-black"
    rows = [row.split() for row in bench.by_style([result(dark, False), result(pine, True), result(dark, True),
                                                   result(None, False)])]
    # (each row's style, photos and hand exact)
    assert [(row[1], row[-9], row[-4]) for row in rows] == [("dark-light", "2", "50.00%"),
                                                            ("pine-black", "1", "100.00%")]
    assert bench.by_style([result(pine, True), result("pine-black", True), result(None, True)]) == []  # one style
