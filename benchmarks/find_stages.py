"""Where the finder loses a tile: for every whole labelled tile, the first stage of ``find_faces`` it fails.

    nice .venv/bin/python benchmarks/find_stages.py --fresh 40 [--seed-start 50000] [--kind KIND ...]
                                                    [--profile NAME] [--out DIR] [--exif 0.0]

Runs the normal scanner (``scan_photo``) on fresh seeded synthetic photos while watching the finder from
outside: ``find._fits``, ``find._distinct_lines``, ``find.face_regions``, ``find.logo_faces``,
``find._region_candidate``, ``find._dedupe``, ``find._select`` and the judge handed to ``find_faces`` are
wrapped (and restored afterwards); the finder itself is not changed. Each whole (not partial) labelled
tile gets the first stage where it fails:

  no_line         no divider line lies near the tile's centre line (the segment between the midpoints of
                  its long sides) and no divider-less candidate (region, emblem) overlaps it
  fit_failed      a line near its divider existed, but ``_fits`` gave no face for any of them
  fit_wrong       candidates on it existed, none with IoU > 0.6 (the best IoU and its shape are noted:
                  too_long = merged end to end, too_wide = merged side by side, rot90, too_short, ...)
  deduped         a good candidate (IoU > 0.6) existed but ``_dedupe`` kept a near twin that is not good
  judged_out      a good candidate reached the judge, which rejected it (or the size floor did)
  lost_in_select  a good candidate reached ``_select`` but was not chosen (what was chosen over it is noted)
  dropped_after   chosen, then removed: the size floor after ``_select``, cut off, or blank without logo
  found           a detection matches with IoU > 0.6, or its centre lies inside the tile (then: was its value
                  read right)

All geometry is in working-image pixels (the photo reduced by ``read_tiles``' ``scale``). Prints counts per
stage overall, per kind and per photo tag, the source of the good candidates found (divider, region,
emblem), and one line per lost tile. ``--out DIR`` writes a crop per lost tile: the label in green, the
candidates on it in red (the chosen ones thicker, in blue), lines near its divider in yellow.
"""

from __future__ import annotations

import argparse
import linecache
import sys
import time
from collections import Counter, defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from companion.photo import load_photo  # noqa: E402,F401  (sets the OpenCV pixel limit before cv2)

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import companion.scanner as scanner  # noqa: E402
import companion.vision as vision  # noqa: E402
from calibration import load_profile  # noqa: E402
from companion.vision import find  # noqa: E402
from scan_benchmark import ROTATION, _same, fresh_photos  # noqa: E402

STAGES = ("found", "no_line", "fit_failed", "fit_wrong", "deduped", "judged_out", "lost_in_select",
          "dropped_after")
GOOD_IOU = 0.6


# ---------------------------------------------------------------- geometry

def quad_iou(a: np.ndarray, b: np.ndarray, canvas: int = 160) -> float:
    """IoU of two quadrilaterals (xy), filled on a small canvas spanning both."""
    a, b = np.asarray(a, float).reshape(-1, 2), np.asarray(b, float).reshape(-1, 2)
    lo = np.minimum(a.min(0), b.min(0))
    hi = np.maximum(a.max(0), b.max(0))
    if (np.maximum(a.min(0), b.min(0)) > np.minimum(a.max(0), b.max(0))).any():
        return 0.0
    k = (canvas - 4) / max(float((hi - lo).max()), 1e-6)
    size = np.ceil((hi - lo) * k).astype(int) + 4
    ma = np.zeros((size[1], size[0]), np.uint8)
    mb = np.zeros_like(ma)
    cv2.fillPoly(ma, [np.round((a - lo) * k * 16 + 32).astype(np.int32)], 1, shift=4)
    cv2.fillPoly(mb, [np.round((b - lo) * k * 16 + 32).astype(np.int32)], 1, shift=4)
    inter = np.count_nonzero(ma & mb)
    union = np.count_nonzero(ma | mb)
    return inter / union if union else 0.0


def shape_of(q: np.ndarray) -> tuple[float, float, np.ndarray, np.ndarray]:
    """(long side, short side, unit long axis, centre) of a quad, averaging opposite sides."""
    q = np.asarray(q, float).reshape(4, 2)
    e = np.roll(q, -1, axis=0) - q
    lens = np.linalg.norm(e, axis=1)
    s02, s13 = (lens[0] + lens[2]) / 2, (lens[1] + lens[3]) / 2
    if s13 >= s02:
        long_, short = s13, s02
        axis = e[1] - e[3]
    else:
        long_, short = s02, s13
        axis = e[0] - e[2]
    axis = axis / (np.linalg.norm(axis) + 1e-9)
    return float(long_), float(short), axis, q.mean(axis=0)


def divider_of(q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The tile's centre line: from the midpoint of one long side to that of the other."""
    q = np.asarray(q, float).reshape(4, 2)
    lens = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    if lens[1] + lens[3] >= lens[0] + lens[2]:  # sides 1-2 and 3-0 are the long ones
        return (q[1] + q[2]) / 2, (q[3] + q[0]) / 2
    return (q[0] + q[1]) / 2, (q[2] + q[3]) / 2


def _seg_dist(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    ab = b - a
    t = float(np.clip((p - a) @ ab / max(ab @ ab, 1e-9), 0.0, 1.0))
    return float(np.linalg.norm(p - (a + t * ab)))


def line_near_divider(line, q: np.ndarray) -> bool:
    """A divider candidate lying on the tile's centre line: its centre within a quarter of the tile's width
    of the segment, its direction within 20 degrees of it."""
    a, b = divider_of(q)
    width = float(np.linalg.norm(b - a))
    d = (b - a) / max(width, 1e-9)
    return _seg_dist(np.asarray(line.center, float), a, b) < 0.25 * width and abs(float(d @ line.along)) > np.cos(
        np.radians(20))


def misfit(cand: np.ndarray, label: np.ndarray) -> str:
    """A word for how a candidate quad differs from the labelled one, from its extent along the label's
    long and short axes: too_long (merged with a neighbour end to end), too_wide (merged side by side),
    too_big (both), too_short, too_narrow, rot90 (a tile-shaped quad across the tile), turnedN, shifted."""
    cand = np.asarray(cand, float).reshape(4, 2)
    l1, s1, ax1, c1 = shape_of(cand)
    l0, s0, ax0, c0 = shape_of(label)
    angle = float(np.degrees(np.arccos(min(1.0, abs(float(ax1 @ ax0))))))
    n0 = np.array([-ax0[1], ax0[0]])
    ext_l = float(np.ptp(cand @ ax0))
    ext_s = float(np.ptp(cand @ n0))
    if angle > 60 and l1 > 1.4 * s1 and ext_l < 0.8 * l0:
        return "rot90"
    long_big, short_big = ext_l > 1.3 * l0, ext_s > 1.4 * s0
    if long_big and short_big:
        return "too_big"
    if long_big:
        return "too_long"
    if short_big:
        return "too_wide"
    if ext_l < 0.75 * l0:
        return "too_short"
    if ext_s < 0.7 * s0:
        return "too_narrow"
    if np.linalg.norm(c1 - c0) > 0.25 * s0:
        return "shifted"
    if angle >= 12:
        return f"turned{int(round(angle))}"
    return "misshapen"


# ---------------------------------------------------------------- the watch on the finder

@dataclass
class Watch:
    """What one run of ``find_faces`` did, as seen from outside."""

    work: np.ndarray | None = None
    scale: float = 1.0
    photo_scale: float = 1.0
    lines_all: list = field(default_factory=list)  # before _distinct_lines
    rejected: list = field(default_factory=list)  # marks _as_line turned down: (_Line-like, why)
    fits: list = field(default_factory=list)  # (line, candidate or None)
    cands: list = field(default_factory=list)  # every candidate made (fit or region), .src set
    judged_in: list = field(default_factory=list)  # what the judge was asked about (after _dedupe)
    verdicts: dict = field(default_factory=dict)  # id(candidate corners) -> verdict
    judge_why: dict = field(default_factory=dict)  # id(candidate corners) -> why the judge said None
    select_in: list = field(default_factory=list)  # accepted, past the size floor
    select_deduped: list = field(default_factory=list)  # _select's own _dedupe output
    chosen: list = field(default_factory=list)
    why_not: str = "?"  # why the line being fitted gave no face, last seen
    faces: list = field(default_factory=list)  # find_faces's output (after the floor past _select)
    in_select: bool = False
    source: str = "region"


@contextmanager
def watching():
    """Wrap the finder's stages; yields a list to which each find_faces run appends its ``Watch``."""
    runs: list[Watch] = []
    saved = {name: getattr(find, name) for name in
             ("_as_line", "_fits", "_window", "_fit_quad", "_distinct_lines", "face_regions", "logo_faces", "_region_candidate", "_dedupe", "_select")}
    saved_ff = vision.find_faces
    saved_rt = scanner.read_tiles

    def cur() -> Watch:
        return runs[-1]

    def read_tiles(image, profile=None, *, photo_scale=1.0, full_res=None):
        runs.append(Watch(photo_scale=photo_scale))
        return saved_rt(image, profile, photo_scale=photo_scale, full_res=full_res)

    def find_faces(work_bgr, profile, *, scale=1.0, judge=None):
        w = cur()
        w.work, w.scale = work_bgr, scale

        def judge_w(corners):
            verdict, exit_at = _traced(judge, corners)
            w.verdicts[id(corners)] = verdict
            if verdict is None:
                w.judge_why[id(corners)] = _exit_reason(*exit_at)
            return verdict

        out = saved_ff(work_bgr, profile, scale=scale, judge=judge_w if judge is not None else None)
        w.faces = list(out.faces)
        return out

    def as_line(pts, area, label, box, profile, max_len):
        ln = saved["_as_line"](pts, area, label, box, profile, max_len)
        if ln is None and len(pts) >= 3:
            (cx, cy), (rw, rh), angle = cv2.minAreaRect(pts)
            rw, rh = rw + 1.0, rh + 1.0
            length, thick = max(rw, rh), min(rw, rh)
            if length < profile.divider_min_len:
                why = "short"
            elif length > max_len:
                why = "long"
            elif length / thick < profile.divider_min_aspect:
                why = "thick"
            else:
                why = "sparse"
            theta = np.deg2rad(angle if rw >= rh else angle + 90.0)
            cur().rejected.append((find._Line(label, np.array([cx, cy]), np.array([np.cos(theta), np.sin(theta)]),
                                              float(length), float(thick), box), why))
        return ln

    def distinct_lines(lines, profile):
        cur().lines_all = [ln for ln, _ in lines]
        return saved["_distinct_lines"](lines, profile)

    def fits(line, *args, **kwargs):
        cur().why_not = "?"
        cands = saved["_fits"](line, *args, **kwargs)
        for c in cands:
            c.src = "divider"
            cur().cands.append(c)
        if not cands:
            line.why_not = cur().why_not
        cur().fits.append((line, cands[0] if cands else None))
        return cands

    def traced(name):
        def call(*args, **kwargs):
            out, exit_at = _traced(saved[name], *args, **kwargs)
            if out is None:  # the last reason a face was not made from this line
                cur().why_not = _exit_reason(*exit_at)
            return out
        return call

    def face_regions(*args, **kwargs):
        cur().source = "region"
        return saved["face_regions"](*args, **kwargs)

    def logo_faces(*args, **kwargs):
        cur().source = "emblem"
        return saved["logo_faces"](*args, **kwargs)

    def region_candidate(*args, **kwargs):
        c = saved["_region_candidate"](*args, **kwargs)
        c.src = cur().source
        cur().cands.append(c)
        return c

    def dedupe(cands, profile):
        out = saved["_dedupe"](cands, profile)
        w = cur()
        if w.in_select:
            w.select_deduped += out
        else:  # the first look's, then the second look's
            w.judged_in += out
        return out

    def select(cands, profile, ref_size=None, *args, **kwargs):
        w = cur()
        w.select_in += cands  # the first look's, then the second look's
        w.in_select = True
        try:
            out = saved["_select"](cands, profile, ref_size, *args, **kwargs)
        finally:
            w.in_select = False
        w.chosen += out
        return out

    patches = {"_as_line": as_line, "_fits": fits, "_window": traced("_window"), "_fit_quad": traced("_fit_quad"), "_distinct_lines": distinct_lines, "face_regions": face_regions,
               "logo_faces": logo_faces, "_region_candidate": region_candidate, "_dedupe": dedupe,
               "_select": select}
    try:
        for name, fn in patches.items():
            setattr(find, name, fn)
        vision.find_faces = find_faces
        scanner.read_tiles = read_tiles
        yield runs
    finally:
        for name, fn in saved.items():
            setattr(find, name, fn)
        vision.find_faces = saved_ff
        scanner.read_tiles = saved_rt


def _traced(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` and where it returned, (file, line), seen by a tracer on ``fn``'s own frame
    only (any tracer already set, say coverage's, is put back)."""
    code, exit_at = fn.__code__, {}

    def local(frame, event, arg):
        if event == "return":
            exit_at["at"] = (frame.f_code.co_filename, frame.f_lineno)
        return local

    def tracer(frame, event, arg):
        return local if frame.f_code is code else None

    before = sys.gettrace()
    sys.settrace(tracer)
    try:
        out = fn(*args, **kwargs)
    finally:
        sys.settrace(before)
    return out, exit_at.get("at", ("", 0))


def _exit_reason(path: str, lineno: int) -> str:
    """Why a function returned None at ``path:lineno``: the comment there, else the test on the line before."""
    text = linecache.getline(path, lineno).strip()
    if "#" in text:
        return text.split("#", 1)[1].strip().split(":")[0][:40]
    prev = linecache.getline(path, lineno - 1).strip()
    if text.startswith("return None") and prev:
        return prev.rstrip(":").removeprefix("if ")[:60]
    return f"line {lineno}"


# ---------------------------------------------------------------- classifying the labelled tiles

@dataclass
class TileFate:
    photo: str
    seed: int | None
    index: int
    pips: tuple[int, int]
    tags: tuple[str, ...]
    stage: str
    kind: str = ""
    detail: str = ""
    best_iou: float = 0.0
    pattern: str = ""
    source: str = ""  # found: where the good candidate came from
    value_right: bool | None = None
    label_work: np.ndarray | None = None


def _src(c) -> str:
    return getattr(c, "src", "?")


def _desc(c, label_q) -> str:
    iou = quad_iou(c.corners, label_q)
    return f"{_src(c)} iou={iou:.2f} {misfit(c.corners, label_q) if iou <= GOOD_IOU else 'good'} " \
           f"score={c.score:.2f} size={find._size(c):.0f}"


def classify(label: dict, scan: dict, w: Watch) -> list[TileFate]:
    """The fate of every whole labelled tile of one photo."""
    k = w.scale / w.photo_scale  # photo pixels -> working-image pixels (pixel centres as read_tiles has them)
    to_work = lambda q: (np.asarray(q, float) + 0.5) * k - 0.5  # noqa: E731
    name = label.get("file", "?")
    dets = [(to_work(d["corners"]), d["pips"]) for d in scan.get("tiles", [])]
    ids = {id(c) for c in w.cands}
    judged_ids = {id(c) for c in w.judged_in}
    select_ids = {id(c) for c in w.select_in}
    chosen_ids = {id(c) for c in w.chosen}
    face_keys = {id(f.corners) for f in w.faces}
    fates = []
    labelled = [(lj, to_work(t["corners"])) for lj, t in enumerate(label["tiles"]) if t.get("corners")]
    labelled_q = dict(labelled)
    for li, t in enumerate(label["tiles"]):
        if t.get("partial", False) or not t.get("corners"):
            continue
        q = to_work(t["corners"])
        fate = TileFate(name, label.get("seed"), li, tuple(t["pips"]), tuple(label.get("tags", ())), "",
                        label_work=q)
        fates.append(fate)
        det_iou = [quad_iou(dq, q) for dq, _ in dets]
        ious = {id(c): quad_iou(c.corners, q) for c in w.cands}
        good = [c for c in w.cands if ious[id(c)] > GOOD_IOU]
        over = sorted((c for c in w.cands if ious[id(c)] > 0.05), key=lambda c: -ious[id(c)])
        fate.best_iou = max(ious.values(), default=0.0)
        inside = [cv2.pointPolygonTest(q.astype(np.float32), tuple(float(v) for v in dq.mean(axis=0)), False) >= 0
                  for dq, _ in dets]  # as scan_benchmark matches (a face read again may have moved its outline)
        if det_iou and (max(det_iou) > GOOD_IOU or any(inside)):
            j = int(np.argmax([iou + inside[k] for k, iou in enumerate(det_iou)]))
            fate.stage = "found"
            fate.value_right = _same(dets[j][1], t["pips"])
            if not fate.value_right:
                fate.detail = f"read {dets[j][1][0]}-{dets[j][1][1]}"
            src = [c for c in w.chosen if id(c.corners) in face_keys and ious.get(id(c), 0) > GOOD_IOU]
            fate.source = _src(max(src, key=lambda c: ious[id(c)])) if src else "?"
            continue
        if not good:
            near = [(ln, c) for ln, c in w.fits if line_near_divider(ln, q)]
            near_pre = [ln for ln in w.lines_all if line_near_divider(ln, q)]
            regions = [c for c in over if _src(c) != "divider"]
            if over:
                fate.pattern = misfit(over[0].corners, q)
            if not near and not regions:
                fate.stage = "no_line"
                rej = Counter(why for ln, why in w.rejected if line_near_divider(ln, q))
                fate.detail = (f"{len(near_pre)} near line(s) lost in _distinct_lines; " if near_pre else "") + \
                    ("marks there turned down by _as_line: " + ", ".join(f"{k} {v}" for k, v in rej.items())
                     + "; " if rej else "no mark on its divider; ") + \
                    (f"{len(over)} other quad(s) on it, best {_desc(over[0], q)}" if over else "nothing on it")
            elif near and not any(c is not None for _, c in near):
                fate.stage = "fit_failed"
                fate.pattern = Counter(getattr(ln, "why_not", "?") for ln, _ in near).most_common(1)[0][0]
                span = float(np.linalg.norm(np.subtract(*divider_of(q))))
                fate.detail = f"{len(near)} near line(s): " + ", ".join(
                    f"{ln.length / span:.2f} of the divider ({getattr(ln, 'why_not', '?')})" for ln, _ in near) + \
                    (f"; best other: {_desc(over[0], q)}" if over else "")
            else:
                fate.stage = "fit_wrong"
                fate.detail = f"best: {_desc(over[0], q)}" if over else "?"
            continue
        best_good = max(good, key=lambda c: ious[id(c)])
        if not any(id(c) in judged_ids for c in good):
            fate.stage = "deduped"
            twins = [c for c in w.judged_in if id(c) in ids and quad_iou(c.corners, best_good.corners) > 0.3]
            fate.detail = f"good {_desc(best_good, q)}; kept instead: " + \
                ("; ".join(_desc(c, q) for c in twins[:2]) or "?")
            continue
        good_j = [c for c in good if id(c) in judged_ids]
        if not any(id(c) in select_ids for c in good_j):
            fate.stage = "judged_out"
            why = []
            for c in good_j:
                v = w.verdicts.get(id(c.corners), "not asked")
                if v is None:
                    why.append(f"{_src(c)}: judge None ({w.judge_why.get(id(c.corners), '?')})")
                elif v == "not asked":
                    why.append(f"{_src(c)}: not asked")
                elif not (v[2] or c.line.label >= 0):
                    why.append(f"{_src(c)}: no mark (no divider, no pip/logo)")
                else:
                    why.append(f"{_src(c)}: size floor (size {find._size(c):.0f})")
            fate.detail = "; ".join(sorted(set(why)))
            continue
        good_s = [c for c in good_j if id(c) in select_ids]
        if not any(id(c) in chosen_ids for c in good_s):
            fate.stage = "lost_in_select"
            g = max(good_s, key=lambda c: ious[id(c)])
            rivals = [c for c in w.chosen if quad_iou(c.corners, g.corners) > 0.05
                      or cv2.pointPolygonTest(c.corners.astype(np.float32),
                                              (float(g.line.center[0]), float(g.line.center[1])), False) >= 0]
            in_dd = any(id(c) in {id(x) for x in w.select_deduped} for c in good_s)
            said = []
            for c in rivals[:3]:  # each rival against the labelled tile it covers best
                ious_r = [(quad_iou(c.corners, lq), lj) for lj, lq in labelled]
                r_iou, r_j = max(ious_r, default=(0.0, -1))
                kind = "good" if r_iou > GOOD_IOU else misfit(c.corners, labelled_q[r_j]) if r_j >= 0 else "nothing"
                said.append((kind, f"{_src(c)} {kind} (t{r_j:02d} iou={r_iou:.2f}) score={c.score:.2f} "
                                   f"size={find._size(c):.0f}"))
            fate.pattern = ("rival_" + said[0][0]) if said else "no_rival"
            fate.detail = f"good {_desc(g, q)}" + ("" if in_dd else " (dropped by _select's _dedupe)") + \
                "; chosen over it: " + ("; ".join(t for _, t in said) or "nothing")
            continue
        fate.stage = "dropped_after"
        good_c = [c for c in good_s if id(c) in chosen_ids]
        if not any(id(c.corners) in face_keys for c in good_c):
            fate.detail = "size floor after _select"
        elif all(c.cut_off for c in good_c if id(c.corners) in face_keys):
            fate.detail = "cut_off"
        else:
            fate.detail = "not read (blank without logo?)"
    return fates


# ---------------------------------------------------------------- running and reporting

def analyse(data: bytes, label: dict, profile) -> tuple[list[TileFate], Watch]:
    """Scan one photo under watch and classify its labelled tiles."""
    with watching() as runs:
        scan = scanner.scan_photo(data, profile=profile, name=label.get("file"))
    if "error" in scan or not runs:
        raise RuntimeError(f"{label.get('file')}: {scan.get('error', 'finder not run')}")
    w = runs[-1]
    return classify(label, scan, w), w


def draw_crop(w: Watch, fate: TileFate, path: Path) -> None:
    q = fate.label_work
    lo, hi = q.min(0), q.max(0)
    pad = 0.6 * float((hi - lo).max())
    h, wd = w.work.shape[:2]
    x0, y0 = (np.maximum(lo - pad, 0)).astype(int)
    x1, y1 = (np.minimum(hi + pad, [wd - 1, h - 1])).astype(int) + 1
    z = max(1.0, 420 / max(x1 - x0, y1 - y0))
    crop = cv2.resize(w.work[y0:y1, x0:x1], None, fx=z, fy=z, interpolation=cv2.INTER_LINEAR)

    def pts(p):
        return np.round((np.asarray(p, float) - [x0, y0] + 0.5) * z - 0.5).astype(np.int32)

    box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)
    chosen = {id(c) for c in w.chosen}
    for c in w.cands:
        if quad_iou(c.corners, box) > 0 and quad_iou(c.corners, q) > 0.02:
            col, th = ((255, 80, 0), 3) if id(c) in chosen else ((0, 0, 255), 1)
            cv2.polylines(crop, [pts(c.corners)], True, col, th)
    for ln, _ in w.fits:
        if line_near_divider(ln, q):
            a, b = ln.center - ln.along * ln.length / 2, ln.center + ln.along * ln.length / 2
            cv2.line(crop, tuple(pts(a)), tuple(pts(b)), (0, 230, 230), 2)
    cv2.polylines(crop, [pts(q)], True, (0, 200, 0), 2)
    text = f"{fate.stage} {fate.pips[0]}-{fate.pips[1]} {fate.pattern}"
    cv2.putText(crop, text, (5, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 3)
    cv2.putText(crop, text, (5, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 1)
    cv2.imwrite(str(path), crop)


def table(fates: list[TileFate], groups: dict[str, list[TileFate]]) -> str:
    cols = STAGES
    head = f"{'':<22} {'tiles':>5} " + " ".join(f"{s[:9]:>9}" for s in cols) + f" {'val-ok':>6}"
    rows = [head]
    for name, fs in [("all", fates)] + list(groups.items()):
        cnt = Counter(f.stage for f in fs)
        ok = sum(bool(f.value_right) for f in fs if f.stage == "found")
        rows.append(f"{name:<22} {len(fs):>5} " + " ".join(f"{cnt[s]:>9}" for s in cols)
                    + f" {ok:>6}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fresh", type=int, default=40, help="fresh synthetic photos")
    ap.add_argument("--seed-start", type=int, default=50000)
    ap.add_argument("--kind", action="append", choices=sorted(set(ROTATION)),
                    help="photos of this kind only (repeatable; default: the scan benchmark's rotation)")
    ap.add_argument("--profile", default=None, help="profile (default giant-wood)")
    ap.add_argument("--exif", type=float, default=0.0, help="fraction stored turned with EXIF (as scan_benchmark)")
    ap.add_argument("--out", type=Path, default=None, help="write a crop per lost tile into this folder")
    args = ap.parse_args(argv)
    profile = load_profile(args.profile)
    kinds = tuple(args.kind or ROTATION)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    fates: list[TileFate] = []
    t0 = time.perf_counter()
    for seed, kind, data, label in fresh_photos(args.fresh, args.seed_start, args.exif, kinds):
        label.setdefault("seed", seed)
        fs, w = analyse(data, label, profile)
        for f in fs:
            f.kind = kind
        fates += fs
        lost = [f for f in fs if f.stage != "found"]
        print(f"seed {seed} {kind:<9} {len(fs):>3} tiles, {len(fs) - len(lost):>3} found"
              + (": lost " + ", ".join(f"#{f.index} {f.stage}" for f in lost) if lost else ""), flush=True)
        if args.out:
            for f in lost:
                draw_crop(w, f, args.out / f"{seed}-t{f.index:02d}-{f.stage}.png")
    dt = time.perf_counter() - t0
    by_kind: dict[str, list[TileFate]] = defaultdict(list)
    by_tag: dict[str, list[TileFate]] = defaultdict(list)
    for f in fates:
        by_kind[f.kind].append(f)
        for tag in f.tags:
            by_tag[tag].append(f)
    groups = {f"kind {k}": v for k, v in sorted(by_kind.items())}
    groups.update({f"tag {k}": v for k, v in sorted(by_tag.items())})
    print(f"\n{args.fresh} photos, seeds {args.seed_start}+, {dt:.0f} s\n")
    print(table(fates, groups))
    found = [f for f in fates if f.stage == "found"]
    print("\nfound, by source of the good candidate: "
          + ", ".join(f"{k} {v}" for k, v in Counter(f.source for f in found).most_common()))
    print("fit_wrong / no_line / lost_in_select patterns: "
          + ", ".join(f"{k} {v}" for k, v in Counter(f"{f.stage}:{f.pattern or '-'}" for f in fates
                                                      if f.stage in ("fit_wrong", "no_line", "lost_in_select")
                                                      ).most_common()))
    misread = [f for f in found if not f.value_right]
    print(f"found but misread: {len(misread)}")
    print("\nlost tiles:")
    for f in fates:
        if f.stage != "found":
            width = shape_of(f.label_work)[1]
            print(f"  seed {f.seed} {f.kind:<8} t{f.index:02d} {f.pips[0]}-{f.pips[1]} w={width:3.0f} {f.stage:<14} best={f.best_iou:.2f} "
                  f"{f.pattern:<10} {f.detail}")
    for f in misread:
        print(f"  seed {f.seed} t{f.index:02d} {f.pips[0]}-{f.pips[1]} found, {f.detail}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
