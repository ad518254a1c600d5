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
Last, the least a scan of this design takes (``least_scan``: the reduced decoding, one detector pass and one reader
crop a tile) against the speed target's 1.5 times the decoding, as it runs here and into memory already mapped.
"""

from __future__ import annotations

import argparse
import ctypes
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
import companion.vision.looks as looks  # noqa: E402
from companion.photo import load_photo, photo_size  # noqa: E402
from companion.vision import detect, nets, read  # noqa: E402
from companion.vision import geometry as geo  # noqa: E402
from companion.vision.profile import Profile  # noqa: E402
from scan_benchmark import BIG_PIXELS, bare_decode, fresh_photos  # noqa: E402

# find_faces's stages, in the order it runs them (the decodings, the draft and any finer one, are timed as "decoding"),
# each with the module read_tiles or find_faces calls it through
STAGES = ((detect, "find_candidates"), (read, "read_faces"), (looks, "_reshaped"), (looks, "_resplit"),
          (looks, "_unstraddled"), (looks, "_split_in_two"), (looks, "_orphans"), (looks, "_filled"),
          (looks, "_halved"), (looks, "_logo_sought"), (looks, "_last_of_set"), (read, "read_both_ways"),
          (looks, "_cut_at_border"), (looks, "face_colour"), (vision, "assemble"))


class Stages:
    """While entered, wraps the stages and the networks and sums their time, the networks' part and the
    crops per stage; on leaving, puts the originals back."""

    def __init__(self) -> None:
        self.seconds, self.network, self.crops, self.passes = Counter(), Counter(), Counter(), Counter()
        self.open: list[str] = []  # the stages running now, outermost first
        self.originals = [(owner, name, getattr(owner, name)) for owner, name in STAGES] + [
            (scanner, "load_photo", scanner.load_photo), (nets.Network, "run", nets.Network.run)]

    def __enter__(self) -> "Stages":
        for owner, name in STAGES:
            setattr(owner, name, self._wrapped(getattr(owner, name), name))
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
    for name in ["decoding", *(name for _, name in STAGES)]:
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
    least = [least_scan(data, args.rounds) for _, data in photos]
    print(least_line(least, warm_decoding([data for _, data in photos], args.rounds)))
    return 0


def least_scan(data: bytes, rounds: int) -> tuple[float, float, float, float]:
    """The parts of a scan this design cannot do without, each the fastest of ``rounds`` (seconds): the photo
    decoded reduced for the detector, one detector pass over it (with its shrink), and one reader crop for each
    tile the scan reads (a batch of blank crops: the network's time does not hang on what a crop shows); and
    OpenCV's bare decoding of the photo."""
    profile = Profile()
    image = load_photo(data, draft_side=profile.detect_side)
    scale = profile.detect_side / max(image.shape[:2])
    crops = np.zeros((max(1, len(scanner.scan_photo(data).get("tiles", []))), 3, geo.CROP_H, geo.CROP_W), np.float32)
    parts = [lambda: load_photo(data, draft_side=profile.detect_side),
             lambda: nets.network(profile.detector).run(nets.blob([detect._network_input(image, scale)])),
             lambda: nets.network(profile.reader).run(crops),
             lambda: bare_decode(data)]
    return tuple(min(_seconds(part) for _ in range(rounds)) for part in parts)


def least_line(parts: list[tuple[float, float, float, float]], warm: float | None) -> str:
    """The medians of ``least_scan``'s parts, and their sum against the target's 1.5 times the decoding, as it
    runs here and (``warm``, seconds, if known) into memory already mapped."""
    decode, detector, reader, bare = (1000 * float(np.median(col)) for col in zip(*parts))
    least = 1000 * float(np.median([sum(p[:3]) for p in parts]))
    line = (f"the least a scan of this design takes (medians): decoding reduced {decode:.1f} ms + one detector pass "
            f"{detector:.1f} + one reader crop a tile {reader:.1f} = {least:.1f} ms; the looks that settle each tile "
            f"and the rest of the code come on top\n  against 1.5 x OpenCV's bare decoding: {1.5 * bare:.1f} ms")
    if warm is not None:
        line += f"; into memory already mapped (glibc keeping large blocks): {1500 * warm:.1f} ms"
    return line


def warm_decoding(photos: list[bytes], rounds: int) -> float | None:
    """The median over ``photos`` of OpenCV's bare decoding (the fastest of ``rounds`` after one) with glibc
    told to keep blocks of up to 256 MB in its heap, so that a 12 MP photo's 36 MB array lands in pages
    mapped already; None where that cannot be asked (not glibc). By default glibc maps an array that large
    afresh each time, and its pages are faulted in as the decoder writes them: a third or more of the
    decoding's time. The benchmark's long run happens to reuse such memory at times (its decodings of the
    same bytes take 18 to 30 ms there and 34 to 46 ms in a fresh process). Called last: it changes the
    process's allocator for good."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        if not (libc.mallopt(-3, 256 << 20) and libc.mallopt(-1, 512 << 20)):  # M_MMAP_THRESHOLD, M_TRIM_THRESHOLD
            return None
    except (OSError, AttributeError):
        return None
    return float(np.median([min(_seconds(bare_decode, data) for _ in range(rounds + 1)) for data in photos]))


def _seconds(fn, *args) -> float:
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0


if __name__ == "__main__":
    raise SystemExit(main())
