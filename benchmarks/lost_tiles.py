"""Where the tiles a scan got wrong were lost: each whole labelled tile that a scan missed or misread, put in a
class by the faces the networks read there before ``assemble`` chose among them.

    .venv/bin/python benchmarks/lost_tiles.py --folder DIR [--folder DIR ...] [--list] [--detector FILE]
                                              [--reader FILE]

Photos: the labelled ones stored in each folder (``make_photos.py``'s, or a ``scan_benchmark.py --fresh-dir``).
Each is scanned and scored as ``scan_benchmark.py`` does (``scan_photo``, ``compare``); the faces the networks read
are caught on their way to ``assemble`` (wrapped from outside, as ``scan_stages.py`` times it: the scan's code is
unchanged). Each tile missed or misread is (``lost_as``; IoU is the overlap of a face with the tile's label
outline, their intersection over their union):

- read right, left out: a whole face on it (IoU at least 0.5) reads its pips, but another reading was kept;
- read wrong: a whole face on it reads other pips (and none reads its own);
- read as no tile: a face on it, which the reader took for no whole tile;
- read across two tiles end to end: no face lies on it, and the face most on it (IoU 0.2 to 0.5) lies half a tile
  off along it (its centre 0.3 to 0.7 of the tile's length away, and less than 0.7 of its width across): an outline
  across the junction of two tiles end to end, which the networks take for a tile (rows of touching tiles seen
  steeply);
- read across two tiles side by side: that face lies off it across instead (0.3 to 0.7 of its width, less than 0.3
  of its length along);
- framed otherwise: the face most on it overlaps it so, but neither way (a face twice its size, or askew);
- not seen: no face read overlaps it by IoU 0.2.

It prints how many tiles of each class were lost, folder by folder, in all, and kind by kind (the columns name the
classes short); ``--list`` adds a line for each tile. ``--detector FILE`` and ``--reader FILE`` read with other
networks, as ``scan_benchmark.py`` does: whether a new pair reads fewer tiles across two, say.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

# (scan_benchmark first: it sets OpenCV's pixel limit before cv2 loads)
from scan_benchmark import _same, compare, folder_problem, networks_asked, with_networks  # noqa: E402

import numpy as np  # noqa: E402

import companion.vision as vision  # noqa: E402
from calibration import load_profile  # noqa: E402
from companion.scanner import scan_photo  # noqa: E402
from companion.vision import geometry as geo  # noqa: E402
from companion.vision.read import count_pips  # noqa: E402

CLASSES = ("read right, left out", "read wrong", "read as no tile", "read across two tiles end to end",
           "read across two tiles side by side", "framed otherwise", "not seen")
SHORT = ("right, left out", "wrong", "no tile", "across two end to end", "across two side by side", "other", "unseen")
WIDTHS = [len(name) + 2 for name in SHORT]
HEADER = f"{'tiles lost':<28} {'all':>5}" + "".join(f"{name:>{width}}" for name, width in zip(SHORT, WIDTHS))
ON_IT, NEAR_IT = 0.5, 0.2  # IoU of a face that holds a tile, and of one that lies partly on it


def lost_as(tile: np.ndarray, pips: tuple[int, int], faces: list[tuple[np.ndarray, tuple[int, int], bool]]) -> str:
    """The class (of ``CLASSES``) of a labelled tile (outline ``tile``, ``pips``) that a scan missed or misread, by the
    ``faces`` read in the photo (outline, pips, whether the reader took it for a whole tile)."""
    seen = [(geo.iou(q, tile), q, p, is_whole) for q, p, is_whole in faces]
    if any(o >= ON_IT and is_whole and _same(p, pips) for o, _, p, is_whole in seen):
        return "read right, left out"
    if any(o >= ON_IT and is_whole for o, _, _, is_whole in seen):
        return "read wrong"
    if any(o >= ON_IT for o, *_ in seen):
        return "read as no tile"
    overlap, outline, _, _ = max(seen, key=lambda s: s[0], default=(0.0, None, None, None))
    if overlap < NEAR_IT:
        return "not seen"
    centre, angle, length, width = geo.frame_of(np.asarray(tile, np.float64))
    off = geo.centre_of(np.asarray(outline, np.float64)) - centre
    along = abs(off @ np.array([np.cos(angle), np.sin(angle)])) / length
    across = abs(off @ np.array([-np.sin(angle), np.cos(angle)])) / width
    if 0.3 <= along <= 0.7 and across <= 0.7:
        return "read across two tiles end to end"
    if along < 0.3 and 0.3 <= across <= 0.7:
        return "read across two tiles side by side"
    return "framed otherwise"


class CaughtFaces:
    """``companion.vision.assemble`` wrapped so that the faces of the last scan are kept (``faces``)."""

    def __init__(self) -> None:
        self.faces: list[tuple[np.ndarray, tuple[int, int], bool]] = []
        self._assemble = vision.assemble

    def __enter__(self) -> "CaughtFaces":
        def assemble(found, profile):
            self.faces = [(f.corners, count_pips(f, profile).pips, f.tile_score >= profile.tile_threshold)
                          for f in found.faces]
            return self._assemble(found, profile)
        vision.assemble = assemble
        return self

    def __exit__(self, *exc) -> None:
        vision.assemble = self._assemble


def lost_in(folder: Path, profile, caught: CaughtFaces) -> list[dict]:
    """Every whole tile missed or misread in ``folder``'s labelled photos: photo, kind, pips, problem and class."""
    lost = []
    for lab_path in sorted(folder.glob("*.json")):
        label = json.loads(lab_path.read_text())
        caught.faces = []  # (a photo that cannot be read reaches no assemble)
        scan = scan_photo(folder / label["file"], profile=profile, name=label["file"])
        matched = dict(compare(label, scan, label["file"]).matches)  # label index -> scan index
        for li, tile in enumerate(label["tiles"]):
            if tile.get("partial"):
                continue
            if li not in matched:
                problem = "missed"
            elif not _same(scan["tiles"][matched[li]]["pips"], tile["pips"]):
                problem = "misread"
            else:
                continue
            lost.append({"photo": label["file"], "kind": label.get("kind", "?"), "pips": tuple(tile["pips"]),
                         "problem": problem,
                         "class": lost_as(np.asarray(tile["corners"]), tuple(tile["pips"]), caught.faces)})
    return lost


def table(title: str, lost: list[dict]) -> str:
    """A row of the table: the tiles lost, and how many of them in each class (the columns of ``HEADER``)."""
    counts = Counter(t["class"] for t in lost)
    return f"{title:<28} {len(lost):>5}" + "".join(f"{counts[name]:>{width}}" for name, width in zip(CLASSES, WIDTHS))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folder", type=Path, action="append", required=True, help="labelled photos (repeatable)")
    ap.add_argument("--profile", default=None, help="profile to read with (default giant-wood)")
    ap.add_argument("--list", action="store_true", help="also a line for each tile lost")
    ap.add_argument("--detector", type=Path, default=None, help="read with this detector .onnx (a trained one)")
    ap.add_argument("--reader", type=Path, default=None, help="read with this reader .onnx (a trained one)")
    args = ap.parse_args(argv)
    for folder in args.folder:
        problem = folder_problem(folder)
        if problem:
            ap.error(problem)
    profile = with_networks(load_profile(args.profile), networks_asked(ap, args.detector, args.reader))
    everything = []
    print(HEADER)
    with CaughtFaces() as caught:
        for folder in args.folder:
            lost = lost_in(folder, profile, caught)
            print(table(str(folder), lost), flush=True)
            everything += lost
    if len(args.folder) > 1:
        print(table("all", everything))
    for kind in sorted({t["kind"] for t in everything}):
        print(table(f"  of which {kind}", [t for t in everything if t["kind"] == kind]))
    if args.list:
        for t in everything:
            print(f"{t['photo']} ({t['kind']}): {t['pips'][0]}-{t['pips'][1]} {t['problem']}, {t['class']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
