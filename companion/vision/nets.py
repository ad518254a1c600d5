"""The recognizer's two networks, run by ONNX Runtime.

Entry point: ``network(name) -> Network`` for a file in ``companion/vision/models/`` (``detector.onnx``,
``reader.onnx``; ``reader-all-sets.onnx``, the reader of other sets), made by ``calibration.training`` from
synthetic photos; ``Network.run(x, outputs)``.
Their weights are package data, loaded once per process. ONNX Runtime runs them about twice as fast as
OpenCV's DNN module on the same core with the same results, and a session may serve many threads at once
(the web server has many).

A session uses as many threads as OpenCV was given (``cv2.setNumThreads``) when it was loaded, so that one
setting governs all the work of a scan.

Raises ``ModelError`` (``ValueError``) for a model file that is missing or not a network.
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

MODELS_DIR = Path(__file__).resolve().parent / "models"

_lock = threading.Lock()
_sessions: dict[str, "Network"] = {}


class ModelError(ValueError):
    """A network file that is missing or cannot be read."""


class Network:
    """One network file, ready to run on NCHW float32 batches."""

    def __init__(self, path: Path) -> None:
        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, cv2.getNumThreads())
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # errors only: a shape hint it cannot use is not the user's concern
        try:
            self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # noqa: BLE001 - ONNX Runtime raises its own exception types for a bad file
            raise ModelError(f"network {path.name!r} cannot be read: {exc}") from None
        self.input = self.session.get_inputs()[0].name

    def run(self, x: np.ndarray, outputs: list[str] | None = None) -> list[np.ndarray]:
        """The named outputs (all, in the file's order, if None) for the input batch ``x``."""
        return self.session.run(outputs, {self.input: x})


def network(name: str) -> Network:
    """The network stored as ``models/NAME``, or at ``NAME`` if that is an absolute path (a trained one
    tried in its place; loaded once)."""
    with _lock:
        net = _sessions.get(name)
        if net is None:
            path = MODELS_DIR / name
            if not path.is_file():
                raise ModelError(f"no network {name!r} in {MODELS_DIR}")
            net = _sessions[name] = Network(path)
    return net


def blob(images: list[np.ndarray]) -> np.ndarray:
    """BGR uint8 images of one size -> the networks' input, NCHW float32 in -1..1 (as OpenCV's
    ``blobFromImages`` makes it, in a third of its time)."""
    out = np.ascontiguousarray(np.stack(images).transpose(0, 3, 1, 2), dtype=np.float32)
    out -= np.float32(127.5)
    out *= np.float32(1 / 127.5)
    return out


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -30, 30)))
