"""Measure ``companion verify`` on generated photos of lines of play (or on a folder of labelled photos).

    .venv/bin/python benchmarks/verify_benchmark.py [--count 40] [--seed-start 7000]
    .venv/bin/python benchmarks/verify_benchmark.py --labels-only --count 300   # geometry alone
    .venv/bin/python benchmarks/verify_benchmark.py --dir sample_images          # NAME.jpg + NAME.json

Each photo is rendered by ``companion.synth`` (kind "layout": a line of play seen from 20 to 45
degrees, 5 to 15 tiles, about 40 % with exactly one wrong junction), seeded so runs repeat. It prints:
- junctions found: labelled junctions whose two tiles were found touching;
- junction verdicts right: of those, how many got the labelled match/mismatch;
- photos with the right verdict (legal or not);
- legal photos called illegal without a warning that names a tile in doubt on a mismatched junction
  (the target is none);
- extra junctions (contacts reported where the label has none), tiles found and tiles read right (both
  halves, each at its own end: the reader may start its corners at either end of a tile, so the label's
  halves are put in the order of the read corners first), and how many misread tiles were flagged as in
  doubt, for diagnosis.
Each photo is also checked from its label's own corners and pips (a perfect reader), which isolates the
junction geometry from the recognizer; ``--labels-only`` does only that. Photos are matched to labels by tile centres.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration import load_profile  # noqa: E402
from companion.verifier import verify_photo, verify_scan  # noqa: E402
from companion.vision.junctions import JunctionConfig, in_doubt  # noqa: E402

MATCH_RADIUS = 0.5  # a read tile matches a labelled one when their centres are this many tile widths apart


@dataclass
class Tally:
    photos: int = 0
    junctions: int = 0
    found: int = 0
    both_tiles_found: int = 0  # labelled junctions whose two tiles the reader found
    verdicts_right: int = 0
    photos_right: int = 0
    legal_photos: int = 0
    legal_called_illegal: int = 0
    legal_called_illegal_unwarned: int = 0
    extra: int = 0
    tiles: int = 0
    tiles_found: int = 0
    tiles_right: int = 0
    misread_in_doubt: int = 0  # misread tiles whose confidence is below the doubt threshold
    right_in_doubt: int = 0  # tiles read right but flagged as in doubt anyway
    errors: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)


def _centre(corners) -> np.ndarray:
    return np.asarray(corners, dtype=float).reshape(4, 2).mean(axis=0)


def _width(corners) -> float:
    c = np.asarray(corners, dtype=float).reshape(4, 2)
    return float((np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[3] - c[2])) / 2)


def in_read_order(label_tile: dict, read_tile: dict) -> list[int]:
    """The label's halves in the order of the read tile's corners: ``pips[0]`` is the half at the read's
    ``corners[0]``-``corners[1]`` end (whichever of the label's two ends lies nearer that edge's middle)."""
    label_quad = np.asarray(label_tile["corners"], dtype=float).reshape(4, 2)
    read_quad = np.asarray(read_tile["corners"], dtype=float).reshape(4, 2)
    read_end = (read_quad[0] + read_quad[1]) / 2
    near_0 = np.linalg.norm(read_end - (label_quad[0] + label_quad[1]) / 2)
    near_1 = np.linalg.norm(read_end - (label_quad[2] + label_quad[3]) / 2)
    a, b = (int(v) for v in label_tile["pips"])
    return [a, b] if near_0 <= near_1 else [b, a]


def match_tiles(label_tiles: list[dict], read_tiles: list[dict]) -> dict[int, int]:
    """label index -> read index, nearest centres first, within ``MATCH_RADIUS`` tile widths."""
    pairs = []
    for li, lt in enumerate(label_tiles):
        for ri, rt in enumerate(read_tiles):
            d = float(np.linalg.norm(_centre(lt["corners"]) - _centre(rt["corners"])))
            if d <= MATCH_RADIUS * _width(lt["corners"]):
                pairs.append((d, li, ri))
    mapping: dict[int, int] = {}
    used: set[int] = set()
    for _, li, ri in sorted(pairs):
        if li not in mapping and ri not in used:
            mapping[li] = ri
            used.add(ri)
    return mapping


def score(label: dict, verdict: dict, tally: Tally, name: str) -> None:
    """Add one photo's figures to ``tally``."""
    tally.photos += 1
    if "error" in verdict:
        tally.errors += 1
        tally.failures.append(f"{name}: error {verdict['error']}")
        return
    mapping = match_tiles(label["tiles"], verdict["tiles"])
    tally.tiles += len(label["tiles"])
    tally.tiles_found += len(mapping)
    for li, ri in mapping.items():
        read = verdict["tiles"][ri]
        doubt = in_doubt(read["confidence"])
        if in_read_order(label["tiles"][li], read) == [int(v) for v in read["pips"]]:
            tally.tiles_right += 1
            tally.right_in_doubt += doubt
        else:
            tally.misread_in_doubt += doubt
    predicted = {tuple(j["tiles"]): j for j in verdict["junctions"]}
    labelled = set()
    for junction in label["junctions"]:
        tally.junctions += 1
        a, b = junction["tiles"]
        if a not in mapping or b not in mapping:
            tally.failures.append(f"{name}: junction {a}-{b} missed (a tile was not found)")
            continue
        pair = tuple(sorted((mapping[a], mapping[b])))
        labelled.add(pair)
        tally.both_tiles_found += 1
        if pair in predicted:
            tally.found += 1
            if predicted[pair]["ok"] == junction["ok"]:
                tally.verdicts_right += 1
            else:
                tally.failures.append(f"{name}: junction {a}-{b} judged {predicted[pair]['pips']}, label {junction['pips']}")
        else:
            tally.failures.append(f"{name}: junction {a}-{b} ({junction['pips']}) missed")
    tally.extra += sum(1 for pair in predicted if pair not in labelled)
    right = verdict["legal"] == label["legal"]
    tally.photos_right += right
    if label["legal"]:
        tally.legal_photos += 1
        if not verdict["legal"]:
            tally.legal_called_illegal += 1
            named = all(
                any(f"tile {i + 1} (" in w and "in doubt" in w for w in verdict["warnings"] for i in j["tiles"])
                for j in verdict["junctions"] if not j["ok"])
            if not named:
                tally.legal_called_illegal_unwarned += 1
                tally.failures.append(f"{name}: UNWARNED: a mismatched junction names no tile in doubt")
    if not right:
        tally.failures.append(f"{name}: verdict {'legal' if verdict['legal'] else 'illegal'}, label "
                              f"{'legal' if label['legal'] else 'illegal'}; junctions {verdict['junctions']}; "
                              f"warnings {verdict['warnings']}")


def perfect_reading(label: dict) -> dict:
    """The scan object a perfect reader would give for a labelled photo."""
    tiles = [{"pips": t["pips"], "corners": t["corners"], "confidence": 1.0} for t in label["tiles"] if not t["partial"]]
    return {"file": label["file"], "tiles": tiles, "warnings": []}


def _pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.1f} %)" if d else "0/0"


def report(tally: Tally, what: str) -> None:
    print(f"{what}: {tally.photos} photos, {tally.seconds / max(tally.photos, 1):.2f} s per photo"
          f"{f', {tally.errors} unreadable' if tally.errors else ''}")
    print(f"  junctions found:             {_pct(tally.found, tally.junctions)}")
    print(f"    of junctions whose 2 tiles were found: {_pct(tally.found, tally.both_tiles_found)}")
    print(f"  junction verdicts right:     {_pct(tally.verdicts_right, tally.junctions)} of labelled junctions")
    print(f"  photos with right verdict:   {_pct(tally.photos_right, tally.photos)}")
    print(f"  legal called illegal:        {tally.legal_called_illegal} of {tally.legal_photos} legal photos, "
          f"{tally.legal_called_illegal_unwarned} without a warning naming the tile in doubt")
    print(f"  extra junctions:             {tally.extra}")
    print(f"  tiles found:                 {_pct(tally.tiles_found, tally.tiles)}")
    print(f"  tiles read right:            {_pct(tally.tiles_right, tally.tiles)} (both halves, each at its own end)")
    misread = tally.tiles - tally.tiles_right  # includes tiles not found
    print(f"  in doubt (confidence < {JunctionConfig().doubt_confidence}): {tally.misread_in_doubt} misread tiles, "
          f"{tally.right_in_doubt} of {tally.tiles_right} tiles read right "
          f"({misread} labelled tiles not read right, found or not)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--seed-start", type=int, default=7000)
    ap.add_argument("--dir", type=Path, help="measure the labelled layout photos in this folder instead")
    ap.add_argument("--labels-only", action="store_true", help="junction geometry on the labels (a perfect reader)")
    ap.add_argument("--show", type=int, default=15, help="print up to this many failures")
    ap.add_argument("--profile", default=None,
                    help="read every photo with this profile (default: the one its label names)")
    args = ap.parse_args(argv)

    perfect, real = Tally(), Tally()
    if args.dir:
        cases = []
        for path in sorted(args.dir.glob("*.json")):
            label = json.loads(path.read_text())
            if "junctions" in label:
                cases.append((path.name, label, args.dir / label["file"]))
    else:
        cases = [(f"layout-{seed}", seed, None) for seed in range(args.seed_start, args.seed_start + args.count)]
    for name, label_or_seed, path in cases:
        if path is None:
            from companion.synth import render_photo

            data, label = render_photo(label_or_seed, kind="layout", name=f"{name}.jpg")
        else:
            label, data = label_or_seed, path
        t0 = time.perf_counter()
        verdict = verify_scan(perfect_reading(label))
        perfect.seconds += time.perf_counter() - t0
        score(label, verdict, perfect, name)
        if not args.labels_only:
            t0 = time.perf_counter()
            verdict = verify_photo(data, profile=load_profile(args.profile or label.get("profile")), name=f"{name}.jpg")
            real.seconds += time.perf_counter() - t0
            score(label, verdict, real, name)
    report(perfect, "labels only (a perfect reader: the junction geometry alone)")
    for line in perfect.failures[: args.show]:
        print("  -", line)
    if not args.labels_only:
        report(real, "companion verify (recognizer and geometry)")
        for line in real.failures[: args.show]:
            print("  -", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
