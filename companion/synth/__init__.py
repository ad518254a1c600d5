"""Synthetic photos of the giant wooden domino set, with labels, for testing and measuring the recognizer.

Entry points: ``render_scene(seed, *, kind="hand", style=None, size=None, ...) -> (image_bgr, label)`` and
``render_photo(...) -> (jpeg_bytes, label)`` (the same photo as the file to write).
Kinds: ``KINDS`` (hand, touching, crowd, full-set, layout); styles: ``STYLE_NAMES`` (pine-black,
dark-light, ivory-black, walnut-black, painted-white; None = a random giant wooden set); grounds:
``GROUNDS``; lights: ``LIGHTS``. The label format is described in ``render``.

This package only renders; it reads and writes no files (``benchmarks/make_photos.py`` does that).
"""

from companion.synth.backgrounds import GROUNDS, UnknownGroundError
from companion.synth.layouts import KINDS, UnknownKindError
from companion.synth.render import LIGHTS, InvalidSceneError, UnknownLightError, render_photo, render_scene
from companion.synth.styles import STYLE_NAMES, UnknownStyleError

__all__ = ["render_scene", "render_photo", "KINDS", "STYLE_NAMES", "GROUNDS", "LIGHTS", "UnknownKindError", "UnknownStyleError",
           "UnknownGroundError", "UnknownLightError", "InvalidSceneError"]
