"""Every bad photo a party sends is refused clearly, quickly and with little memory, through the
command line and the API, and the server keeps serving. The files come from
``benchmarks/bad_photos.py`` (run it for the figures); time limits here are generous on purpose
(a shared CI machine), the measured figures are far below them."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from live_server import request_json

pytest.importorskip("companion.scanner")

ROOT = Path(__file__).resolve().parents[2]
MEMORY_LIMIT_MB = 200
SECONDS_PER_PHOTO = 3.0  # measured: a few ms through the API, about 0.4 s per CLI run with start-up


def _load_bad_photos():
    spec = importlib.util.spec_from_file_location("bad_photos", ROOT / "benchmarks" / "bad_photos.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bad_photos"] = module
    spec.loader.exec_module(module)
    return module


bad_photos = _load_bad_photos()
REFUSED = [kind for kind in bad_photos.KINDS if kind not in bad_photos.READ_NOT_REFUSED]


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    return bad_photos.make_bad_photos(tmp_path_factory.mktemp("bad"))


def test_the_command_line_refuses_each_in_one_line_and_little_memory(photos):
    files = [str(photos[kind]) for kind in REFUSED]
    status, out, err, seconds, peak_mb = bad_photos.run_cli("scan", "--json", *files)
    assert status == 1  # some input could not be processed
    answers = [json.loads(line) for line in out.splitlines()]
    assert [a["file"] for a in answers] == files and all(set(a) == {"file", "error"} for a in answers)
    lines = err.splitlines()
    assert len(lines) == len(files)  # one line per photo, naming it
    for line, name in zip(lines, files):
        assert line.startswith("companion scan: ") and name in line and "Traceback" not in line
    assert peak_mb < MEMORY_LIMIT_MB, f"{peak_mb:.0f} MB"
    assert seconds < SECONDS_PER_PHOTO * 2  # one start-up for all of them


def test_the_command_line_reads_a_screenshot_and_says_it_has_no_tiles(photos):
    status, out, err, _, peak_mb = bad_photos.run_cli("scan", "--json", str(photos["screenshot, no tiles"]))
    answer = json.loads(out)
    assert status == 0 and answer["tiles"] == [] and any("no tile" in w for w in answer["warnings"])
    assert peak_mb < MEMORY_LIMIT_MB, f"{peak_mb:.0f} MB"


@pytest.mark.parametrize("endpoint", ["/api/scan", "/api/verify"])
@pytest.mark.parametrize("kind", REFUSED)
def test_the_api_refuses_each_with_422_json(client, photos, kind, endpoint):
    start = time.perf_counter()
    response = client.post(endpoint, data={"photo": (io.BytesIO(photos[kind].read_bytes()), "party.jpg")},
                           content_type="multipart/form-data")
    assert time.perf_counter() - start < SECONDS_PER_PHOTO
    assert response.status_code == 422 and response.is_json
    assert response.json["error"] and "Traceback" not in response.json["error"]


def test_the_server_keeps_serving_through_every_bad_photo_and_an_oversized_upload(start_server, photos):
    server = start_server()
    uploads = {kind: photos[kind].read_bytes() for kind in REFUSED}
    uploads["too big"] = b"\xff" * bad_photos.TOO_BIG_UPLOAD
    for kind, data in uploads.items():
        for endpoint in ("/api/scan", "/api/verify"):
            status, answer, seconds = bad_photos.post_photo(server.port, endpoint, "party.jpg", data)
            assert (status, kind) == (413 if kind == "too big" else 422, kind) and answer["error"]
            assert seconds < SECONDS_PER_PHOTO, (kind, endpoint, seconds)
            if kind == "too big":
                assert answer["error"].startswith("upload too large")
    assert request_json(server.port, "GET", "/api/presets")[0] == 200
    if Path(f"/proc/{server.process.pid}/status").exists():
        assert bad_photos.peak_memory_mb(server.process.pid) < MEMORY_LIMIT_MB


def test_opencv_refuses_a_huge_declared_image_too(photos):
    """Nothing decodes uploads with OpenCV, but if something did, its pixel limit is set before import."""
    code = ("import companion.scanner, cv2, numpy, os, sys\n"
            "assert int(os.environ['OPENCV_IO_MAX_IMAGE_PIXELS']) <= 1 << 26\n"
            "data = numpy.fromfile(sys.argv[1], numpy.uint8)\n"
            "try:\n    image = cv2.imdecode(data, cv2.IMREAD_COLOR)\nexcept cv2.error:\n    image = None\n"
            "assert image is None\n")
    done = subprocess.run([sys.executable, "-c", code, str(photos["JPEG declaring 20000x20000"])],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
