"""Find where tiles lie: the detector network on the photo reduced to ``profile.detect_side`` pixels.

Entry point: ``find_candidates(image_bgr, profile) -> list[Candidate]``, each a tile's rough frame (centre,
long axis, length, width, in ``image_bgr``'s pixels) and the detector's score, best first. The network
marks the centre of every tile face it sees (a heat map at a quarter of its input) and, at each centre,
the face's offset, axis and size; a candidate is a local peak of that heat. Faces cut by the photo's border
are found too when their centre is in the photo: telling them apart is the reader's stage.

Conventions as in ``companion.vision``: BGR uint8, xy pixels. Raises nothing for an empty photo (no
candidates).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.nets import blob, network, sigmoid
from companion.vision.profile import Profile

STRIDE = 4  # the heat map is a quarter of the network's input
SIZE_UNIT = 32.0  # sizes come as log(pixels / SIZE_UNIT)
PAD = 32  # the network's input is a multiple of this


@dataclass(frozen=True)
class Candidate:
    centre: np.ndarray  # (2,) xy
    angle: float  # long axis, radians (either direction)
    length: float
    width: float
    score: float  # the detector's heat at the centre, 0..1


def _network_input(image_bgr: np.ndarray, side: int) -> tuple[np.ndarray, float]:
    h, w = image_bgr.shape[:2]
    s = side / max(h, w)
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    small = cv2.resize(image_bgr, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    ph, pw = -(-nh // PAD) * PAD, -(-nw // PAD) * PAD
    if (ph, pw) != (nh, nw):  # grey beyond the photo, as in training
        small = cv2.copyMakeBorder(small, 0, ph - nh, 0, pw - nw, cv2.BORDER_CONSTANT, value=(127, 127, 127))
    return small, s


def find_candidates(image_bgr: np.ndarray, profile: Profile) -> list[Candidate]:
    """Every place the detector sees a tile face, best first (see the module docstring)."""
    small, s = _network_input(image_bgr, profile.detect_side)
    net = network(profile.detector)
    net.setInput(blob([small]))
    maps = net.forward()[0]
    heat = sigmoid(maps[0])
    peak = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    rows, cols = np.nonzero((heat >= peak) & (heat >= profile.detect_threshold))
    found = []
    for i, j in zip(rows, cols):
        cx = (j * STRIDE + (STRIDE - 1) / 2 + maps[1, i, j] * STRIDE) / s
        cy = (i * STRIDE + (STRIDE - 1) / 2 + maps[2, i, j] * STRIDE) / s
        angle = 0.5 * math.atan2(float(maps[4, i, j]), float(maps[3, i, j]))
        length = SIZE_UNIT * math.exp(float(np.clip(maps[5, i, j], -5, 5))) / s
        width = SIZE_UNIT * math.exp(float(np.clip(maps[6, i, j], -5, 5))) / s
        found.append(Candidate(np.array([cx, cy]), angle, length, width, float(heat[i, j])))
    found.sort(key=lambda c: -c.score)
    return found
