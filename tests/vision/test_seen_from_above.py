"""Where the camera sees the table steeply, the detector looks again at the photo mapped to a view from straight
above, where far tiles look as near ones do; what it sees there on no face read surely is a candidate."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from companion.vision import Profile, count_pips
from companion.vision import geometry as geo
from companion.vision.detect import Candidate
from companion.vision.looks.missing import _seen_from_above

from drawing import read_face
from test_plane import _camera, _seen

PHOTO = (1280, 960)  # (width, height): the cameras' photos


class _Photo:
    """A stand-in for the reading's pyramid: the photo, white tiles on black."""

    def __init__(self, tiles: list[np.ndarray]):
        image = np.zeros((PHOTO[1], PHOTO[0], 3), np.uint8)
        for quad in tiles:
            cv2.fillConvexPoly(image, np.round(quad).astype(np.int32), (255, 255, 255))
        self.levels = [image]


def _tiles(tilt_deg: float) -> tuple[list[np.ndarray], np.ndarray]:
    """Four tiles near the camera (read surely) and one far off (missed), turned every way, seen at ``tilt_deg``."""
    camera = _camera(tilt_deg)
    sure = [_seen(x, y, turn, view=camera) for x, y, turn in [(0, -30, 0), (30, -25, 90), (-30, -20, 30), (0, 0, 60)]]
    return sure, _seen(15, 45, 20, view=camera)


def _blob_detector(views: list[np.ndarray]):
    """A detector that sees each white blob of the view as a face (its centre, axis and size), and keeps the views."""

    def find_candidates(image, profile, side=None, **_):
        views.append(image)
        contours, _ = cv2.findContours(cv2.inRange(image, (128, 128, 128), (255, 255, 255)), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
        out = []
        for contour in contours:
            (x, y), (w, h), angle = cv2.minAreaRect(contour)
            if w < h:
                w, h, angle = h, w, angle + 90
            out.append(Candidate(np.array([x, y]), np.radians(angle), w, h, 0.9))
        return out

    return find_candidates


def test_far_tiles_seen_steeply_look_as_near_ones_from_above_and_a_missed_one_is_a_candidate(monkeypatch):
    sure, missed = _tiles(50)
    views: list[np.ndarray] = []
    monkeypatch.setattr("companion.vision.detect.find_candidates", _blob_detector(views))
    profile = Profile()
    faces = [read_face(q, (2, k)) for k, q in enumerate(sure)]
    found = _seen_from_above(_Photo(sure + [missed]), faces, profile)
    # in the photo the far tile is a third the size of the nearest; from above every tile is as long as the
    # finer look has them, twice as long as wide
    areas = [cv2.contourArea(q.astype(np.float32)) for q in sure + [missed]]
    assert areas[-1] < 0.4 * max(areas)
    contours, _ = cv2.findContours(cv2.inRange(views[0], (128, 128, 128), (255, 255, 255)), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_SIMPLE)
    sizes = sorted(sorted(cv2.minAreaRect(c)[1]) for c in contours)
    assert len(sizes) == 5
    for short, long in sizes:
        assert abs(long - profile.detect_tile_px) < 0.08 * profile.detect_tile_px
        assert abs(long / short - profile.tile_aspect) < 0.2
    # the faces read surely are no candidates; the missed one is, its outline mapped back to the photo
    assert len(found) == 1 and geo.iou(found[0], missed) > 0.85


def test_a_view_nearly_from_above_is_not_looked_at_again(monkeypatch):
    sure, missed = _tiles(15)
    views: list[np.ndarray] = []
    monkeypatch.setattr("companion.vision.detect.find_candidates", _blob_detector(views))
    faces = [read_face(q, (2, k)) for k, q in enumerate(sure)]
    assert _seen_from_above(_Photo(sure + [missed]), faces, Profile()) == [] and not views


def test_one_face_read_surely_tells_the_view_from_above_by_its_corners(monkeypatch):
    sure, missed = _tiles(50)
    views: list[np.ndarray] = []
    monkeypatch.setattr("companion.vision.detect.find_candidates", _blob_detector(views))
    found = _seen_from_above(_Photo(sure + [missed]), [read_face(sure[3], (2, 3))], Profile())
    assert len(views) == 1 and len(found) == 4  # (every tile but the one read)
    assert max(geo.iou(q, missed) for q in found) > 0.85
    assert _seen_from_above(_Photo(sure + [missed]), [], Profile()) == [] and len(views) == 1


def test_where_few_faces_are_read_surely_the_whole_faces_tell_the_view_from_above(monkeypatch):
    sure, missed = _tiles(50)
    views: list[np.ndarray] = []
    monkeypatch.setattr("companion.vision.detect.find_candidates", _blob_detector(views))
    faces = [read_face(q, (2, k), heat=0.55) for k, q in enumerate(sure)]  # whole, settled, the pips in doubt
    assert all(count_pips(f, Profile()).confidence < Profile().doubt_below for f in faces)
    found = _seen_from_above(_Photo(sure + [missed]), faces, Profile())
    assert len(views) == 1 and len(found) == 5  # (on no face read surely: every face seen is a candidate)
    assert max(geo.iou(q, missed) for q in found) > 0.85
    # corners that still moved tell nothing
    unsettled = [replace(f, moved=Profile().square_on_px + 1) for f in faces]
    assert _seen_from_above(_Photo(sure + [missed]), unsettled, Profile()) == [] and len(views) == 1


def test_a_plank_read_surely_as_a_plain_blank_does_not_tell_the_view(monkeypatch):
    # in a set whose double-blank carries the logo, a face read 0-0 and not as the logo is a plank (step 4 leaves
    # it out); counted among the sure faces, a plank's outline, a square seen near, skews the view from above
    sure, missed = _tiles(50)
    views: list[np.ndarray] = []
    monkeypatch.setattr("companion.vision.detect.find_candidates", _blob_detector(views))
    plank = read_face(geo.quad_of((640, 250), 0.0, 150, 150), (0, 0))
    faces = [read_face(q, (2, k)) for k, q in enumerate(sure[:3])] + [plank]
    assert count_pips(plank, Profile()).confidence > Profile().doubt_below
    found = _seen_from_above(_Photo(sure + [missed]), faces, Profile())
    assert len(views) == 1 and max(geo.iou(q, missed) for q in found) > 0.85
    # a set with no logo has plain blanks: there it counts as a sure face (and here hides the view)
    assert _seen_from_above(_Photo(sure + [missed]), faces, Profile(logo=False)) == [] and len(views) == 1
