"""Read every domino tile in a photo: ``read_tiles(image_bgr, profile) -> Reading``.

``read_tiles`` is ``assemble(find_faces(...))``: the networks' stages, then the thresholds and the
set's rules (calibration runs the first once and tries thresholds on the second). One module per stage:

- ``detect``: where tiles lie, a network's guess at each face's centre, axis and size on the photo reduced
  to about 768 pixels.
- ``read``: each guess cropped from the photo, and a second network's marks of the face's corners and pips.
- ``plane``: the outline a tile has at a place, predicted from the faces read surely around it; lines of
  play, gaps and ends.
- ``looks``: ``find_faces``, the looks that run the three above until every face reads as a tile (or
  surely as none): ``Faces``, before any threshold but the detector's. A module for each kind of look.
- ``assembly``: ``assemble``, the thresholds and the set's rules over ``Faces``: a ``Reading``, with
  warnings.
- ``junctions``: which tiles of a reading touch, for ``companion verify``.
- ``geometry`` (frames, crops, outlines), ``profile`` (every threshold), ``nets`` (the networks' runtime).

The networks are trained on synthetic photos (``calibration.training``); their weights ship as package data
in ``models/`` and are the only files this package reads.

Conventions, stated once for the package: images are BGR uint8 (``image_bgr``); points are ``xy``
float64 (OpenCV order) and arrays are indexed ``[row, col]``. ``TileReading.corners`` go clockwise around
the face as seen in the photo, with corners[0]-corners[1] the short edge at the end of ``pips[0]``.

Raises ``VisionInputError`` (``ValueError``) for an array that is not an image.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(1 << 26))  # before cv2 is imported anywhere

from typing import Callable  # noqa: E402

import numpy as np  # noqa: E402

from companion.vision.assembly import NO_TILE_WARNING, Reading, TileReading, assemble, hard_to_read  # noqa: E402
from companion.vision.looks import Faces, VisionInputError, find_faces  # noqa: E402
from companion.vision.profile import Profile  # noqa: E402
from companion.vision.read import count_pips  # noqa: E402

__all__ = ["Profile", "Reading", "TileReading", "Faces", "VisionInputError", "read_tiles", "find_faces", "assemble",
           "hard_to_read", "count_pips", "NO_TILE_WARNING"]


def read_tiles(image_bgr: np.ndarray, profile: Profile | None = None, *, photo_scale: float = 1.0,
               finer: Callable[[float], tuple[np.ndarray, float]] | None = None) -> Reading:
    """Find and read every whole tile in ``image_bgr``; cut-off tiles and doubts go to ``warnings``.

    Rare options, for a photo decoded reduced (JPEG draft mode): ``photo_scale`` is how many photo pixels
    one pixel of ``image_bgr`` spans (corners and warnings are given in photo pixels), and ``finer(scale)``
    returns the photo decoded at a reduction of at most ``scale`` and that reduction; it is called at most
    once, when a face is shorter than ``profile.read_min_length`` pixels of ``image_bgr``.
    """
    profile = profile or Profile()
    return assemble(find_faces(image_bgr, profile, photo_scale=photo_scale, finer=finer), profile)
