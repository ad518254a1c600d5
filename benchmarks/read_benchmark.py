"""Measure the reader alone: read every labelled tile of fresh synthetic photos from its labelled frame.

    nice .venv/bin/python benchmarks/read_benchmark.py [--count 60] [--seed-start 50000] [--jitter 1.0]
                                                       [--profile NAME] [--out DIR]

The detector is left out: each whole labelled tile is handed to ``companion.vision.read.read_faces`` as the
frame of its labelled corners, moved and turned a little as the detector's guesses are (``--jitter`` scales
that: centre 3 % of the length, axis 3 degrees, length and width 6 %). It prints how many tiles were read
right (both halves), how many were taken for no tile, the corner error (in tile widths), and, by
confidence, how many readings were wrong (a wrong reading should not be sure). ``--out DIR`` writes the
misread tiles' crops.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from scan_benchmark import ROTATION, fresh_photos  # noqa: E402  (sets OpenCV's pixel limit first)

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from calibration import load_profile  # noqa: E402
from companion.photo import load_photo  # noqa: E402
from companion.vision import geometry as geo  # noqa: E402
from companion.vision.read import Pyramid, count_pips, read_faces  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--seed-start", type=int, default=50000)
    ap.add_argument("--jitter", type=float, default=1.0)
    ap.add_argument("--profile", default=None)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    profile = load_profile(args.profile)
    rng = np.random.default_rng(1)
    tiles = right = not_tile = 0
    corner_err = []
    by_conf = {0.5: [0, 0], 0.85: [0, 0], 1.01: [0, 0]}  # confidence below -> [tiles, wrong]
    t0 = time.perf_counter()
    for seed, kind, data, label in fresh_photos(args.count, args.seed_start, 0.0, ROTATION):
        image = load_photo(data)
        frames, wanted = [], []
        for t in label["tiles"]:
            if t["partial"]:
                continue
            q = geo.clockwise(np.asarray(t["corners"], float))
            c, a, length, width = geo.frame_of(q)
            j = args.jitter
            frames.append((c + rng.normal(0, 0.03 * j * length, 2), a + rng.normal(0, math.radians(3) * j),
                           length * math.exp(rng.normal(0, 0.06 * j)), width * math.exp(rng.normal(0, 0.06 * j))))
            wanted.append((sorted(t["pips"]), q, width))
        faces = read_faces(Pyramid(image), frames, profile)
        for face, (pips, q, width) in zip(faces, wanted):
            tiles += 1
            if face is None or face.tile_score < profile.tile_threshold:  # None: taken for a neighbour's outline
                not_tile += 1
                continue
            count = count_pips(face, profile)
            ok = sorted(count.pips) == pips
            right += ok
            d = np.linalg.norm(face.corners[:, None] - q[None], axis=2).min(axis=1).mean() / width
            corner_err.append(d)
            for top in by_conf:
                if count.confidence < top:
                    by_conf[top][0] += 1
                    by_conf[top][1] += not ok
                    break
            if not ok and args.out:
                args.out.mkdir(parents=True, exist_ok=True)
                crop = geo.warp_crop(image, geo.quad_to_crop(face.corners))
                name = f"{seed}-{pips[0]}{pips[1]}-read{count.pips[0]}{count.pips[1]}-{count.confidence:.2f}.png"
                cv2.imwrite(str(args.out / name), cv2.resize(crop, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST))
    read = tiles - not_tile
    print(f"{args.count} photos, {tiles} whole tiles, reader {profile.reader} ({time.perf_counter() - t0:.0f} s)")
    print(f"  taken for no tile: {not_tile} ({100 * not_tile / max(tiles, 1):.2f}%)")
    print(f"  read right: {right} of {read} ({100 * right / max(read, 1):.2f}%)")
    print(f"  corner error: median {np.median(corner_err):.3f}, 95th percentile {np.percentile(corner_err, 95):.3f} tile widths")
    low = 0.0
    for top, (n, wrong) in by_conf.items():
        print(f"  confidence {low:.2f}-{min(top, 1.0):.2f}: {n} tiles, {wrong} wrong")
        low = top
    return 0


if __name__ == "__main__":
    sys.exit(main())
