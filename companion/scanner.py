"""Scan a photo: load it, read its tiles, and give the ``companion scan --json`` object.

Entry points: ``scan_photo(source, *, profile=None, name=None, annotate_to=None) -> dict`` (the exact
object of CONTRACTS.md, or ``{"file", "error"}`` for a photo that cannot be read) and
``annotate(image_bgr, reading) -> np.ndarray`` (the photo with each tile's outline, coloured by
confidence, its reading drawn large at its centre, and the warnings along the top). The CLI and the web
API both call these.

Conventions: ``image_bgr`` BGR uint8; corners are xy pixels of the photo as a person sees it.
Raises nothing for a bad photo (it becomes the ``error`` field); a bad profile name raises
``calibration.UnknownProfileError``.
"""

from __future__ import annotations

from pathlib import Path

from companion.photo import PhotoError, load_photo, photo_size  # sets OPENCV_IO_MAX_IMAGE_PIXELS before cv2

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from companion.vision import Reading, TileReading, read_tiles  # noqa: E402
from companion.vision.profile import Profile  # noqa: E402


def _file_name(source, name: str | None) -> str:
    if name is not None:
        return name
    if isinstance(source, (bytes, bytearray)):
        return "upload"
    return str(source)


def reading_to_dict(reading: Reading, *, file: str, width: int, height: int) -> dict:
    tiles = [{"pips": [int(t.pips[0]), int(t.pips[1])],
              "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in t.corners],
              "confidence": round(float(t.confidence), 3)} for t in reading.tiles]
    return {"file": file, "width": int(width), "height": int(height), "tiles": tiles,
            "pip_total": int(sum(sum(t["pips"]) for t in tiles)), "warnings": list(reading.warnings)}


def scan_photo(source: str | Path | bytes, *, profile: Profile | None = None, name: str | None = None,
               annotate_to: str | Path | None = None) -> dict:
    """Read every tile in the photo ``source``; write an annotated picture into ``annotate_to`` if given."""
    file = _file_name(source, name)
    profile = profile or Profile()
    try:
        width, height = photo_size(source)
        # a large JPEG is decoded reduced (draft mode) when the finder would reduce it anyway; faces too
        # small to read there are read from the full photo, decoded only if needed
        image = load_photo(source, draft_side=int(profile.work_max_side * profile.draft_slack))
    except PhotoError as exc:
        return {"file": file, "error": str(exc)}
    photo_scale = width / image.shape[1]

    def full_res() -> np.ndarray:
        return load_photo(source)

    reading = read_tiles(image, profile, photo_scale=photo_scale, full_res=full_res if photo_scale > 1 else None)
    result = reading_to_dict(reading, file=file, width=width, height=height)
    if annotate_to is not None:
        out_dir = Path(annotate_to)
        out_dir.mkdir(parents=True, exist_ok=True)
        stem = Path(file).stem or "photo"
        shown = reading if photo_scale == 1 else Reading(
            [TileReading(t.pips, (t.corners + 0.5) / photo_scale - 0.5, t.confidence) for t in reading.tiles],
            reading.warnings)
        cv2.imwrite(str(out_dir / f"{stem}.annotated.png"), annotate(image, shown))
    return result


def _confidence_colour(conf: float) -> tuple[int, int, int]:
    if conf >= 0.8:
        return (60, 200, 60)  # green
    if conf >= 0.5:
        return (0, 190, 255)  # amber
    return (40, 40, 230)  # red


def annotate(image_bgr: np.ndarray, reading: Reading) -> np.ndarray:
    """The photo with outlines, readings and warnings drawn on it (BGR uint8, same size)."""
    out = image_bgr.copy()
    h, w = out.shape[:2]
    unit = max(1.0, max(h, w) / 1000.0)
    thick = max(2, int(round(2 * unit)))
    for k, t in enumerate(reading.tiles):
        pts = np.round(t.corners).astype(np.int32)
        colour = _confidence_colour(t.confidence)
        cv2.polylines(out, [pts], True, (0, 0, 0), thick + 2, cv2.LINE_AA)
        cv2.polylines(out, [pts], True, colour, thick, cv2.LINE_AA)
        cv2.line(out, tuple(pts[0]), tuple(pts[1]), (255, 255, 255), thick, cv2.LINE_AA)  # the pips[0] end
        short = float(np.linalg.norm(t.corners[0] - t.corners[1]))
        text = f"{t.pips[0]}|{t.pips[1]}"
        scale = max(0.5, short / 70.0)
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, max(1, int(scale * 2)))
        cx, cy = t.corners.mean(axis=0)
        org = (int(cx - tw / 2), int(cy + th / 2))
        cv2.rectangle(out, (org[0] - 4, org[1] - th - 4), (org[0] + tw + 4, org[1] + base + 2), (0, 0, 0), -1)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_DUPLEX, scale, colour, max(1, int(scale * 2)), cv2.LINE_AA)
        label = f"#{k + 1} {t.confidence:.2f}"
        cv2.putText(out, label, (int(cx - tw / 2), int(cy + th / 2 + base + 18 * unit)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.5 * unit, (0, 0, 0), max(1, int(2 * unit)) + 1, cv2.LINE_AA)
        cv2.putText(out, label, (int(cx - tw / 2), int(cy + th / 2 + base + 18 * unit)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.5 * unit, (255, 255, 255), max(1, int(unit)), cv2.LINE_AA)
    total = sum(sum(t.pips) for t in reading.tiles)
    lines = [f"{len(reading.tiles)} tiles, {total} pips"] + [f"! {msg}" for msg in reading.warnings]
    fs = 0.55 * unit
    y = int(24 * unit)
    for line in lines:
        (tw, th), _ = cv2.getTextSize(line, cv2.FONT_HERSHEY_SIMPLEX, fs, max(1, int(unit)))
        cv2.rectangle(out, (4, y - th - 6), (12 + tw, y + 6), (0, 0, 0), -1)
        cv2.putText(out, line, (8, y), cv2.FONT_HERSHEY_SIMPLEX, fs, (0, 220, 255) if line.startswith("!") else
                    (255, 255, 255), max(1, int(unit)), cv2.LINE_AA)
        y += int(th + 14 * unit)
    return out
