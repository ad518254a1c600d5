"""The annotated picture: outlines and readings on the photo, totals and warnings in a band below it."""

import numpy as np

from companion.scanner import annotate
from companion.vision import Reading, TileReading


def _reading(warnings=(), confidence=0.95):
    corners = np.array([[100.0, 100.0], [160.0, 100.0], [160.0, 220.0], [100.0, 220.0]])
    return Reading([TileReading((6, 4), corners, confidence)], list(warnings))


def test_the_photo_is_kept_whole_and_the_band_grows_with_the_warnings():
    photo = np.full((400, 600, 3), 90, np.uint8)
    quiet = annotate(photo, _reading())
    noisy = annotate(photo, _reading(["a tile cut off by the top border of the photo was left out"] * 3))
    assert quiet.shape[1] == noisy.shape[1] == 600
    assert 400 < quiet.shape[0] < noisy.shape[0]
    # nothing is drawn over the photo away from the tile: warnings no longer cover it
    assert (noisy[:90, :] == 90).all() and (noisy[240:400, :] == 90).all()


def test_the_tile_is_outlined_in_its_confidence_colour():
    out = annotate(np.full((400, 600, 3), 90, np.uint8), _reading())
    left_edge = out[160, 98:103]  # the outline's left side runs down x=100
    assert (left_edge[:, 1] > 150).any()  # green for a sure reading
    doubtful = annotate(np.full((400, 600, 3), 90, np.uint8), _reading(confidence=0.3), doubt_below=0.5)
    assert (doubtful[160, 98:103, 2] > 200).any() and (doubtful[160, 98:103, 1] < 100).all()  # red: check it


def test_a_long_warning_wraps_inside_the_picture():
    photo = np.full((200, 300, 3), 90, np.uint8)
    out = annotate(photo, _reading(["word " * 60]))
    band = out[200:]
    assert band.shape[0] > 60  # several lines
    assert (band[:, -3:] == 24).all()  # and none runs off the right edge


def test_a_face_left_out_is_drawn_dashed_in_amber_where_it_lies():
    photo = np.full((400, 600, 3), 90, np.uint8)
    cut = np.array([[400.0, -60.0], [520.0, -60.0], [520.0, 60.0], [400.0, 60.0]])  # beyond the top border
    out = annotate(photo, Reading(_reading().tiles, ["a tile cut off by the top border was left out"], [cut]))
    side = out[:60, 518:523]  # its right side runs down x=520 inside the photo
    amber = (side[..., 2] > 200) & (side[..., 1] > 180) & (side[..., 0] < 80)
    dashed = amber.any(axis=1)
    assert dashed.any() and not dashed.all()  # dashes and gaps
    assert (annotate(photo, _reading())[:60, 518:523] == 90).all()
