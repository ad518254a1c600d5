"""Where a scan's time goes: each stage of ``companion.vision.find_faces`` timed, with the networks' share
of it and the reader's crops, on the 12 MP photos (the speed target's).

    .venv/bin/python benchmarks/scan_stages.py [PHOTO|FOLDER ...] [--fresh N] [--seed-start 50000] [--rounds 3]

Photos: those given (a folder's JPEG photos), else the 12 MP ones among ``sample_images/`` and, with
``--fresh N``, among the first N fresh photos of ``scan_benchmark.py`` (rendered here, so slow). Each photo
is scanned once to warm up, then ``--rounds`` times; the figures are means per photo over those rounds, on
one thread.
A stage's time includes the networks it runs; "networks" is that part, "crops" the reader's crops and
"passes" the detector's. Timing wraps each stage from outside (the scan's code is unchanged); a stage
called within another counts in the outer one.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import companion.scanner as scanner  # noqa: E402
import companion.vision as vision  # noqa: E402
from companion.photo import photo_size  # noqa: E402
from companion.vision import nets  # noqa: E402
from scan_benchmark import BIG_PIXELS, bare_decode, fresh_photos  # noqa: E402

# find_faces's stages, in the order it runs them (the decodings, the draft and any finer one, are timed as "decoding")
STAGES = ("find_candidates", "read_faces", "_reshaped", "_resplit", "_unstraddled", "_split_in_two", "_orphans",
          "_filled", "_halved", "_logo_sought", "_last_of_set", "read_both_ways", "_cut_at_border", "face_colour",
          "assemble")


class Stages:
    """While entered, wraps the stages and the networks and sums their time, the networks' part and the
    crops per stage; on leaving, puts the originals back."""

    def __init__(self) -> None:
        self.seconds, self.network, self.crops, self.passes = Counter(), Counter(), Counter(), Counter()
        self.open: list[str] = []  # the stages running now, outermost first
        self.originals = [(vision, name, getattr(vision, name)) for name in STAGES] + [
            (scanner, "load_photo", scanner.load_photo), (nets.Network, "run", nets.Network.run)]

    def __enter__(self) -> "Stages":
        for name in STAGES:
            setattr(vision, name, self._wrapped(getattr(vision, name), name))
        scanner.load_photo = self._wrapped(scanner.load_photo, "decoding")
        run = nets.Network.run

        def network_run(net, x, outputs=None):
            t0 = time.perf_counter()
            out = run(net, x, outputs)
            stage = self.open[0] if self.open else "(other)"
            self.network[stage] += time.perf_counter() - t0
            if x.shape[2] == 72:  # the reader's crops are 72 x 128
                self.crops[stage] += x.shape[0]
            else:
                self.passes[stage] += 1
            return out

        nets.Network.run = network_run
        return self

    def __exit__(self, *exc) -> None:
        for owner, name, original in self.originals:
            setattr(owner, name, original)

    def _wrapped(self, fn, name: str):
        def timed(*args, **kwargs):
            self.open.append(name)
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.open.pop()
                if not self.open:
                    self.seconds[name] += time.perf_counter() - t0
        return timed

    def clear(self) -> None:
        for c in (self.seconds, self.network, self.crops, self.passes):
            c.clear()


def big_photos(args: argparse.Namespace) -> list[tuple[str, bytes]]:
    if args.photos:  # (a folder stands for its JPEG photos)
        paths = [q for p in args.photos for q in (sorted(p.glob("*.jpg")) if p.is_dir() else [p])]
        return [(p.name, p.read_bytes()) for p in paths]
    out = []
    for path in sorted((ROOT / "sample_images").glob("*.jpg")):
        w, h = photo_size(path)
        if w * h >= BIG_PIXELS:
            out.append((path.name, path.read_bytes()))
    for _, _, data, label in fresh_photos(args.fresh, args.seed_start):
        if label["width"] * label["height"] >= BIG_PIXELS:
            out.append((label["file"], data))
    return out


def report(stages: Stages, n: int, total: float, photos: int, rounds: int) -> str:
    """The table of ``stages`` over ``n`` scans that took ``total`` seconds each (means per photo)."""
    lines = [f"{photos} photos, {rounds} rounds, one thread: ms per photo (means)",
             f"{'stage':<16} {'ms':>7} {'networks':>9} {'rest':>7} {'crops':>6} {'passes':>6}"]
    for name in ["decoding", *STAGES]:
        if name in stages.seconds:
            s, net = stages.seconds[name] / n, stages.network[name] / n
            lines.append(f"{name:<16} {1000 * s:7.1f} {1000 * net:9.1f} {1000 * (s - net):7.1f} "
                         f"{stages.crops[name] / n:6.1f} {stages.passes[name] / n:6.2f}")
    net_all = sum(stages.network.values()) / n
    lines.append(f"{'(between)':<16} {1000 * (total - sum(stages.seconds.values()) / n):7.1f}")
    lines.append(f"{'scan':<16} {1000 * total:7.1f} {1000 * net_all:9.1f} {1000 * (total - net_all):7.1f} "
                 f"{sum(stages.crops.values()) / n:6.1f} {sum(stages.passes.values()) / n:6.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("photos", nargs="*", type=Path, help="photos or folders of them (default: the 12 MP ones "
                    "among the samples and the fresh photos)")
    ap.add_argument("--fresh", type=int, default=0, help="also the 12 MP photos among the first N fresh ones")
    ap.add_argument("--seed-start", type=int, default=50000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)  # the speed target is on one core (set before a network is loaded)
    photos = big_photos(args)
    if not photos:
        print("no 12 MP photos: give some, or --fresh N")
        return 1
    with Stages() as stages:
        for _, data in photos:
            scanner.scan_photo(data)
        stages.clear()
        t0 = time.perf_counter()
        for _ in range(args.rounds):
            for _, data in photos:
                scanner.scan_photo(data)
        n = args.rounds * len(photos)
        total = (time.perf_counter() - t0) / n
    bare = float(np.mean([min(_seconds(bare_decode, data) for _ in range(args.rounds)) for _, data in photos]))
    print(report(stages, n, total, len(photos), args.rounds))
    print(f"OpenCV's bare decoding of the same files: {1000 * bare:.1f} ms (the fastest of {args.rounds}); "
          f"scan / that: {total / bare:.2f}")
    return 0


def _seconds(fn, *args) -> float:
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0


if __name__ == "__main__":
    raise SystemExit(main())
