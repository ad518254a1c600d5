"""Render a training set: labelled synthetic photos at the sizes the networks see them.

    .venv/bin/python -m calibration.training.dataset DATA [--count 8000] [--seed-start 10000000] [--jobs 2]
                                                      [--style ivory-color --style ivory-black ...]
                                                      [--kind crowd --kind layout ...] [--tilt LOW HIGH]
    .venv/bin/python -m calibration.training.dataset DATA --from DIR [--from DIR ...] [--jobs 2]

Per photo ``NNNNNNNN.jpg`` (the photo, reduced to at most ``READ_SIDE`` pixels on its longer side: the
reader's source), ``NNNNNNNN_d.jpg`` (reduced to ``DETECT_SIDE``: the detector's input) and
``NNNNNNNN.json`` (the label with corners and pip centres in the ``.jpg``'s pixels, and ``detect_scale``
from those pixels to the ``_d.jpg``'s). Existing photos are kept, so an interrupted run picks up where it
stopped.

The mix: the benchmark's own kinds of photos (random giant wooden sets) for most, and a share of other
sets (ivory with black pips, ivory double-12 with coloured pips, painted white) on plain tables, so that
the networks learn what a domino is rather than what one wooden set looks like. ``--tilt 40 50`` takes each
photo's camera tilt from straight down within those degrees (the mix's own puts about one in six at 40 or more,
where the scans miss most).

``--from DIR`` (repeatable) takes the labelled photos of ``benchmarks/make_photos.py`` (or of ``scan_benchmark.py
--fresh-dir``) in DIR into the training set as they are, rendering none: a round can then learn from the benchmark's
own folders (the photos a stop's rules were worked out on) without hours of rendering. Each is stored under its seed
(its name, ``synth-SEED``; the renderer's seeds start at 10,000,000, above the benchmark's), so that one in fifty is
held out as the rendered ones are.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

from companion.photo import load_photo
from companion.synth import render_photo

READ_SIDE = 2048
DETECT_SIDE = 768
KINDS = ("hand", "touching", "crowd", "hand", "layout", "hand", "full-set", "touching")
SEEDED = re.compile(r"synth-(\d+)\.json")  # a label of make_photos.py, named by its photo's seed
OTHER_STYLES = (("ivory-black", 0.08), ("ivory-color", 0.10), ("painted-white", 0.04))


def _choice(seed: int, styles: tuple[str, ...] = (), kinds: tuple[str, ...] = ()) -> dict:
    rng = np.random.default_rng(seed ^ 0x5EED)
    kind = (kinds or KINDS)[seed % len(kinds or KINDS)]
    if styles:  # only these sets, in turn
        style = styles[(seed // len(KINDS)) % len(styles)]
        if style == "ivory-color" and kind in ("layout", "full-set"):
            kind = "crowd" if kind == "full-set" else "hand"
        return {"kind": kind, "style": style, **({"ground": "table"} if rng.random() < 0.6 else {})}
    u = rng.random()
    for style, share in OTHER_STYLES:
        if u < share:
            args = {"kind": kind if style == "ivory-black" or kind != "layout" else "hand", "style": style}
            if style == "ivory-color" and args["kind"] == "full-set":
                args["kind"] = "crowd"
            if rng.random() < 0.6:
                args["ground"] = "table"
            return args
        u -= share
    return {"kind": kind}


def _scaled(label: dict, s: float) -> dict:
    out = dict(label)
    out["tiles"] = [{**t, "corners": (np.asarray(t["corners"]) * s).round(2).tolist(),
                     "pips_xy": [(np.asarray(h).reshape(-1, 2) * s).round(2).tolist() for h in t["pips_xy"]]}
                    for t in label["tiles"]]
    return out


def make_one(out: Path, seed: int, styles: tuple[str, ...] = (), kinds: tuple[str, ...] = (),
             tilt: tuple[float, float] | None = None) -> str | None:
    stem = out / f"{seed:08d}"
    if (stem.with_suffix(".json")).exists():
        return None
    args = _choice(seed, styles, kinds)
    if tilt is not None:
        args["tilt_deg"] = float(np.random.default_rng(seed ^ 0x7117).uniform(*tilt))
    data, label = render_photo(seed, **args)
    _store(stem, cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR), data, label)
    return stem.name


def take_one(out: Path, label_path: Path) -> str | None:
    """The photo labelled by ``label_path`` (``synth-SEED.json``, as ``make_photos.py`` writes it) stored in ``out``
    under its seed, as ``make_one`` stores a photo it renders; None where one of that seed is stored already."""
    seeded = SEEDED.fullmatch(label_path.name)
    if seeded is None:
        raise ValueError(f"{label_path} is not a label of make_photos.py (synth-SEED.json)")
    stem = out / f"{int(seeded[1]):08d}"
    if stem.with_suffix(".json").exists():
        return None
    label = json.loads(label_path.read_text())
    photo = label_path.with_name(label.get("file", label_path.with_suffix(".jpg").name))
    img = load_photo(photo)  # upright: the label is as a person sees the photo
    if (img.shape[1], img.shape[0]) != (label.get("width"), label.get("height")):
        raise ValueError(f"{photo} is {img.shape[1]}x{img.shape[0]} pixels, its label says "
                         f"{label.get('width')}x{label.get('height')}")
    # (a photo stored turned, with an EXIF tag, is written upright: its bytes are not the pixels the label is of)
    turned = {label.pop("exif_orientation", 1), label.pop("orientation", 1)} != {1}
    _store(stem, img, None if turned else photo.read_bytes(), label)
    return stem.name


def _store(stem: Path, img: np.ndarray, data: bytes | None, label: dict) -> None:
    """``img`` (BGR, upright; ``data``, its JPEG file, kept as it is where it needs no reduction) reduced for the
    reader and the detector, and ``label`` scaled to it, as ``stem``'s files."""
    h, w = img.shape[:2]
    s = min(1.0, READ_SIDE / max(h, w))
    if s < 1.0 or data is None:
        if s < 1.0:
            img = cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(stem) + ".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 94])
    else:
        (Path(str(stem) + ".jpg")).write_bytes(data)  # as rendered: no second compression
    ds = DETECT_SIDE / max(img.shape[:2])
    small = cv2.resize(img, (round(img.shape[1] * ds), round(img.shape[0] * ds)), interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(stem) + "_d.jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 94])
    label = _scaled(label, s)
    label["detect_scale"] = ds
    label["read_scale"] = s
    stem.with_suffix(".json").write_text(json.dumps(label))


def _work(job: tuple[str, int, tuple[str, ...], tuple[str, ...], tuple[float, float] | None]) -> str | None:
    out, seed, styles, kinds, tilt = job
    return make_one(Path(out), seed, styles, kinds, tilt)


def _take(job: tuple[str, str]) -> str | None:
    return take_one(Path(job[0]), Path(job[1]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Render a training set of labelled synthetic photos.")
    ap.add_argument("out", type=Path)
    ap.add_argument("--count", type=int, default=8000)
    ap.add_argument("--seed-start", type=int, default=10_000_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--style", action="append", default=[],
                    help="only sets of this style, in turn (repeatable; default: the mix described above)")
    ap.add_argument("--kind", action="append", default=[], choices=sorted(set(KINDS)),
                    help="only photos of this kind, in turn (repeatable; default: the benchmark's mix)")
    ap.add_argument("--tilt", type=float, nargs=2, metavar=("LOW", "HIGH"), default=None,
                    help="the camera's tilt from straight down, in degrees, drawn within these (0 to 60)")
    ap.add_argument("--from", dest="folders", type=Path, action="append", default=[], metavar="DIR",
                    help="take make_photos.py's labelled photos in DIR as they are, rendering none (repeatable)")
    args = ap.parse_args(argv)
    if args.tilt is not None and not 0 <= args.tilt[0] <= args.tilt[1] <= 60:
        ap.error(f"--tilt {args.tilt[0]:g} {args.tilt[1]:g}: give LOW and HIGH with 0 <= LOW <= HIGH <= 60 degrees")
    if args.folders and (args.style or args.kind or args.tilt):
        ap.error("--from takes photos as they are: --style, --kind and --tilt do not go with it")
    labels = []
    for folder in args.folders:
        if not folder.is_dir():
            ap.error(f"--from {folder}: no such folder")
        found = sorted(folder.glob("synth-*.json"))
        if not found:
            ap.error(f"--from {folder}: no labelled photos of make_photos.py (synth-SEED.json) there")
        unseeded = [p.name for p in found if not SEEDED.fullmatch(p.name)]
        if unseeded:  # (refused before any photo is taken, not halfway through)
            ap.error(f"--from {folder}: {unseeded[0]} is not named by a seed (synth-SEED.json)")
        labels += found
    args.out.mkdir(parents=True, exist_ok=True)
    tilt = tuple(args.tilt) if args.tilt else None
    if labels:
        work, jobs = _take, [(str(args.out), str(p)) for p in labels]
    else:
        work, jobs = _work, [(str(args.out), args.seed_start + i, tuple(args.style), tuple(args.kind), tilt)
                             for i in range(args.count)]
    t0 = time.perf_counter()
    done = 0
    with Pool(args.jobs) as pool:
        for k, name in enumerate(pool.imap_unordered(work, jobs, chunksize=4)):
            done += name is not None
            if (k + 1) % 200 == 0:
                print(f"{k + 1}/{len(jobs)} photos ({done} new) in {time.perf_counter() - t0:.0f} s", flush=True)
    print(f"{len(jobs)} photos in {args.out} ({done} new) in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
