"""Load a photo as phones save it: JPEG (with EXIF orientation), PNG, HEIC, WebP, and a few more.

Entry point: ``load_photo(source, *, max_pixels=..., draft_side=None) -> np.ndarray`` (BGR uint8, in the
orientation a person sees). ``source`` is a path or the file's bytes.

The header is read first (by Pillow) so that a file declaring a huge image is refused before it is decoded.
A colour JPEG that ends as a whole one does is decoded by OpenCV, which gives the same pixels as Pillow in
about half the time (it writes BGR directly); the rest by Pillow, which also names what is wrong with a
damaged file. ``draft_side`` lets a JPEG be decoded reduced (1/2, 1/4, 1/8, as Pillow's draft mode picks)
when a smaller image is enough; the result then is smaller than the photo (``photo_size`` gives the full size).

Raises ``PhotoError`` (``ValueError``) subclasses whose messages name the file: ``PhotoNotFoundError``,
``PhotoFormatError`` (not an image, or truncated), ``PhotoTooLargeError``.
"""

from __future__ import annotations

import io
import os
import struct
from pathlib import Path

os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(1 << 26))  # before cv2 is imported anywhere

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from PIL import Image, ImageOps, UnidentifiedImageError  # noqa: E402

try:  # HEIC/HEIF as iPhones save them
    from pillow_heif import register_heif_opener

    register_heif_opener()
    HEIF_SUPPORTED = True
except ImportError:  # pragma: no cover - pillow-heif is a dependency, but keep JPEG/PNG working without it
    HEIF_SUPPORTED = False

MAX_PIXELS = 50_000_000  # 50 MP: well above any phone photo, far below what would exhaust memory

# The formats phones and screenshots are saved in (JPEG includes MPO). Anything else is refused at the header, so that no
# exotic decoder runs on an upload (Pillow would hand an EPS file to Ghostscript, for one).
PHOTO_FORMATS = ("JPEG", "PNG", "WEBP", "GIF", "BMP", "TIFF") + (("HEIF",) if HEIF_SUPPORTED else ())
# What Pillow's format plugins and decoders raise on a damaged header or damaged data
_DAMAGED = (OSError, SyntaxError, ValueError, EOFError, IndexError, struct.error)
_READABLE = "JPEG, PNG, HEIC, WebP, GIF, BMP or TIFF" if HEIF_SUPPORTED else "JPEG, PNG, WebP, GIF, BMP or TIFF"


class PhotoError(ValueError):
    """A photo that cannot be read."""


class PhotoNotFoundError(PhotoError):
    """No file at the path given."""


class PhotoFormatError(PhotoError):
    """Not an image Pillow can decode, or a truncated one."""


class PhotoTooLargeError(PhotoError):
    """An image whose header declares more pixels than allowed."""


def _name(source: str | Path | bytes) -> str:
    return "uploaded photo" if isinstance(source, (bytes, bytearray)) else repr(str(source))


def _open(source: str | Path | bytes) -> Image.Image:
    try:
        if isinstance(source, (bytes, bytearray)):
            if not source:
                raise PhotoFormatError("uploaded photo is empty")
            return Image.open(io.BytesIO(bytes(source)), formats=PHOTO_FORMATS)
        path = Path(source)
        if not path.is_file():
            raise PhotoNotFoundError(f"no such photo: {str(source)!r}")
        if path.stat().st_size == 0:
            raise PhotoFormatError(f"{_name(source)} is empty")
        return Image.open(path, formats=PHOTO_FORMATS)
    except PhotoError:
        raise
    except UnidentifiedImageError:
        raise PhotoFormatError(f"{_name(source)} is not an image this program can read ({_READABLE})") from None
    except Image.DecompressionBombError:  # Pillow's own limit, met before ours on absurd headers
        raise PhotoTooLargeError(f"{_name(source)} is too large: its header declares more than "
                                 f"{Image.MAX_IMAGE_PIXELS * 2 // 1_000_000} megapixels") from None
    except _DAMAGED as exc:  # e.g. "Truncated IHDR chunk"
        raise PhotoFormatError(f"{_name(source)} cannot be opened: {exc}") from None


def _orientation(img: Image.Image) -> int:
    """The EXIF orientation (1: as stored, 2-8: mirrored and/or turned)."""
    try:
        return int(img.getexif().get(0x0112, 1))
    except Exception:  # noqa: BLE001 - a broken EXIF block must not stop the photo from loading
        return 1


def _oriented_size(img: Image.Image) -> tuple[int, int]:
    w, h = img.size
    return (h, w) if _orientation(img) in (5, 6, 7, 8) else (w, h)


def photo_size(source: str | Path | bytes) -> tuple[int, int]:
    """(width, height) as a person sees the photo, read from the header only."""
    with _open(source) as img:
        return _oriented_size(img)


def load_photo(source: str | Path | bytes, *, max_pixels: int = MAX_PIXELS,
               draft_side: int | None = None) -> np.ndarray:
    """Decode ``source`` to a BGR uint8 array with its EXIF orientation applied."""
    img = _open(source)
    with img:
        w, h = img.size
        if w * h > max_pixels:
            raise PhotoTooLargeError(f"{_name(source)} is too large: {w}x{h} pixels "
                                     f"(at most {max_pixels // 1_000_000} megapixels)")
        least = None
        if draft_side and img.format == "JPEG" and max(w, h) > draft_side:
            # decodes at 1/2, 1/4 or 1/8 when the result keeps its longer side at least draft_side
            s = draft_side / max(w, h)
            least = (max(1, int(w * s)), max(1, int(h * s)))
        if img.format == "JPEG" and img.mode == "RGB":
            fast = _jpeg_by_opencv(source, _reduction(w, h, *least) if least else 1)
            if fast is not None:
                return fast
        if least:
            img.draft("RGB", least)
        try:
            img.load()
            if _orientation(img) != 1:  # each step copies a 12 MP photo: only when it changes something
                img = ImageOps.exif_transpose(img)
            rgb = img if img.mode == "RGB" else img.convert("RGB")
            arr = np.asarray(rgb)
        except _DAMAGED as exc:
            raise PhotoFormatError(f"{_name(source)} is damaged or truncated: {exc}") from None
    return cv2.cvtColor(arr, cv2.COLOR_RGB2BGR)


def _reduction(w: int, h: int, least_w: int, least_h: int) -> int:
    """The JPEG reduction (1, 2, 4 or 8) that Pillow's draft mode takes for an image at least
    ``least_w`` x ``least_h``."""
    most = min(w // least_w, h // least_h)
    return next(r for r in (8, 4, 2, 1) if r <= most)


_OPENCV_FLAGS = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
                 8: cv2.IMREAD_REDUCED_COLOR_8}


def _jpeg_by_opencv(source: str | Path | bytes, reduction: int) -> np.ndarray | None:
    """The colour JPEG ``source`` decoded by OpenCV (reduced by ``reduction``, its EXIF orientation applied),
    or None where Pillow should decode it: a file that does not end with the end-of-image marker may be cut
    short, which OpenCV decodes silently (grey below the cut) and Pillow refuses."""
    data = source if isinstance(source, (bytes, bytearray)) else Path(source).read_bytes()
    if not data.endswith(b"\xff\xd9"):
        return None
    return cv2.imdecode(np.frombuffer(data, np.uint8), _OPENCV_FLAGS[reduction])
