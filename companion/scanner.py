"""Scan a photo: load it, read its tiles, and give the ``companion scan --json`` object.

Entry points: ``scan_photo(source, *, profile=None, name=None, annotate_to=None) -> dict`` (the exact
object of CONTRACTS.md, or ``{"file", "error"}`` for a photo that cannot be read) and
``annotate(image_bgr, reading, doubt_below) -> np.ndarray`` (the photo with each tile's outline, green or
red for a reading to check, its number and reading at its centre, and a band below with the totals and
warnings). The CLI and the web API both call these.

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
        # a large JPEG is decoded reduced (draft mode: 1/2, 1/4 or 1/8) as far as the detector allows;
        # faces too small to read there are read from a finer decoding, made only if needed
        image = load_photo(source, draft_side=profile.detect_side)
    except PhotoError as exc:
        return {"file": file, "error": str(exc)}
    photo_scale = width / image.shape[1]

    def finer(scale: float) -> tuple[np.ndarray, float]:
        better = load_photo(source, draft_side=int(np.ceil(max(width, height) / scale)))
        return better, width / better.shape[1]

    reading = read_tiles(image, profile, photo_scale=photo_scale, finer=finer if photo_scale > 1 else None)
    result = reading_to_dict(reading, file=file, width=width, height=height)
    if annotate_to is not None:
        out_dir = Path(annotate_to)
        out_dir.mkdir(parents=True, exist_ok=True)
        stem = Path(file).stem or "photo"
        shown = reading if photo_scale == 1 else Reading(
            [TileReading(t.pips, (t.corners + 0.5) / photo_scale - 0.5, t.confidence) for t in reading.tiles],
            reading.warnings, [(q + 0.5) / photo_scale - 0.5 for q in reading.left_out])
        cv2.imwrite(str(out_dir / f"{stem}.annotated.png"), annotate(image, shown, profile.doubt_below))
    return result


WARNING_COLOUR = (0, 220, 255)  # amber, BGR: the warnings and the faces they left out


def _dashed(image: np.ndarray, corners: np.ndarray, colour: tuple[int, int, int], thick: int, dash: float) -> None:
    """``corners``' outline drawn dashed (dashes and gaps ``dash`` pixels long) on ``image``, in place."""
    q = np.asarray(corners, np.float64)
    for a, b in zip(q, np.roll(q, -1, axis=0)):
        n = max(1, int(np.linalg.norm(b - a) // dash))
        for k in range(0, n, 2):
            p0, p1 = (tuple(np.round(a + (b - a) * j / n).astype(int)) for j in (k, min(k + 1, n)))
            cv2.line(image, p0, p1, colour, thick, cv2.LINE_AA)


def _confidence_colour(conf: float, doubt_below: float) -> tuple[int, int, int]:
    return (60, 200, 60) if conf >= doubt_below else (40, 40, 230)  # green; red for a tile to check


def _fitted_text(text: str, width: float, font: int, most: float) -> tuple[float, int]:
    """The font scale (at most ``most``) and stroke at which ``text`` is about ``width`` pixels wide."""
    (w, _), _ = cv2.getTextSize(text, font, 1.0, 2)
    scale = float(np.clip(width / max(w, 1), 0.35, most))
    return scale, max(1, int(round(scale * 1.8)))


def wrap_text(text: str, font: int, scale: float, thick: int, width: int) -> list[str]:
    """``text`` broken into lines at most ``width`` pixels wide in that OpenCV font."""
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and cv2.getTextSize(trial, font, scale, thick)[0][0] > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + [line] if line else lines


def annotate(image_bgr: np.ndarray, reading: Reading, doubt_below: float = Profile.doubt_below) -> np.ndarray:
    """The photo with each tile's outline (green, or red where the reading is less sure than
    ``doubt_below`` and a warning asks to check it; white at the ``pips[0]`` end), its
    number and reading, and each face left out (``reading.left_out``) dashed in the warnings' amber with a
    "!"; below it a band with the totals and every warning, so nothing hides the photo."""
    photo = image_bgr.copy()
    h, w = photo.shape[:2]
    unit = max(1.0, max(h, w) / 1000.0)
    thick = max(2, int(round(2 * unit)))
    font = cv2.FONT_HERSHEY_DUPLEX
    for corners in reading.left_out:
        _dashed(photo, corners, WARNING_COLOUR, thick, 12 * unit)
        centre = np.clip(np.asarray(corners, float).mean(axis=0), 14 * unit, [w - 14 * unit, h - 14 * unit])
        (tw, th), _ = cv2.getTextSize("!", font, unit, thick)
        org = (int(centre[0] - tw / 2), int(centre[1] + th / 2))
        cv2.putText(photo, "!", org, font, unit, (0, 0, 0), thick + 3, cv2.LINE_AA)
        cv2.putText(photo, "!", org, font, unit, WARNING_COLOUR, thick, cv2.LINE_AA)
    for k, t in enumerate(reading.tiles):
        pts = np.round(t.corners).astype(np.int32)
        colour = _confidence_colour(t.confidence, doubt_below)
        cv2.polylines(photo, [pts], True, (0, 0, 0), thick + 2, cv2.LINE_AA)
        cv2.polylines(photo, [pts], True, colour, thick, cv2.LINE_AA)
        cv2.line(photo, tuple(pts[0]), tuple(pts[1]), (255, 255, 255), thick, cv2.LINE_AA)  # the pips[0] end
        short = float(np.linalg.norm(t.corners[0] - t.corners[1]) + np.linalg.norm(t.corners[2] - t.corners[3])) / 2
        cx, cy = t.corners.mean(axis=0)
        text = f"{t.pips[0]}|{t.pips[1]}"
        scale, stroke = _fitted_text(text, 0.5 * short, font, 1.6 * unit)  # small: the pips stay visible
        (tw, th), base = cv2.getTextSize(text, font, scale, stroke)
        org = (int(cx - tw / 2), int(cy + th / 2))
        cv2.rectangle(photo, (org[0] - 3, org[1] - th - 3), (org[0] + tw + 3, org[1] + base), (0, 0, 0), -1)
        cv2.putText(photo, text, org, font, scale, colour, stroke, cv2.LINE_AA)
        number = str(k + 1)  # the same numbers as the CLI's table
        nscale, nstroke = _fitted_text(number, 0.22 * short * len(number), font, 0.45 * scale)
        (nw, nh), _ = cv2.getTextSize(number, font, nscale, nstroke)
        norg = (int(cx - nw / 2), int(org[1] - th - 8 - 0.1 * short))
        cv2.putText(photo, number, norg, font, nscale, (0, 0, 0), nstroke + 2, cv2.LINE_AA)
        cv2.putText(photo, number, norg, font, nscale, (255, 255, 255), nstroke, cv2.LINE_AA)

    total = sum(sum(t.pips) for t in reading.tiles)
    count = len(reading.tiles)
    band_font, band_scale, band_thick = cv2.FONT_HERSHEY_SIMPLEX, 0.6 * unit, max(1, int(round(unit)))
    rows = [(f"{count} tile{'' if count == 1 else 's'}, {total} pip{'' if total == 1 else 's'}", (255, 255, 255))]
    for message in reading.warnings:
        rows += [(line, WARNING_COLOUR) for line in wrap_text(f"! {message}", band_font, band_scale, band_thick,
                                                        w - int(16 * unit))]
    line_h = int(cv2.getTextSize("Ag", band_font, band_scale, band_thick)[0][1] + 12 * unit)
    band = np.full((line_h * len(rows) + int(10 * unit), w, 3), 24, np.uint8)
    for i, (line, colour) in enumerate(rows):
        cv2.putText(band, line, (int(8 * unit), line_h * (i + 1)), band_font, band_scale, colour, band_thick,
                    cv2.LINE_AA)
    return np.vstack([photo, band])
