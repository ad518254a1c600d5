"""Measure the scanner on labelled photos: the committed samples, fresh synthetic photos and real photos.

    nice .venv/bin/python benchmarks/scan_benchmark.py [--fresh 300] [--seed-start 50000] [--no-samples]
                                                       [--no-real] [--kind KIND ...] [--by-tag] [--worst 10]
                                                       [--out DIR] [--fresh-dir DIR] [--folder DIR ...]
                                                       [--save FILE] [--against FILE] [--jobs N]

For each dataset it prints tile recall, tile precision, value accuracy (both halves right, in either
order), hand-exact rate (every tile of the photo found and read right, nothing extra), ends-right (the
detected ``corners[0]-[1]`` sits at the labelled ``pips[0]`` end, for non-double tiles read right; only
for synthetic labels, whose corners follow that convention), milliseconds per
photo for ``scan_photo`` on the file and, beside it, the milliseconds merely to decode the same file
(``load_photo``); for the 12 MP photos (the speed target's), their median ratio, as read in the run and
timed again after it, three times each in turn with the decoding, and against OpenCV's bare decoding of
the same file (``bare_decode``: the least a full decoding takes here), and the ratio timed again for photos
of up to 8 whole tiles, 9 to 15 and more (a scan's time grows with its tiles, a decoding's does not). A
tenth of the fresh photos (``--exif``) are stored turned with an EXIF orientation tag, as phones do. Then
the worst photos, with what went wrong; ``--out DIR`` writes them annotated (labels in green, misses in
red, detections in blue with their reading). Last, the machine and the libraries' versions: the figures
are theirs (on stop 45's machine and libraries, 4 of the 300 fresh photos were read otherwise than on stop
44's).

Matching: a detection matches a labelled tile when its centre lies inside the labelled face (or, for a
real label with only a centre, within half a tile width of it); each labelled tile takes one detection.
A labelled tile cut by the border (``partial``) is left out of recall; a detection of it is neither right
nor a false positive. Real photos without positions (``pipcounter/``) are compared as multisets of values:
min(found, labelled) tiles count as found, the multiset intersection as read right.

Real photos come from ``../shared/real-photos/`` beside the repository (``--real DIR`` to point elsewhere);
``jmherzog/`` is read with ``--profile ivory`` and ``pipcounter/`` with ``twelve-color``.

``--folder DIR`` (repeatable) reads the labelled photos stored in a folder as they are (a ``--fresh-dir``, or
``make_photos.py``'s), folder by folder, then all together, kind by kind and by the camera's tilt from straight
down (0-19, 20-39, 40 degrees or more) and by the set's style (``--by-tag`` gives the fresh photos so too): a
held-out set measured without rendering it again, and enough photos of a kind (hundreds) to tell a point or two
apart, which the 38 or so of a kind among the fresh 300 cannot. ``--jobs N`` reads the folders' photos in N processes
at once (their figures are the same; their times, as read, share the cores, but the 12 MP photos are timed again
one at a time after the run). For the fresh photos and the stored ones alike,
three lines tell whether a scan says so where it may be wrong: the misread tiles read with doubt, the photos read
wrong that mark a tile or warn, and the tiles cut by the border named in a warning.

``--detector FILE`` and ``--reader FILE`` read every photo with other networks (say, ones just trained by
``calibration.training.train --out DIR``) in place of the shipped ones.

``--save FILE`` writes every photo's scan (tiles, corners, confidences, warnings) and whether it was read
exactly; ``--against FILE`` reads the same photos again and names what a change of code did to them against such a
saved run: the photos put right, those put wrong, those read otherwise, and how many scans differ at all (a change
meant only to be faster should leave every scan as it was). Photos are keyed by dataset and file name.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import re
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.photo import load_photo  # noqa: E402  (sets the OpenCV pixel limit before cv2)

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from calibration import load_profile  # noqa: E402
from companion.scanner import scan_photo  # noqa: E402
from companion.vision import read_tiles  # noqa: E402

ROTATION = ("hand", "touching", "crowd", "hand", "layout", "hand", "full-set", "touching")
REAL_PROFILES = {"jmherzog": "ivory", "pipcounter": "twelve-color"}


@dataclass
class PhotoResult:
    name: str
    labelled: int = 0  # whole labelled tiles
    detected: int = 0  # detections that count (not of partial tiles)
    found: int = 0
    right: int = 0
    ends_checked: int = 0
    ends_right: int = 0
    scan_ms: float = 0.0
    decode_ms: float = 0.0
    problems: list[str] = field(default_factory=list)
    error: str | None = None
    matches: list[tuple[int, int]] = field(default_factory=list)  # (label index, detection index)
    width: int = 0
    height: int = 0

    @property
    def exact(self) -> bool:
        return self.error is None and self.found == self.labelled == self.right == self.detected

    @property
    def badness(self) -> int:
        return (self.labelled - self.found) + (self.detected - self.found) + (self.found - self.right) \
            + (100 if self.error else 0)


def _tally(counts: Counter) -> str:
    return ", ".join(f"{a}-{b}" + (f" x{n}" if n > 1 else "") for (a, b), n in sorted(counts.items()))


def _same(a, b) -> bool:
    return sorted(int(v) for v in a) == sorted(int(v) for v in b)


def _centre(corners) -> np.ndarray:
    return np.asarray(corners, float).mean(axis=0)


BIG_PIXELS = 10_000_000  # a 12 MP phone photo, the speed target's size


def _timed(fn, *args, **kwargs):
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, 1000 * (time.perf_counter() - t0)


def compare(label: dict, scan: dict, name: str) -> PhotoResult:
    """Score one scan against its label (see the module docstring for the rules)."""
    res = PhotoResult(name)
    if "error" in scan:
        res.error = scan["error"]
        res.labelled = sum(not t.get("partial", False) for t in label["tiles"])
        res.problems.append(f"error: {scan['error']}")
        return res
    tiles = label["tiles"]
    dets = scan["tiles"]
    synthetic = "seed" in label and all(t.get("corners") for t in tiles)
    res.labelled = sum(not t.get("partial", False) for t in tiles)
    has_pos = any(t.get("corners") or t.get("center") for t in tiles)
    if not has_pos:
        want = Counter(tuple(sorted(t["pips"])) for t in tiles if not t.get("partial", False))
        got = Counter(tuple(sorted(d["pips"])) for d in dets)
        res.detected = len(dets)
        res.found = min(res.detected, res.labelled)
        res.right = min(res.found, sum((want & got).values()))
        missing, extra = want - got, got - want
        if missing:
            res.problems.append("not read: " + _tally(missing))
        if extra:
            res.problems.append("read instead: " + _tally(extra))
        return res
    taken: dict[int, int] = {}
    partial_hits = 0
    for di, d in enumerate(dets):
        c = _centre(d["corners"])
        width = np.linalg.norm(np.subtract(d["corners"][0], d["corners"][1]))
        hit = None
        for li, t in enumerate(tiles):
            if t.get("corners"):
                inside = cv2.pointPolygonTest(np.asarray(t["corners"], np.float32), (float(c[0]), float(c[1])), False) >= 0
            else:
                inside = np.linalg.norm(c - np.asarray(t["center"], float)) < 0.5 * width
            if inside:
                hit = li
                break
        if hit is not None and tiles[hit].get("partial", False):
            partial_hits += 1
            continue
        if hit is None or hit in taken:
            where = f"at ({c[0]:.0f}, {c[1]:.0f})"
            res.problems.append(f"extra {d['pips'][0]}-{d['pips'][1]} {where}" + (" (twice)" if hit in taken else ""))
            continue
        taken[hit] = di
    res.detected = len(dets) - partial_hits
    res.found = len(taken)
    for li, t in enumerate(tiles):
        if t.get("partial", False):
            continue
        if li not in taken:
            where = _centre(t["corners"]) if t.get("corners") else np.asarray(t["center"], float)
            res.problems.append(f"missed {t['pips'][0]}-{t['pips'][1]} at ({where[0]:.0f}, {where[1]:.0f})")
            continue
        d = dets[taken[li]]
        res.matches.append((li, taken[li]))
        if not _same(d["pips"], t["pips"]):
            res.problems.append(f"read {t['pips'][0]}-{t['pips'][1]} as {d['pips'][0]}-{d['pips'][1]}")
            continue
        res.right += 1
        if synthetic and t["pips"][0] != t["pips"][1]:  # real labels' corners follow no order
            q = np.asarray(t["corners"], float)
            end0, end1 = (q[0] + q[1]) / 2, (q[2] + q[3]) / 2
            dq = np.asarray(d["corners"], float)
            dend = (dq[0] + dq[1]) / 2 if d["pips"][0] == t["pips"][0] else (dq[2] + dq[3]) / 2
            res.ends_checked += 1
            res.ends_right += int(np.linalg.norm(dend - end0) < np.linalg.norm(dend - end1))
    return res


def run_one(data: bytes | Path, label: dict, name: str, profile) -> PhotoResult:
    scan, scan_ms = _timed(scan_photo, data, profile=profile, name=name)
    try:
        _, decode_ms = _timed(load_photo, data)
    except ValueError:
        decode_ms = float("nan")
    res = compare(label, scan, name)
    res.profile = profile  # type: ignore[attr-defined]
    res.scan_ms, res.decode_ms = scan_ms, decode_ms
    res.width, res.height = scan.get("width", 0), scan.get("height", 0)
    res.scan = scan  # type: ignore[attr-defined]
    return res


def doubt_line(results: list[PhotoResult], doubt_below: float, dataset: str = "fresh") -> str:
    """Whether the confidence warns where it should: the tiles read wrong (and the extras) that were read
    with doubt, against those read right that were doubted for nothing."""
    wrong = right = wrong_doubted = right_doubted = extra = extra_doubted = 0
    for r in results:
        dets = r.scan.get("tiles", [])  # type: ignore[attr-defined]
        matched = {di for _, di in r.matches}
        for li, di in r.matches:
            ok = _same(dets[di]["pips"], r.label["tiles"][li]["pips"])  # type: ignore[attr-defined]
            doubted = dets[di]["confidence"] < doubt_below
            wrong, wrong_doubted = wrong + (not ok), wrong_doubted + (not ok and doubted)
            right, right_doubted = right + ok, right_doubted + (ok and doubted)
        extras = [d for di, d in enumerate(dets) if di not in matched]  # extras and parts of cut-off tiles
        extra, extra_doubted = extra + len(extras), extra_doubted + sum(d["confidence"] < doubt_below for d in extras)
    return (f"doubt (confidence below {doubt_below}), {dataset}: {wrong_doubted} of {wrong} misread tiles, "
            f"{extra_doubted} of {extra} readings of no labelled whole tile, {right_doubted} of {right} right readings")


def says_so_line(results: list[PhotoResult], doubt_below: float, dataset: str = "fresh") -> str:
    """Whether a photo read wrong says so: a tile marked for checking (confidence below ``doubt_below``) or a
    warning other than a cut tile's. A tile missed has no confidence of its own, so this is the figure that
    tells whether a user is warned of it; against it, the exact photos that say so for nothing."""
    def says_so(r: PhotoResult) -> bool:
        scan = r.scan  # type: ignore[attr-defined]
        return any(t["confidence"] < doubt_below for t in scan.get("tiles", [])) or any(
            not CUT_WARNING.search(w) for w in scan.get("warnings", []))
    wrong = [r for r in results if not r.exact and r.error is None]
    exact = [r for r in results if r.exact]
    return (f"photos that say so (a tile marked for checking, or a warning but a cut tile's), {dataset}: "
            f"{sum(map(says_so, wrong))} of {len(wrong)} not exact, {sum(map(says_so, exact))} of {len(exact)} exact")


CUT_WARNING = re.compile(r"cut off by .*?near x=(\d+), y=(\d+)")


def cut_line(results: list[PhotoResult], dataset: str = "fresh") -> str:
    """Whether the tiles cut by the border are named in a warning: a labelled partial tile is named when a
    cut-off warning's place lies within one tile length of the middle of its part inside the photo; and the
    warnings near no cut tile."""
    cut = named = warned = astray = 0
    for r in results:
        w, h = r.scan.get("width", 0), r.scan.get("height", 0)  # type: ignore[attr-defined]
        places = [np.array([float(x), float(y)]) for text in r.scan.get("warnings", [])  # type: ignore[attr-defined]
                  for x, y in CUT_WARNING.findall(text)]
        parts = []
        for t in r.label["tiles"]:  # type: ignore[attr-defined]
            if not (t.get("partial", False) and t.get("corners")):
                continue
            q = np.asarray(t["corners"], float)  # sampled on a grid across the face, kept where in the photo
            u, v = (g.ravel()[:, None] for g in np.meshgrid(np.linspace(0, 1, 21), np.linspace(0, 1, 11)))
            p = q[0] * (1 - u) * (1 - v) + q[1] * (1 - u) * v + q[3] * u * (1 - v) + q[2] * u * v
            inside = p[(p[:, 0] >= 0) & (p[:, 0] < w) & (p[:, 1] >= 0) & (p[:, 1] < h)]
            if len(inside):
                parts.append((inside.mean(axis=0), float(np.linalg.norm(q[3] - q[0]))))
        cut += len(parts)
        named += sum(any(np.linalg.norm(place - middle) < length for place in places) for middle, length in parts)
        warned += len(places)
        astray += sum(not any(np.linalg.norm(place - middle) < length for middle, length in parts) for place in places)
    return (f"tiles cut by the border, {dataset}: {named} of {cut} named in a warning ({_pct(named, cut).strip()}); "
            f"{astray} of {warned} cut-off warnings near no cut tile")


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:6.2f}%" if b else "     - "


def summarize(title: str, results: list[PhotoResult]) -> str:
    lab = sum(r.labelled for r in results)
    det = sum(r.detected for r in results)
    found = sum(r.found for r in results)
    right = sum(r.right for r in results)
    ends_c = sum(r.ends_checked for r in results)
    ends_r = sum(r.ends_right for r in results)
    exact = sum(r.exact for r in results)
    ms = np.mean([r.scan_ms for r in results]) if results else float("nan")
    dec = np.nanmean([r.decode_ms for r in results]) if results else float("nan")
    return (f"{title:<28} {len(results):>6} {lab:>6} {_pct(found, lab):>8} {_pct(found, det):>9} "
            f"{_pct(right, found):>8} {_pct(exact, len(results)):>8} {_pct(ends_r, ends_c):>8} {ms:>8.0f} {dec:>8.0f}")


TILTS = (0, 20, 40)  # where the spans of the camera's tilt from straight down begin, in degrees


def by_tilt(results: list[PhotoResult]) -> list[str]:
    """Rows of ``results`` by the camera's tilt from straight down (a synthetic label's ``tilt_deg``; photos
    without one are left out): a tile seen steeply is foreshortened, and its sides show."""
    rows = []
    for low, high in zip(TILTS, TILTS[1:] + (np.inf,)):
        within = [r for r in results if low <= r.label.get("tilt_deg", -1) < high]  # type: ignore[attr-defined]
        if within:
            span = f"{low} or more" if high == np.inf else f"{low}-{high - 1}"
            rows.append(summarize(f"  tilted {span} degrees", within))
    return rows


def by_style(results: list[PhotoResult]) -> list[str]:
    """Rows of ``results`` by the set's style (a synthetic label's ``style``: pine with black pips, dark wood with
    light pips, ...), where they hold more than one: how a set looks decides how far its pips stand out."""
    def style(r: PhotoResult) -> str:  # ("giant-wood/dark-light": a style the generator drew; "dark-light" asked)
        return str(r.label.get("style") or "").split("/")[-1]  # type: ignore[attr-defined]

    styles = sorted({style(r) for r in results} - {""})
    if len(styles) < 2:
        return []
    return [summarize(f"  set {name}", [r for r in results if style(r) == name]) for name in styles]


HEADER = (f"{'dataset':<28} {'photos':>6} {'tiles':>6} {'recall':>8} {'precision':>9} {'values':>8} "
          f"{'hand-ex':>8} {'ends':>8} {'ms/photo':>8} {'decode':>8}")


def _draw(image: np.ndarray, label: dict, res: PhotoResult) -> np.ndarray:
    out = image.copy()
    scan = getattr(res, "scan", {})
    matched = {li for li, _ in res.matches}
    thick = max(2, out.shape[1] // 600)
    for li, t in enumerate(label["tiles"]):
        if t.get("corners"):
            q = np.round(np.asarray(t["corners"])).astype(np.int32)
            col = (0, 200, 0) if li in matched or t.get("partial") else (0, 0, 255)
            cv2.polylines(out, [q], True, col, thick)
    for d in scan.get("tiles", []):
        q = np.round(np.asarray(d["corners"])).astype(np.int32)
        cv2.polylines(out, [q], True, (255, 80, 0), max(1, thick // 2))
        c = q.mean(0).astype(int)
        cv2.putText(out, f"{d['pips'][0]}-{d['pips'][1]}", (int(c[0]), int(c[1])), cv2.FONT_HERSHEY_SIMPLEX,
                    thick * 0.5, (255, 0, 255), thick)
    return out


def bench_folder(folder: Path, profile, jobs: int = 1, threads: int = 1) -> list[PhotoResult]:
    """Each labelled photo stored in ``folder`` scanned and scored, in ``jobs`` processes at once (each with
    ``threads`` OpenCV threads); the results in the folder's order either way."""
    labels = sorted(folder.glob("*.json"))
    if jobs <= 1 or len(labels) < 2:
        return [_stored_result(lab_path, profile) for lab_path in labels]
    # (spawned, not forked: the networks' sessions are loaded already; the workers import this file by name)
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                             initializer=cv2.setNumThreads, initargs=(threads,)) as pool:
        return list(pool.map(_stored_result, labels, [profile] * len(labels), chunksize=4))


def _stored_result(lab_path: Path, profile) -> PhotoResult:
    label = json.loads(lab_path.read_text())
    img_path = lab_path.parent / label["file"]
    res = run_one(img_path, label, label["file"], profile)
    res.path = img_path  # type: ignore[attr-defined]
    res.label = label  # type: ignore[attr-defined]
    return res


def folder_problem(folder: Path) -> str | None:
    """Why ``folder`` cannot be read by ``bench_folder``, or None: every ``.json`` in it must be a synthetic photo's
    label (``make_photos.py``'s, or a ``--fresh-dir``'s) naming a photo beside it."""
    labels = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not labels:
        return f"no labelled photos in {folder}"
    for path in labels:
        try:
            label = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            return f"{path} is not a readable label: {exc}"
        if not isinstance(label, dict) or "tiles" not in label or not (folder / str(label.get("file", ""))).is_file():
            return f"{path} is not a label of a photo beside it (one with \"file\" and \"tiles\")"
    return None


def fresh_photos(count: int, seed_start: int, exif: float = 0.1, kinds: tuple[str, ...] = ROTATION,
                 folder: Path | None = None):
    """The fresh synthetic photos every benchmark measures: ``(seed, kind, JPEG bytes, label)``, seeded, the
    kinds in turn, a fraction ``exif`` stored turned with an EXIF orientation tag as phones do. With ``folder``,
    a photo stored there (``synth-SEED.jpg`` and ``.json``, of the same kind and EXIF turn) is read rather than
    rendered, and one rendered is stored there: two versions of the code then read the very same photos, and
    a second run skips the rendering. (Empty the folder when the generator changes.)"""
    from companion.synth import render_photo
    from companion.synth.exif import with_orientation

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from make_photos import orientation_for
    for i in range(count):
        seed = seed_start + i
        kind = kinds[i % len(kinds)]
        orientation = orientation_for(seed, exif)
        stored = folder / f"synth-{seed}.jpg" if folder is not None else None
        if stored is not None and stored.is_file() and stored.with_suffix(".json").is_file():
            label = json.loads(stored.with_suffix(".json").read_text())
            if label.get("kind") == kind and label.pop("orientation", 1) == orientation:
                yield seed, kind, stored.read_bytes(), label
                continue
        data, label = render_photo(seed, kind=kind, name=f"synth-{seed}.jpg")
        if orientation != 1:  # the scanner must turn it back
            data = with_orientation(data, orientation)
        if stored is not None:
            folder.mkdir(parents=True, exist_ok=True)
            stored.write_bytes(data)
            stored.with_suffix(".json").write_text(json.dumps({**label, "orientation": orientation}))
        yield seed, kind, data, label


def bench_fresh(count: int, seed_start: int, profile, exif: float = 0.1, kinds: tuple[str, ...] = ROTATION,
                folder: Path | None = None) -> dict[str, list[PhotoResult]]:
    by_kind: dict[str, list[PhotoResult]] = {}
    for _, kind, data, label in fresh_photos(count, seed_start, exif, kinds, folder):
        r = run_one(data, label, label["file"], profile)
        r.path = data  # type: ignore[attr-defined]
        r.label = label  # type: ignore[attr-defined]
        by_kind.setdefault(kind, []).append(r)
    return by_kind


def networks_asked(ap: argparse.ArgumentParser, detector: Path | None, reader: Path | None) -> dict[str, str]:
    """The network files ``--detector`` and ``--reader`` name, for ``with_networks``; ``ap`` errors on a missing one."""
    networks = {kind: str(path.resolve()) for kind, path in (("detector", detector), ("reader", reader))
                if path is not None}
    for path in networks.values():
        if not Path(path).is_file():
            ap.error(f"no network file {path}")
    return networks


def with_networks(profile, networks: dict[str, str]):
    """``profile`` reading with other network files (``{"detector": PATH, "reader": PATH}``, either or none)."""
    return replace(profile, **networks) if profile is not None and networks else profile


def bench_real(real_dir: Path, networks: dict[str, str] | None = None) -> dict[str, list[PhotoResult]]:
    labels = json.loads((real_dir / "labels.json").read_text())["images"]
    out: dict[str, list[PhotoResult]] = {}
    profiles: dict = {}
    for entry in labels:
        folder = entry["file"].split("/")[0]
        if folder not in profiles:
            try:
                profiles[folder] = with_networks(load_profile(REAL_PROFILES.get(folder)), networks or {})
            except ValueError as exc:  # report it and measure the rest
                print(f"real {folder}: cannot load profile {REAL_PROFILES.get(folder)!r}: {exc}", flush=True)
                profiles[folder] = None
        profile = profiles[folder]
        if profile is None:
            continue
        r = run_one(real_dir / entry["file"], entry, entry["file"], profile)
        r.path = real_dir / entry["file"]  # type: ignore[attr-defined]
        r.label = entry  # type: ignore[attr-defined]
        out.setdefault(folder, []).append(r)
    return out


def bare_decode(photo: bytes | Path) -> np.ndarray:
    """The photo decoded by OpenCV alone (which turns it by its EXIF tag too): the least a full decoding
    takes here. ``load_photo`` reads the header with Pillow first and then, for a colour JPEG that ends
    whole, decodes the same way (since stop 42; before, Pillow decoded it and the result was copied to a BGR
    array, which took about twice as long)."""
    data = photo if isinstance(photo, (bytes, bytearray)) else Path(photo).read_bytes()
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


def timed_again(photo: bytes | Path, profile, times: int = 3) -> tuple[float, float, float]:
    """A photo's scan, decode and bare decode (``bare_decode``), each timed ``times`` times in turn: their
    medians (ms). One timing of a photo just made (the renderer's work still in the caches) or on a busy
    machine swings by a fifth."""
    scans, decodes, bare = [], [], []
    for _ in range(times):
        decodes.append(_timed(load_photo, photo)[1])
        bare.append(_timed(bare_decode, photo)[1])
        scans.append(_timed(scan_photo, photo, profile=profile)[1])
    return float(np.median(scans)), float(np.median(decodes)), float(np.median(bare))


def speed_line(timings: list[tuple[float, float]]) -> str:
    ratios = [scan / decode for scan, decode in timings]
    return (f"scan {np.median([t[0] for t in timings]):.0f} ms, decode {np.median([t[1] for t in timings]):.0f} ms "
            f"(medians); scan / decode {np.median(ratios):.2f} (median), {max(ratios):.2f} (worst)")


def by_tiles(ratios: list[tuple[dict, float]]) -> str:
    """The median of each photo's ratio (with its label) among photos of up to 8 whole tiles, 9 to 15 and more."""
    groups: dict[str, list[float]] = {"up to 8": [], "9 to 15": [], "16 or more": []}
    for label, ratio in ratios:
        whole = sum(not t.get("partial") for t in label["tiles"])
        groups["up to 8" if whole <= 8 else "9 to 15" if whole <= 15 else "16 or more"].append(ratio)
    return ", ".join(f"{name}: {np.median(rs):.2f} ({len(rs)} photos)" for name, rs in groups.items() if rs)


def saved_scans(keyed: list[tuple[str, PhotoResult]]) -> dict:
    """Each photo's scan as read and whether it was read exactly, by its key: what ``--save`` writes (as JSON
    gives it back, so that a run compares equal to its own file)."""
    return json.loads(json.dumps({key: {"scan": getattr(r, "scan", None), "exact": r.exact, "problems": r.problems}
                                  for key, r in keyed}))


def against_lines(before: dict, now: dict, most: int = 20) -> list[str]:
    """What changed from the saved run ``before`` to ``now`` (both as ``saved_scans`` gives them): the photos
    put right, those put wrong (with what is wrong now), and at most ``most`` of those read otherwise as exactly
    as before."""
    both = [key for key in now if key in before]

    def tiles(entry: dict) -> list:
        return sorted(tuple(sorted(t["pips"])) for t in (entry["scan"] or {}).get("tiles", []))

    changed = [key for key in both if before[key]["scan"] != now[key]["scan"]]
    read = [key for key in changed if tiles(before[key]) != tiles(now[key])]
    warned = [key for key in changed if (before[key]["scan"] or {}).get("warnings") != (now[key]["scan"] or {}).get(
        "warnings")]
    right = [key for key in both if now[key]["exact"] and not before[key]["exact"]]
    wrong = [key for key in both if before[key]["exact"] and not now[key]["exact"]]
    otherwise = [key for key in read if key not in right and key not in wrong]
    lines = [f"against the saved run: {len(both)} photos in both ({len(now) - len(both)} not in it), {len(changed)} "
             f"scans differ ({len(read)} in the tiles read, {len(warned)} in the warnings); exact "
             f"{sum(before[key]['exact'] for key in both)} before, {sum(now[key]['exact'] for key in both)} now"]
    lines += [f"  put right: {key}" for key in right]
    lines += [f"  put wrong: {key}: " + "; ".join(now[key]["problems"][:3]) for key in wrong]
    lines += [f"  read otherwise (exact or not as before): {key}" for key in otherwise[:most]]
    if len(otherwise) > most:
        lines.append(f"  ... and {len(otherwise) - most} more read otherwise")
    return lines


class _Rows(list):
    """Table rows, each printed the moment it is known (a long run never loses what it measured)."""

    def append(self, row: str) -> None:
        super().append(row)
        print(row, flush=True)


def environment() -> str:
    """The machine and libraries the figures were measured with: the networks' small numeric differences
    between CPUs (AVX2 or AVX-512 kernels) and between library versions flip the borderline photos."""
    import platform

    import onnxruntime

    cpu, flags = platform.processor() or platform.machine(), set()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name":
                cpu = value.strip()
            elif key.strip() == "flags":
                flags = set(value.split())
    except OSError:
        pass
    isa = [name for name, flag in (("AVX-512", "avx512f"), ("VNNI", "avx512_vnni"), ("AVX2", "avx2")) if flag in flags]
    return (f"machine: {cpu}{' (' + ', '.join(isa) + ')' if isa else ''}; Python {platform.python_version()}, "
            f"NumPy {np.__version__}, OpenCV {cv2.__version__}, ONNX Runtime {onnxruntime.__version__}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fresh", type=int, default=300, help="fresh synthetic photos (0: none)")
    ap.add_argument("--seed-start", type=int, default=50000)
    ap.add_argument("--exif", type=float, default=0.1, help="fraction of fresh photos stored turned with EXIF")
    ap.add_argument("--fresh-dir", type=Path, default=None,
                    help="read the fresh photos from this folder where stored there, and store those rendered")
    ap.add_argument("--kind", action="append", choices=sorted(set(ROTATION)),
                    help="fresh photos of this kind only (repeatable; default: a rotation of all kinds)")
    ap.add_argument("--folder", type=Path, action="append", default=[],
                    help="labelled photos stored in this folder, read as they are (repeatable)")
    ap.add_argument("--samples", type=Path, default=ROOT / "sample_images")
    ap.add_argument("--no-samples", action="store_true")
    ap.add_argument("--real", type=Path, default=ROOT / ".." / "shared" / "real-photos")
    ap.add_argument("--no-real", action="store_true")
    ap.add_argument("--profile", default=None, help="profile for the synthetic photos (default giant-wood)")
    ap.add_argument("--by-tag", action="store_true", help="also break the fresh photos down by label tag")
    ap.add_argument("--worst", type=int, default=10)
    ap.add_argument("--out", type=Path, default=None, help="write the worst photos annotated into this folder")
    ap.add_argument("--threads", type=int, default=1, help="OpenCV threads (default 1: the speed target is on one core)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="read the folders' photos in this many processes at once (their times then share the cores)")
    ap.add_argument("--detector", type=Path, default=None, help="read with this detector .onnx (a trained one)")
    ap.add_argument("--reader", type=Path, default=None, help="read with this reader .onnx (a trained one)")
    ap.add_argument("--save", type=Path, default=None, help="write every photo's scan into this JSON file")
    ap.add_argument("--against", type=Path, default=None,
                    help="name the photos read otherwise than in this file written by --save")
    args = ap.parse_args(argv)
    networks = networks_asked(ap, args.detector, args.reader)
    if args.jobs < 1:
        ap.error(f"--jobs {args.jobs}: give at least 1 process")
    for folder in args.folder:
        problem = folder_problem(folder)
        if problem:
            ap.error(problem)
    try:
        before = json.loads(args.against.read_text()) if args.against else None
    except (OSError, ValueError) as exc:
        ap.error(f"cannot read the saved run {args.against}: {exc}")
    if before is not None and not (isinstance(before, dict) and all(
            isinstance(v, dict) and {"scan", "exact", "problems"} <= v.keys() for v in before.values())):
        ap.error(f"{args.against} is not a run written by --save")
    if args.save and not args.save.resolve().parent.is_dir():  # (known before the run, not after it)
        ap.error(f"no folder for the saved run {args.save}")
    cv2.setNumThreads(args.threads)
    profile = with_networks(load_profile(args.profile), networks)
    read_tiles(np.zeros((64, 64, 3), np.uint8), profile)  # load the networks before anything is timed
    rows = _Rows()
    everything: list[PhotoResult] = []
    keyed: list[tuple[str, PhotoResult]] = []  # (dataset/file, result), for --save and --against
    print(HEADER, flush=True)
    t0 = time.perf_counter()
    if not args.no_samples and args.samples.is_dir():
        res = bench_folder(args.samples, profile)
        rows.append(summarize("sample_images", res))
        everything += res
        keyed += [(f"samples/{r.name}", r) for r in res]
    fresh: list[PhotoResult] = []
    stored: list[PhotoResult] = []
    if args.fresh > 0:
        by_kind = bench_fresh(args.fresh, args.seed_start, profile, args.exif, tuple(args.kind or ROTATION),
                              args.fresh_dir)
        fresh = [r for rs in by_kind.values() for r in rs]
        rows.append(summarize(f"fresh {args.fresh} (seeds {args.seed_start}+)", fresh))
        for kind, rs in sorted(by_kind.items()):
            rows.append(summarize(f"  of which {kind}", rs))
        if args.by_tag:
            tags = sorted({t for r in fresh for t in r.label["tags"]} - set(by_kind))  # type: ignore[attr-defined]
            for tag in tags:
                rows.append(summarize(f"  tagged {tag}", [r for r in fresh if tag in r.label["tags"]]))  # type: ignore[attr-defined]
            for row in by_tilt(fresh) + by_style(fresh):
                rows.append(row)
        everything += fresh
        keyed += [(f"fresh/{r.name}", r) for r in fresh]
    if args.folder:
        for folder in args.folder:
            results = bench_folder(folder, profile, args.jobs, args.threads)
            if len(args.folder) > 1:
                rows.append(summarize(f"folder {folder.name}", results))
            stored += results
            keyed += [(f"{folder.name}/{r.name}", r) for r in results]
        rows.append(summarize(f"{len(args.folder)} folder{'s' if len(args.folder) > 1 else ''}", stored))
        kinds = [r.label.get("kind", "?") for r in stored]  # type: ignore[attr-defined]
        for kind in sorted(set(kinds)):
            rows.append(summarize(f"  of which {kind}", [r for r, k in zip(stored, kinds) if k == kind]))
        for row in by_tilt(stored) + by_style(stored):
            rows.append(row)
        everything += stored
    if not args.no_real:
        if (args.real / "labels.json").is_file():
            for folder, rs in sorted(bench_real(args.real, networks).items()):
                rows.append(summarize(f"real {folder} ({REAL_PROFILES.get(folder)})", rs))
                everything += rs
                keyed += [(f"real/{r.name}", r) for r in rs]
        else:
            rows.append(f"real photos: none at {args.real}")
    for dataset, results in (("fresh", fresh), ("stored", stored)):
        if results:
            print("\n" + doubt_line(results, profile.doubt_below, dataset))
            print(says_so_line(results, profile.doubt_below, dataset))
            print(cut_line(results, dataset))
    big = [r for r in everything if r.width * r.height >= BIG_PIXELS and r.error is None]
    if big:
        threads = f"{args.threads} thread{'s' if args.threads > 1 else ''}" + (
            f"; the folders' read {args.jobs} at once" if args.jobs > 1 and stored else "")
        print(f"\n12 MP photos ({len(big)}, {threads}), as read above, once each: "
              + speed_line([(r.scan_ms, r.decode_ms) for r in big]))
        again = [timed_again(r.path, r.profile) for r in big]  # type: ignore[attr-defined]
        print("  timed again after the run, three times each in turn with its decoding: "
              + speed_line([(scan, decode) for scan, decode, _ in again]))
        print("  the same scans against OpenCV's bare decoding of the file (cv2.imdecode): "
              + speed_line([(scan, bare) for scan, _, bare in again]))
        print("  timed again, the median ratio by whole tiles in the photo: "
              + by_tiles([(r.label, scan / decode) for r, (scan, decode, _) in zip(big, again)]))
    print(environment())
    print(f"(total {time.perf_counter() - t0:.0f} s)")
    now = saved_scans(keyed)
    if args.save:
        args.save.write_text(json.dumps(now))
    if before is not None:
        print("\n" + "\n".join(against_lines(before, now)))
    worst = sorted((r for r in everything if r.badness > 0), key=lambda r: -r.badness)[: args.worst]
    if worst:
        print("\nworst photos:")
        for r in worst:
            text = "; ".join(r.problems[:6]) + (f" ... ({len(r.problems)} problems)" if len(r.problems) > 6 else "")
            print(f"  {r.name}: " + (text if len(text) < 400 else text[:400] + " ..."))
    if args.out and worst:
        args.out.mkdir(parents=True, exist_ok=True)
        for r in worst:
            img = load_photo(r.path)  # type: ignore[attr-defined]
            cv2.imwrite(str(args.out / (Path(r.name).stem.replace("/", "_") + ".fail.jpg")),
                        _draw(img, r.label, r))  # type: ignore[attr-defined]
    return 0


if __name__ == "__main__":
    sys.exit(main())
