"""Measure the pip reader alone: read every labelled tile of fresh synthetic photos through its LABELLED corners.

    nice .venv/bin/python benchmarks/read_benchmark.py [--fresh 40] [--seed-start 50000] [--kind KIND ...]
                                                       [--finder] [--out DIR] [--profile NAME]

With the labelled outline (a perfect finder) every value error is the reader's own. The photo is decoded as
the scanner decodes it (JPEG draft mode, small faces from the full photo) and read with ``rectify`` +
``read_face`` as ``read_tiles`` does (a logo makes the tile 0-0; a plain 0-0 is dropped as no tile).
Prints value accuracy (both halves right, in the labelled order) overall, per kind and tag, per true half
value and per face width; the confusions (true half -> read half) and how confident the right and the wrong
reads were (tile confidence = the lower half's).

``--finder`` also scans each photo with the real finder (``scan_photo``) and splits its detections into
good outlines (IoU with the labelled face > 0.85) and the rest, so that reader errors and finder errors
can be told apart. ``--out DIR`` writes the rectified faces of the wrong reads there as PNG (the finder's
as ``finder_*.png``, rectified from the full photo through the found corners).

The fresh photos are those of ``scan_benchmark.py`` (same seeds, kinds in the same rotation), stored
without the EXIF turn. A benchmark, not a test: it prints figures.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from companion.photo import load_photo, photo_size  # noqa: E402  (sets the OpenCV pixel limit before cv2)

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from calibration import load_profile  # noqa: E402
from companion.scanner import scan_photo  # noqa: E402
from companion.vision.pips import read_face, rectify  # noqa: E402
from scan_benchmark import ROTATION, fresh_photos  # noqa: E402

CONF_BINS = (0.0, 0.5, 0.7, 0.85, 0.95, 1.01)
WIDTH_BINS = (0, 24, 32, 48, 64, 96, 10_000)
GOOD_IOU = 0.85


@dataclass
class Read:
    seed: int
    index: int
    kind: str
    tags: list[str]
    true: tuple[int, int]
    read: tuple[int, int] | None  # None: dropped (a plain blank face, taken for no tile)
    confidence: float
    width_px: float  # the face's short edge in the photo

    @property
    def right(self) -> bool:
        return self.read == self.true


def _read_labelled(image: np.ndarray, full: list, data: bytes, corners: np.ndarray, photo_scale: float,
                   profile) -> tuple[tuple[int, int] | None, float, np.ndarray]:
    """Read one face as ``read_tiles`` reads a found one; corners in photo pixels."""
    at = (corners + 0.5) / photo_scale - 0.5
    source = image
    if photo_scale > 1.0 and np.linalg.norm(at[0] - at[1]) < profile.full_res_below:
        if not full:
            full.append(load_photo(data))
        source, at = full[0], corners
    centre = at.mean(axis=0)
    face = rectify(source, centre + (at - centre) * (1 + profile.read_pad), profile)
    reading = read_face(face, profile)
    logo = any(h.logo for h in reading.halves)
    pips = (reading.halves[0].pips, reading.halves[1].pips)
    if profile.blank_needs_logo and logo:
        pips = (0, 0)
    conf = min(h.confidence for h in reading.halves)
    if profile.blank_needs_logo and pips == (0, 0) and not logo:
        return None, conf, face
    return pips, conf, face


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    inter, _ = cv2.intersectConvexConvex(cv2.convexHull(a), cv2.convexHull(b))
    union = cv2.contourArea(cv2.convexHull(a)) + cv2.contourArea(cv2.convexHull(b)) - inter
    return float(inter / union) if union > 0 else 0.0


def _offset(found: np.ndarray, label: np.ndarray) -> tuple[float, float, float]:
    """Where the labelled face's centre lies in the found face, in tile widths (along, across), and the
    labelled width over the found one."""
    rect = np.array([[0, 0], [1, 0], [1, 2], [0, 2]], np.float32)
    h = cv2.getPerspectiveTransform(found.astype(np.float32), rect)
    c = cv2.perspectiveTransform(label.mean(axis=0).reshape(1, 1, 2).astype(np.float32), h)[0, 0]
    width = np.linalg.norm(label[0] - label[1]) / max(np.linalg.norm(found[0] - found[1]), 1e-6)
    return float(c[1] - 1.0), float(c[0] - 0.5), float(width)


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:6.1f}%" if b else "    -  "


def _row(title: str, reads: list[Read]) -> str:
    right = sum(r.right for r in reads)
    hi_wrong = sum(not r.right and r.confidence >= 0.85 for r in reads)
    return f"  {title:<22} {len(reads):>5} {_pct(right, len(reads)):>8} {len(reads) - right:>6} {hi_wrong:>9}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fresh", type=int, default=40)
    ap.add_argument("--seed-start", type=int, default=50000)
    ap.add_argument("--kind", action="append", choices=sorted(set(ROTATION)))
    ap.add_argument("--profile", default=None)
    ap.add_argument("--finder", action="store_true", help="also scan with the real finder (slower)")
    ap.add_argument("--out", type=Path, default=None, help="write the wrong reads' rectified faces here")
    args = ap.parse_args(argv)
    profile = load_profile(args.profile)
    kinds = tuple(args.kind or ROTATION)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    reads: list[Read] = []
    finder = {"good": [0, 0, 0], "loose": [0, 0, 0]}  # [right, total, wrong >= .85] by outline quality
    finder_wrong: list[str] = []
    offsets: list[tuple[float, float, float]] = []
    t0 = time.perf_counter()
    for seed, kind, data, label in fresh_photos(args.fresh, args.seed_start, 0.0, kinds):
        width, _ = photo_size(data)
        image = load_photo(data, draft_side=int(profile.work_max_side * profile.draft_slack))
        photo_scale = width / image.shape[1]
        full: list[np.ndarray] = []
        for k, t in enumerate(label["tiles"]):
            if t["partial"]:
                continue
            corners = np.asarray(t["corners"], float)
            got, conf, face = _read_labelled(image, full, data, corners, photo_scale, profile)
            r = Read(seed, k, kind, label["tags"], tuple(t["pips"]), got, conf,
                     float(np.linalg.norm(corners[0] - corners[1])))
            reads.append(r)
            if args.out and not r.right:
                shown = "drop" if got is None else f"{got[0]}{got[1]}"
                cv2.imwrite(str(args.out / f"{seed}_{k:02d}_{r.true[0]}{r.true[1]}_as_{shown}_c{conf:.2f}"
                                           f"_w{r.width_px:.0f}.png"), face)
        if args.finder:
            scan = scan_photo(data, profile=profile)
            for d in scan.get("tiles", []):
                best, best_iou = None, 0.0
                for t in label["tiles"]:
                    v = _iou(d["corners"], t["corners"])
                    if v > best_iou:
                        best, best_iou = t, v
                if best is None or best["partial"] or best_iou < 0.3:
                    continue
                key = "good" if best_iou > GOOD_IOU else "loose"
                if key == "loose":
                    offsets.append(_offset(np.asarray(d["corners"], float), np.asarray(best["corners"], float)))
                ok = sorted(d["pips"]) == sorted(best["pips"])
                finder[key][0] += ok
                finder[key][1] += 1
                finder[key][2] += not ok and d["confidence"] >= 0.85
                if not ok and args.out:
                    if not full:
                        full.append(load_photo(data))
                    face = rectify(full[0], np.asarray(d["corners"], float), profile)
                    cv2.imwrite(str(args.out / f"finder_{seed}_{best['pips'][0]}{best['pips'][1]}_as_"
                                               f"{d['pips'][0]}{d['pips'][1]}_iou{best_iou:.2f}.png"), face)
                if not ok:
                    finder_wrong.append(f"{seed}: {best['pips'][0]}-{best['pips'][1]} read "
                                        f"{d['pips'][0]}-{d['pips'][1]} (IoU {best_iou:.2f}, conf {d['confidence']:.2f})")
    print(f"read {len(reads)} labelled tiles of {args.fresh} fresh photos (seeds {args.seed_start}+) "
          f"in {time.perf_counter() - t0:.0f} s, profile {profile.name}, labelled corners\n")
    print(f"  {'':<22} {'tiles':>5} {'values':>8} {'wrong':>6} {'wrong>=.85':>9}")
    print(_row("all", reads))
    for kind in sorted({r.kind for r in reads}):
        print(_row(f"kind {kind}", [r for r in reads if r.kind == kind]))
    for tag in sorted({g for r in reads for g in r.tags} - {r.kind for r in reads}):
        print(_row(f"tag {tag}", [r for r in reads if tag in r.tags]))
    print("\nby face width (px of the photo):")
    for lo, hi in zip(WIDTH_BINS, WIDTH_BINS[1:]):
        sel = [r for r in reads if lo <= r.width_px < hi]
        if sel:
            print(_row(f"{lo}-{hi}", sel))
    print("\nhalves by true value (half read right / halves):")
    halves: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    confusion: Counter = Counter()
    for r in reads:
        for h in (0, 1):
            want = r.true[h]
            got = None if r.read is None else r.read[h]
            halves[want][0] += got == want
            halves[want][1] += 1
            if got != want:
                confusion[(want, "drop" if got is None else got)] += 1
    print("  " + "  ".join(f"{v}: {_pct(a, b).strip()} of {b}" for v, (a, b) in sorted(halves.items())))
    print("\nconfusions (true half -> read half, count):")
    print("  " + ", ".join(f"{a}->{b} x{n}" for (a, b), n in confusion.most_common()))
    print("\nconfidence of the tile reads (right / wrong):")
    for lo, hi in zip(CONF_BINS, CONF_BINS[1:]):
        sel = [r for r in reads if lo <= r.confidence < hi]
        print(f"  {lo:.2f}-{min(hi, 1.0):.2f}: {sum(r.right for r in sel):>5} right {sum(not r.right for r in sel):>4} wrong")
    if args.finder:
        print("\nthe real finder's detections matched to a labelled whole tile:")
        for key in ("good", "loose"):
            a, b, sure = finder[key]
            print(f"  {key + ' outline':<14} (IoU {'>' if key == 'good' else '<='} {GOOD_IOU}): {b:>5} "
                  f"values {_pct(a, b)}, {sure} wrong with confidence >= 0.85")
        if offsets:
            o = np.abs(np.asarray(offsets))
            print(f"  loose outlines: the labelled centre lies off the found one by (tile widths) along the tile "
                  f"median {np.median(o[:, 0]):.2f}, >0.15 in {np.mean(o[:, 0] > 0.15):.0%}; across median "
                  f"{np.median(o[:, 1]):.2f}, >0.15 in {np.mean(o[:, 1] > 0.15):.0%}; labelled/found width off by "
                  f">15% in {np.mean(np.abs(o[:, 2] - 1) > 0.15):.0%}")
        for line in finder_wrong[:30]:
            print("   ", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
