"""The colour distance every stage of the recognizer uses.

Entry point: ``lab_distance(lab, ref) -> np.ndarray``. Lab is OpenCV's 8-bit Lab (L, a, b each 0..255);
lightness counts a quarter, so that shading and glare on one face weigh less than a change of colour.
"""

from __future__ import annotations

import numpy as np

LIGHTNESS_WEIGHT = 0.25  # squared-distance weight of L against a and b


def lab_distance(lab: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Distance of each Lab pixel (..., 3) from the colour ``ref`` (3,), float32, in Lab units."""
    d = lab.astype(np.float32) - np.asarray(ref, np.float32)
    return np.sqrt(LIGHTNESS_WEIGHT * d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)
