"""Store a rendered photo the way phones often do: pixels turned, with an EXIF Orientation tag to undo it.

Entry point: ``with_orientation(jpeg_bytes, orientation, *, quality=95) -> bytes``. The label of the photo
does not change: labels are in pixels of the photo *as a person sees it* (EXIF orientation applied),
exactly as ``companion scan`` reports corners. Orientation 1 returns the bytes untouched; 3, 6 and 8
(turned 180, 90 clockwise, 90 counter-clockwise to view) are what cameras write.

Raises ``ValueError`` for any other orientation value.
"""

from __future__ import annotations

import io

from PIL import Image

# orientation tag -> the transpose that turns the upright photo into the stored pixels
_STORE = {3: Image.Transpose.ROTATE_180, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}
ORIENTATION_TAG = 0x0112


def with_orientation(jpeg_bytes: bytes, orientation: int, *, quality: int = 95) -> bytes:
    """The same photo, stored turned, with an EXIF tag so that viewers show it upright."""
    if orientation == 1:
        return jpeg_bytes
    if orientation not in _STORE:
        raise ValueError(f"unsupported EXIF orientation: {orientation!r} (use 1, 3, 6 or 8)")
    with Image.open(io.BytesIO(jpeg_bytes)) as img:
        stored = img.transpose(_STORE[orientation])
    exif = Image.Exif()
    exif[ORIENTATION_TAG] = orientation
    out = io.BytesIO()
    stored.save(out, format="JPEG", quality=quality, exif=exif.tobytes())
    return out.getvalue()
