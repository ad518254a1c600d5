"""The bad photos a party sends, and how fast and lean companion refuses each one.

``make_bad_photos(folder) -> {kind: path}`` writes one file per kind (the tests use it too): an empty
file, random bytes, a truncated JPEG, types companion does not read (PDF, EPS, SVG), tiny files that
declare 20000x20000 pixels (JPEG and PNG), a real 200-megapixel PNG (1-bit, so it is cheap to make),
and a phone screenshot with no tiles in it (read, and answered with a warning: it is a photo).

Run as a script, it measures each kind through the command line (``companion scan --json FILE`` in a
child process: wall time, and peak memory from ``wait4``) and through ``companion serve`` (``POST
/api/scan`` and ``/api/verify``: status and time, then the server's peak memory and whether it still
answers). Only 127.0.0.1 is contacted; temporary files only.

    .venv/bin/python benchmarks/bad_photos.py
"""

from __future__ import annotations

import io
import json
import os
import random
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOO_BIG_UPLOAD = 31 * 1024 * 1024  # over the server's 30 MB cap


def _png(width: int, height: int, *, bit_depth: int, colour_type: int, idat: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def _jpeg(width: int, height: int, quality: int = 90) -> bytes:
    from PIL import Image

    rng = random.Random(3)
    img = Image.new("RGB", (width, height))
    img.putdata([(x % 256, y % 256, rng.randrange(256)) for y in range(height) for x in range(width)])
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=quality)
    return buf.getvalue()


def _declaring(jpeg: bytes, width: int, height: int) -> bytes:
    """``jpeg`` with its frame header (SOF0) saying ``width`` x ``height``."""
    at = jpeg.index(b"\xff\xc0")
    return jpeg[:at + 5] + struct.pack(">HH", height, width) + jpeg[at + 9:]


def _two_hundred_megapixels() -> bytes:
    """A complete, valid 16384x12288 (201 MP) black PNG: 1 bit a pixel, so a few kB to make."""
    width, height = 16384, 12288
    row = b"\x00" * (1 + width // 8)  # filter byte, then the row's bits
    packer = zlib.compressobj(9)
    idat = b"".join(packer.compress(row * 1024) for _ in range(height // 1024)) + packer.flush()
    return _png(width, height, bit_depth=1, colour_type=0, idat=idat)


def _screenshot() -> bytes:
    """A phone's screenshot of a chat: bars, bubbles, text, no domino."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (1170, 2532), (245, 245, 247))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, 1170, 180), fill=(30, 30, 30))
    for k in range(12):
        y = 220 + 180 * k
        draw.rounded_rectangle((40, y, 1130, y + 150), radius=30, fill=(255, 255, 255), outline=(210, 210, 215))
        draw.ellipse((70, y + 30, 160, y + 120), fill=(0, 122, 255))
        draw.text((190, y + 50), f"Message {k}: see you at the party", fill=(0, 0, 0))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


# kind -> file name; the screenshot is the one kind that is read (no tiles, a warning), not refused
KINDS = {
    "empty": "empty.jpg",
    "random bytes": "noise.jpg",
    "truncated JPEG": "cut.jpg",
    "PDF": "scan.pdf",
    "EPS": "drawing.eps",
    "SVG": "logo.svg",
    "JPEG declaring 20000x20000": "huge-header.jpg",
    "PNG declaring 20000x20000": "huge-header.png",
    "200-megapixel PNG": "200mp.png",
    "screenshot, no tiles": "screenshot.png",
}
READ_NOT_REFUSED = {"screenshot, no tiles"}


def make_bad_photos(folder: Path) -> dict[str, Path]:
    """Write one file per kind of ``KINDS`` into ``folder``; returns ``{kind: path}``."""
    jpeg = _jpeg(640, 480)
    contents = {
        "empty": b"",
        "random bytes": random.Random(7).randbytes(200_000),
        "truncated JPEG": jpeg[: len(jpeg) * 2 // 5],
        "PDF": b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
        "EPS": b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 20000 20000\nshowpage\n%%EOF\n",
        "SVG": b'<svg xmlns="http://www.w3.org/2000/svg" width="20000" height="20000"><rect/></svg>',
        "JPEG declaring 20000x20000": _declaring(_jpeg(16, 16), 20000, 20000),
        "PNG declaring 20000x20000": _png(20000, 20000, bit_depth=8, colour_type=2, idat=zlib.compress(b"")),
        "200-megapixel PNG": _two_hundred_megapixels(),
        "screenshot, no tiles": _screenshot(),
    }
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for kind, name in KINDS.items():
        paths[kind] = folder / name
        paths[kind].write_bytes(contents[kind])
    return paths


# ``companion ARGS`` that writes its own peak memory (VmHWM) into $PEAK_FILE as it exits: the rusage of a
# child (wait4) would count the pages of the parent it was forked from, a large pytest process included
_CLI_REPORTING_PEAK = (
    "import atexit, os, sys\n"
    "def report():\n"
    "    status = open('/proc/self/status').read() if os.path.exists('/proc/self/status') else ''\n"
    "    open(os.environ['PEAK_FILE'], 'w').write(status)\n"
    "atexit.register(report)\n"
    "from companion.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def run_cli(*args: str) -> tuple[int, str, str, float, float]:
    """``companion ARGS`` in a child process: (exit status, stdout, stderr, seconds, peak MB)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r", suffix=".status") as peak_file:
        start = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-c", _CLI_REPORTING_PEAK, *args], cwd=ROOT, stdout=out,
                                 stderr=err, env={**os.environ, "PEAK_FILE": peak_file.name})
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here; tell Popen
        peak_mb = usage.ru_maxrss / 1024  # an upper bound where /proc is missing
        for line in peak_file.read().splitlines():
            if line.startswith("VmHWM:"):
                peak_mb = int(line.split()[1]) / 1024
        out.seek(0)
        err.seek(0)
        return child.returncode, out.read().decode(), err.read().decode(), seconds, peak_mb


def post_photo(port: int, path: str, name: str, data: bytes) -> tuple[int, dict, float]:
    """A multipart upload of ``data`` as the field ``photo``: (status, JSON answer, seconds)."""
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"{name}\"\r\n"
            f"Content-Type: application/octet-stream\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, method="POST",
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, answer = response.status, response.read()
    except urllib.error.HTTPError as exc:
        status, answer = exc.code, exc.read()
    return status, json.loads(answer), time.perf_counter() - start


def peak_memory_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise OSError(f"no VmHWM for process {pid}")


def main() -> int:
    from companion.web.local_server import LocalServer

    with tempfile.TemporaryDirectory() as folder:
        paths = make_bad_photos(Path(folder) / "bad")
        status, _, _, seconds, peak = run_cli("scan", "--json", str(Path(folder) / "missing.jpg"))
        print(f"command line, start-up alone (a missing file): {seconds:.2f} s, {peak:.0f} MB")
        print(f"{'kind':<28} {'exit':>4} {'time':>7} {'peak':>7}  message")
        for kind, path in paths.items():
            status, out, err, seconds, peak = run_cli("scan", "--json", str(path))
            answer = json.loads(out)
            message = answer.get("error") or "; ".join(answer.get("warnings", [])) or "(read)"
            print(f"{kind:<28} {status:>4} {seconds:>6.2f}s {peak:>5.0f}MB  {message[:90]}")

        server = LocalServer(Path(folder) / "party.sqlite3")
        port = server.port
        try:
            print(f"\nserver after start-up: {peak_memory_mb(server.pid):.0f} MB")
            print(f"{'kind':<28} {'/api/scan':>16} {'/api/verify':>16}")
            uploads = {kind: path.read_bytes() for kind, path in paths.items()}
            uploads["over the 30 MB cap"] = b"\xff" * TOO_BIG_UPLOAD
            for kind, data in uploads.items():
                cells = []
                for endpoint in ("/api/scan", "/api/verify"):
                    status, _, seconds = post_photo(port, endpoint, f"{kind}.jpg", data)
                    cells.append(f"{status} {1000 * seconds:>6.0f} ms")
                print(f"{kind:<28} {cells[0]:>16} {cells[1]:>16}")
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/presets", timeout=5) as response:
                alive = response.status == 200
            print(f"server peak memory over all of them: {peak_memory_mb(server.pid):.0f} MB; "
                  f"still answering: {alive}")
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
