"""The recognizer's two networks, run by OpenCV's DNN module.

Entry point: ``network(name) -> cv2.dnn.Net`` for a file in ``companion/vision/models/`` (``detector.onnx``,
``reader.onnx``), made by ``calibration.training`` from synthetic photos. Their weights are package data,
read once per thread (an OpenCV net must not run in two threads at once, and the web server has many).

Raises ``ModelError`` (``ValueError``) for a model file that is missing or not a network.
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np

MODELS_DIR = Path(__file__).resolve().parent / "models"

_local = threading.local()


class ModelError(ValueError):
    """A network file that is missing or cannot be read."""


def network(name: str) -> cv2.dnn.Net:
    """The network stored as ``models/NAME`` (loaded once per thread)."""
    cache = getattr(_local, "nets", None)
    if cache is None:
        cache = _local.nets = {}
    net = cache.get(name)
    if net is None:
        path = MODELS_DIR / name
        if not path.is_file():
            raise ModelError(f"no network {name!r} in {MODELS_DIR}")
        try:
            net = cv2.dnn.readNetFromONNX(str(path))
        except cv2.error as exc:
            raise ModelError(f"network {name!r} cannot be read: {exc}") from None
        cache[name] = net
    return net


def blob(images: list[np.ndarray]) -> np.ndarray:
    """BGR uint8 images of one size -> the networks' input, NCHW float32 in -1..1."""
    return cv2.dnn.blobFromImages(images, scalefactor=1 / 127.5, mean=(127.5, 127.5, 127.5), swapRB=False)


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -30, 30)))
