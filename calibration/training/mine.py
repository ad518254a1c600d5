"""Run the trained detector over the training photos and keep what it proposes, for the reader's training.

    .venv/bin/python -m calibration.training.mine DATA [--threshold 0.1]

Per photo ``NNNNNNNN_cand.json``: every candidate of the detector's two looks (as the app takes them), its
frame (centre, angle, length, width in the ``.jpg``'s pixels) with the index of the labelled tile it lands
on (its centre inside the tile's face, its axis within 30 degrees and its length within a third), -1 on no
tile, or -2 on a tile but further off. The reader then learns from the detector's real guesses:
its misplaced ones on tiles as the first looks to correct, and the ones on no tile (a patch of ground,
half a tile and its neighbour) as what to turn down.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from companion.vision import geometry as geo
from companion.vision.detect import find_candidates, finer_side, merged
from companion.vision.profile import Profile


def match(frame, tiles: list[np.ndarray]) -> int:
    """The labelled tile this guess is a first look at, -1 for a guess on no tile, -2 for one on a tile but
    too far off to learn from (turned 30 degrees or more, or a third too long or short)."""
    centre, angle, length, _ = frame
    for k, q in enumerate(tiles):
        if cv2.pointPolygonTest(q.astype(np.float32), (float(centre[0]), float(centre[1])), False) < 0:
            continue
        _, a, ln, _ = geo.frame_of(q)
        turn = abs((angle - a + math.pi / 2) % math.pi - math.pi / 2)
        return k if turn < math.radians(30) and abs(math.log(length / ln)) < math.log(1.33) else -2
    return -1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--threshold", type=float, default=0.1)
    args = ap.parse_args(argv)
    profile = Profile(detect_threshold=args.threshold)
    t0 = time.perf_counter()
    labels = sorted(args.data.glob("*[0-9].json"))
    hits = misses = 0
    for n, path in enumerate(labels):
        out = path.with_name(path.stem + "_cand.json")
        if out.exists():
            continue
        label = json.loads(path.read_text())
        image = cv2.imread(str(path.with_suffix(".jpg")), cv2.IMREAD_COLOR)
        tiles = [geo.clockwise(np.asarray(t["corners"], float)) for t in label["tiles"]]
        found = []
        candidates = find_candidates(image, profile)
        side = finer_side(candidates, max(image.shape[:2]), profile)
        if side:  # the detector's second look, as companion.vision.find_faces takes it
            candidates = merged(find_candidates(image, profile, side=min(side, max(image.shape[:2]))), candidates)
        for c in candidates:
            frame = (c.centre, c.angle, c.length, c.width)
            k = match(frame, tiles)
            hits += k >= 0
            misses += k == -1
            found.append({"frame": [round(float(c.centre[0]), 2), round(float(c.centre[1]), 2), round(c.angle, 4),
                                    round(c.length, 2), round(c.width, 2)], "score": round(c.score, 3), "tile": k})
        out.write_text(json.dumps(found))
        if (n + 1) % 500 == 0:
            print(f"{n + 1}/{len(labels)} photos: {hits} candidates on tiles, {misses} on none "
                  f"({time.perf_counter() - t0:.0f} s)", flush=True)
    print(f"{len(labels)} photos: {hits} candidates on tiles, {misses} on none ({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
