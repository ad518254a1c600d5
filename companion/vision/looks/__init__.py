"""Every face the networks see in a photo: ``find_faces(image_bgr, profile) -> Faces``.

The detector guesses where tiles lie (``detect``: on the photo reduced to about 768 pixels, again finer where
tiles are small), and the reader looks at each guess (``read``: the face's corners and pips, twice, the second
time square on to the corners the first look found). Then come the looks that put right what those got wrong, in
the order ``find_faces`` takes them (each documented where it is defined):

- ``_reshaped``: a face read with doubt far from the outline that the faces read surely around it predict
  (``plane``) is looked at through that outline, and moved and turned.
- ``_resplit``: two whole faces side by side are read split the other way where that reads two tiles read
  nowhere else, or reads them far more surely (and again once the gaps are filled).
- ``_unstraddled``: a face across the junction of two tiles end to end (a double half a tile short of a line's
  next face) is looked at half a tile each way along it.
- ``_split_in_two``: a face that holds a guess left unread off its centre is looked at as the two tiles, end
  to end or side by side, that the reader took for one.
- ``_unread_pair``: two guesses side by side read as no tile are looked at as their square split the other way.
- ``_orphans``, ``_seen_from_above`` and ``_filled``: looks in the gaps of rows, beyond the ends of lines, at the
  guesses left unread, at the detector's weak peaks, and, where the table is seen steeply, at what the detector
  sees in a view of it from straight above.
- ``_halved``: a face too large for a tile is looked at as its two halves, and a tile's half read as a whole
  face as the tile twice its size.
- ``_logo_sought``: the logo tile, looked for on the photo scaled for it.
- ``_last_of_set``: where the faces read all the set's tiles but one or two, those are looked for.
- ``read_both_ways``: a face read with doubt is read once more, straight and turned end for end, each also
  mirrored, and judged on the four looks.
- ``_cut_at_border``: tiles cut off by the photo's border, named in a warning and never read.

The looks live in a module each by what they look for: ``reshape`` (faces far from the plane's outline),
``splits`` (faces across two tiles, or on half of one), ``missing`` (tiles no face holds yet) and ``last``
(the logo tile, the set's last tiles, the border); what they share in ``common``. All of them call the
networks' stages through their modules (``reader.read_outlines``, ``detect.find_candidates``), so that a test
stands in for each in one place.

``Faces`` holds the faces with the reader's scores; which of them are tiles ``assemble`` decides. Where to
look again, and which look takes a face's place, the looks decide with ``assembly``'s judges (which faces are
read surely, how far a face lies from the plane's outline, which are cut off by the border).

Raises ``VisionInputError`` (``ValueError``) for an array that is not an image.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

import cv2
import numpy as np

from companion.vision import detect
from companion.vision import read as reader
from companion.vision.detect import busy_region, finer_side, merged
from companion.vision.looks.common import _frames
from companion.vision.looks.last import _cut_at_border, _last_of_set, _logo_sought
from companion.vision.looks.missing import _filled, _orphans, _seen_from_above
from companion.vision.looks.reshape import _reshaped
from companion.vision.looks.splits import _halved, _held_off_centre, _resplit, _split_in_two, _unread_pair, _unstraddled
from companion.vision.profile import Profile
from companion.vision.read import FaceReading, Pyramid, face_colour


class VisionInputError(ValueError):
    """An array that is not a BGR (or gray) uint8 image."""


def _check_image(image_bgr: np.ndarray) -> np.ndarray:
    if not isinstance(image_bgr, np.ndarray) or image_bgr.dtype != np.uint8:
        raise VisionInputError(f"expected a uint8 image array, got {type(image_bgr).__name__}"
                               f"{'' if not isinstance(image_bgr, np.ndarray) else ' of ' + str(image_bgr.dtype)}")
    if image_bgr.ndim == 2:
        return cv2.cvtColor(image_bgr, cv2.COLOR_GRAY2BGR)
    if image_bgr.ndim != 3 or image_bgr.shape[2] not in (3, 4) or min(image_bgr.shape[:2]) < 8:
        raise VisionInputError(f"expected an image of shape (h, w, 3), got {image_bgr.shape}")
    if image_bgr.shape[2] == 4:
        return cv2.cvtColor(image_bgr, cv2.COLOR_BGRA2BGR)
    return image_bgr


@dataclass(frozen=True)
class Faces:
    """What the networks saw in a photo, before any threshold but the detector's: every face the reader
    looked at, with its corners in photo pixels, and the photo's size."""

    faces: list[FaceReading]
    width: int
    height: int
    cut: list[np.ndarray] = field(default_factory=list)  # tiles cut off by the border, seen apart from the faces


def find_faces(image_bgr: np.ndarray, profile: Profile, *, photo_scale: float = 1.0,
               finer: Callable[[float], tuple[np.ndarray, float]] | None = None) -> Faces:
    """The networks' stages of ``read_tiles`` (same arguments): every candidate face, read."""
    image_bgr = _check_image(image_bgr)
    height, width = image_bgr.shape[:2]
    at_border: list = []  # the detector's weak peaks along the border: tiles cut off, their centre beyond it
    weak: list = []  # and inside it: a tile staggered against a neighbour, its peak merged into the neighbour's
    candidates = detect.find_candidates(image_bgr, profile, border=at_border, weak=weak)
    side = finer_side(candidates, max(height, width), profile)
    # one source for the second look and the reading: the finest either needs, decoded once
    need = photo_scale * max(height, width) / side if side else np.inf  # photo pixels per pixel, at most
    shortest = min((c.length for c in candidates), default=np.inf)
    if shortest < profile.read_min_length:
        need = min(need, photo_scale * shortest / profile.read_min_length)
    source, source_scale = image_bgr, 1.0  # source pixels per image_bgr pixel
    if finer is not None and photo_scale > 1.0 and need < photo_scale:
        finer_image, finer_scale = finer(max(1.0, need))
        if finer_scale < photo_scale:
            source, source_scale = _check_image(finer_image), photo_scale / finer_scale
    frames, weak_frames = _frames(candidates, source_scale), _frames(weak, source_scale)
    if side:
        coarse = [replace(c, centre=c.centre * source_scale, length=c.length * source_scale,
                          width=c.width * source_scale) for c in candidates]
        region = busy_region(coarse, source.shape[1], source.shape[0])
        fine_weak: list = []  # (a small tile's heat may peak weakly at the finer look only)
        fine = detect.find_candidates(source, profile, side=min(side, max(source.shape[:2])), region=region,
                                      weak=fine_weak)
        frames = [(c.centre, c.angle, c.length, c.width) for c in merged(fine, coarse)]
        weak_frames += _frames(fine_weak, 1.0)
    pyramid = Pyramid(source)
    read = reader.read_faces(pyramid, frames, profile)
    beside: list[np.ndarray] = []  # the other tile where a face read lay across two
    faces = _reshaped(pyramid, [f for f in read if f is not None], profile, beside)
    faces = _resplit(pyramid, faces, profile)
    looked: list[FaceReading] = []  # the faces looked along as straddles, or found so
    faces = _unstraddled(pyramid, faces, profile, looked)
    faces = _split_in_two(pyramid, faces, _held_off_centre(frames, read, faces, profile), profile)
    faces = _unread_pair(pyramid, faces, frames, read, profile)
    orphans, beside_orphans = _orphans(frames, read, faces, (source.shape[1], source.shape[0]), profile)
    above = _seen_from_above(pyramid, faces, profile)
    faces = _filled(pyramid, faces, orphans, beside_orphans + beside, profile, weak_frames, above)
    faces = _unstraddled(pyramid, faces, profile, looked)  # and the faces that filled a gap
    faces = _resplit(pyramid, faces, profile)  # (a face that filled a gap may read a tile read already)
    faces = _halved(pyramid, faces, profile)
    faces = _logo_sought(image_bgr, source_scale, pyramid, faces, profile)
    faces = _last_of_set(pyramid, faces, frames, profile)
    faces = reader.read_both_ways(pyramid, faces, profile)
    cut = _cut_at_border(pyramid, faces, _frames(at_border, source_scale), profile)
    to_photo = photo_scale / source_scale  # source pixels -> photo pixels
    faces = [replace(f, corners=(f.corners + 0.5) * to_photo - 0.5,
                     colour=face_colour(pyramid, f.corners) if f.tile_score >= profile.tile_threshold else None)
             for f in faces]
    return Faces(faces, round(width * photo_scale), round(height * photo_scale),
                 [(q + 0.5) * to_photo - 0.5 for q in cut])
