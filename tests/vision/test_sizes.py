"""The tiles of a set lie on one plane: a face far smaller or larger than tiles are where it lies is no tile."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np

from companion.vision import Faces, Profile, assemble
from companion.vision import geometry as geo
from companion.vision.read import FaceReading, Peak


def _face(x: float, y: float, length: float, pips=(2, 3), width: float | None = None,
          score: float = 0.99) -> FaceReading:
    halves = tuple(tuple([Peak(0.95, 0.3)] * n) for n in pips)
    return FaceReading(geo.quad_of((x, y), 0.3, length, width or length / 2), score, halves, 0.0)


def _steep_photo() -> list[FaceReading]:
    """Four rows of tiles seen at a slant: 200 px long near the camera (bottom), 80 px far off (top)."""
    faces = []
    for row, (y, length) in enumerate([(150, 80), (350, 111), (600, 153), (850, 200)]):
        for col in range(3):
            faces.append(_face(300 + 350 * col + 40 * row, y, length, pips=(row + 1, col + 4)))
    return faces


def test_far_tiles_of_a_steep_photo_are_kept_though_small():
    reading = assemble(Faces(_steep_photo(), 1400, 1000), Profile())
    assert len(reading.tiles) == 12


def test_marks_far_smaller_than_tiles_where_they_lie_are_dropped():
    marks = [_face(900 + 80 * i, 900, 50, pips=(0, i + 1)) for i in range(3)]  # numbers on a score card, near by
    reading = assemble(Faces(_steep_photo() + marks, 1400, 1000), Profile())
    assert len(reading.tiles) == 12
    assert all(t.corners[:, 1].mean() < 880 or geo.frame_of(t.corners)[2] > 150 for t in reading.tiles)


def test_a_patch_across_two_tiles_is_dropped_and_the_tiles_it_hid_come_back():
    faces = _steep_photo()[:-1]  # the near row's last tile (at 1120, 850) becomes two tiles side by side
    across = np.array([-np.sin(0.3), np.cos(0.3)]) * 50  # half a width, across the tiles' axis
    pair = [_face(*(np.array([1120.0, 850.0]) + d), 200, pips=(6, k)) for k, d in ((1, across), (2, -across))]
    patch = _face(1120, 850, 200, pips=(6, 6), width=200, score=0.999)  # surer than either: it hides them
    reading = assemble(Faces(faces + pair + [patch], 1400, 1000), Profile())
    assert len(reading.tiles) == 13
    assert {(6, 1), (6, 2)} <= {t.pips for t in reading.tiles} and (6, 6) not in {t.pips for t in reading.tiles}
    # without the ceiling the patch stays and hides them
    loose = assemble(Faces(faces + pair + [patch], 1400, 1000), replace(Profile(), size_ceiling=100.0))
    assert (6, 6) in {t.pips for t in loose.tiles} and len(loose.tiles) == 12


def test_a_near_tile_beside_a_line_of_play_is_not_judged_too_large():
    # a line of play seen steeply: five tiles nearly on one diagonal, the sixth near the camera off it. The
    # plane across the line is a guess (it predicts almost nothing there), so that tile is not judged.
    line = [(1371, 384, 148), (1270, 488, 138), (1096, 580, 179), (943, 699, 201), (741, 839, 227), (887, 1048, 262)]
    faces = [_face(x, y, size * np.sqrt(2), pips=(k % 7, 6)) for k, (x, y, size) in enumerate(line)]
    assert len(assemble(Faces(faces, 2048, 1536), Profile()).tiles) == 6


def test_a_near_tile_is_not_judged_too_large_by_faces_read_almost_without_confidence():
    # a close-up of one tile on grass (a generated photo, seed 83980): patches of grass read as small faces
    # almost without confidence made the tile look far too large for its place, and it was left out
    def patch(k: int, heat: float) -> FaceReading:
        return FaceReading(geo.quad_of((200 + 300 * (k % 3), 150 + 250 * (k // 3)), 0.3, 70, 35), 0.99,
                           (tuple([Peak(heat, 0.3)] * (k + 1)), ()), 0.0)

    near = _face(700, 700, 500, pips=(1, 1))
    doubtful = assemble(Faces([patch(k, 0.55) for k in range(6)] + [near], 1400, 1000), Profile())
    assert (1, 1) in {t.pips for t in doubtful.tiles}
    # the same faces read with some confidence are tiles' sizes, and the face far larger than they predict is left out
    sure = assemble(Faces([patch(k, 0.7) for k in range(6)] + [near], 1400, 1000), Profile())
    assert (1, 1) not in {t.pips for t in sure.tiles} and len(sure.tiles) == 6


def test_sizes_judge_nothing_with_floor_and_ceiling_far_off_or_too_few_faces():
    marks = [_face(900 + 80 * i, 900, 50, pips=(0, i + 1)) for i in range(3)]
    off = replace(Profile(), size_floor=0.0, size_ceiling=100.0)
    assert len(assemble(Faces(_steep_photo() + marks, 1400, 1000), off).tiles) == 15
    few = [_face(300, 850, 200), _face(650, 850, 200), _face(950, 900, 50, pips=(0, 1))]
    assert len(assemble(Faces(few, 1400, 1000), Profile()).tiles) == 3


def test_a_cluster_of_marks_is_dropped_though_it_fits_a_plane_of_its_own():
    # a score card near the camera (as in a generated photo): five digits read as faces, nearly as many as
    # the tiles, all in one corner, where the tiles would be largest
    tiles = [(301, 1058, 353), (1612, 450, 245), (952, 116, 176), (1204, 802, 311), (517, 885, 318), (552, 239, 192)]
    marks = [(1497, 1360, 82), (1453, 1386, 90), (1553, 1425, 86), (1782, 1420, 68), (1640, 1395, 74)]
    faces = [_face(x, y, size * np.sqrt(2), pips=(k, 6)) for k, (x, y, size) in enumerate(tiles)]
    faces += [_face(x, y, size * np.sqrt(2), pips=(0, k)) for k, (x, y, size) in enumerate(marks)]
    reading = assemble(Faces(faces, 2016, 1512), Profile())
    assert sorted(t.pips for t in reading.tiles) == sorted((k, 6) for k in range(6))


def test_marks_off_a_row_of_tiles_are_dropped_and_a_far_tile_off_it_is_kept():
    # five tiles side by side in a row tell nothing of how sizes change across it; a face less than half
    # as large as every tile is still a mark, while a far tile off the row, smaller but not that small, stays
    row = [_face(400 + 250 * k, 700 - 100 * k + dy, 400 + 15 * k, pips=(k, 5)) for k, dy in enumerate((0, 15, -10, 5, -5))]
    marks = [_face(1500 + 50 * i, 900 + 40 * i, 110, pips=(0, i + 1)) for i in range(3)]
    far = _face(500, 150, 260, pips=(6, 6))
    reading = assemble(Faces(row + marks + [far], 2000, 1200), Profile())
    assert sorted(t.pips for t in reading.tiles) == sorted([(k, 5) for k in range(5)] + [(6, 6)])


def test_no_one_face_drops_a_tile_off_a_line_of_play():
    # a line of play (9081 of the tuning photos): the logo double's outline, read too narrow and a little off
    # the line, alone fixed the slope of sizes across it, and the 1-0 turned off the line at its far end
    # looked too small for its place
    line = [(555, 567, 76, 141, 78), (666, 539, -16, 154, 69), (779, 510, 71, 139, 78), (886, 480, -14, 147, 68),
            (1166, 404, -16, 140, 68), (439, 599, -15, 162, 70), (205, 663, -15, 169, 73), (314, 618, -95, 147, 46),
            (1250, 490, 62, 147, 72), (1028, 442, -14, 144, 68)]
    faces = [FaceReading(geo.quad_of((x, y), np.radians(turn), length, width), 0.99,
                         ((Peak(0.95, 0.3),) * (k % 7), (Peak(0.95, 0.3),)), 0.0)
             for k, (x, y, turn, length, width) in enumerate(line)]
    assert len(assemble(Faces(faces, 1440, 1080), Profile()).tiles) == 10


def test_a_row_of_far_tiles_off_a_line_of_play_is_kept():
    # a line of play running down the photo (its doubles crosswise, the logo's outline read small), and from
    # its far end a row of far tiles going off to the left (a fresh photo, seed 69084). The line's own sizes
    # cannot tell how they change across it, yet a plane fitted to them once predicted tiles four times as
    # large as these six at the row's far end, and dropped them all as marks
    line = [(894, 874, -87, 164, 84), (918, 191, -88, 82, 59), (909, 472, 92, 110, 68), (896, 758, 5, 161, 74),
            (917, 253, 2, 122, 44), (903, 649, -87, 133, 70), (915, 321, -87, 94, 63), (912, 393, 3, 135, 52),
            (938, 557, -5, 90, 42)]
    row = [(717, 161, 2, 113, 39), (555, 234, -76, 87, 59), (830, 166, 3, 114, 40), (501, 212, -74, 85, 58),
           (632, 158, -76, 78, 54), (545, 154, 3, 113, 40)]
    faces = [FaceReading(geo.quad_of((x, y), np.radians(turn), length, width), 0.99,
                         ((Peak(0.95, 0.3),) * (k % 7), (Peak(0.95, 0.3),) * (k // 7 + 1)), 0.0)
             for k, (x, y, turn, length, width) in enumerate(line + row)]
    assert len(assemble(Faces(faces, 1440, 1080), Profile()).tiles) == 15
    # the line's sizes alone fit that slope closely: only its steepness tells it is a guess
    assert len(assemble(Faces(faces, 1440, 1080), replace(Profile(), size_steepest=1e9)).tiles) < 15


def test_a_face_two_tiles_long_is_looked_at_as_its_two_halves(monkeypatch):
    # the near row's last tile and one end to end with it, read as one face twice a tile's length: left to the
    # assembly it would be dropped as too large, both tiles missed; its halves, looked at, are the two tiles
    from companion.vision.looks import splits

    faces = _steep_photo()[:-1]
    long = _face(1120, 850, 400, pips=(6, 6), width=100)
    seen = []

    def read_outlines(pyramid, quads, profile, floor=None):  # each half a whole tile, read surely
        seen.extend(quads)
        return [FaceReading(q, 0.99, (tuple([Peak(0.95, 0.3)] * 5), tuple([Peak(0.95, 0.3)] * k)), 0.0, 0.5)
                for k, q in enumerate(quads)]

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    pyramid = SimpleNamespace(levels=[np.zeros((1000, 1400, 3), np.uint8)])
    found = splits._halved(pyramid, faces + [long], Profile())
    assert len(seen) == 2 and len(found) == len(faces) + 2 and all(f is not long for f in found)
    along = np.array([np.cos(0.3), np.sin(0.3)]) * 100
    assert np.allclose(sorted(geo.centre_of(f.corners).tolist() for f in found[-2:]),
                       sorted([(np.array([1120.0, 850.0]) + s * along).tolist() for s in (-1, 1)]))
    # halves the reader does not take for whole tiles leave the face as it was
    monkeypatch.setattr("companion.vision.read.read_outlines", lambda pyramid, quads, profile, floor=None: [
        FaceReading(q, 0.3, ((), ()), 0.0, 0.5) for q in quads])
    assert splits._halved(pyramid, faces + [long], Profile())[-1] is long
    # a tile of a tile's size is not looked at
    seen.clear()
    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    photo = _steep_photo()
    kept = splits._halved(pyramid, photo, Profile())
    assert seen == [] and len(kept) == len(photo) and all(a is b for a, b in zip(kept, photo))


def test_the_logo_tile_read_as_surely_as_no_card_is_never_too_large():
    # close to the camera the logo tile is far larger than the tiles around it predict; read as the logo
    # 0.99 surely it is one tile (no patch across two is read so), read so 0.9 surely it may be one
    def logo(score: float) -> FaceReading:
        return replace(_face(1120, 820, 400, pips=(0, 0), width=200), logo_score=score)  # inside the photo

    faces = _steep_photo()[:-1]
    sure = assemble(Faces(faces + [logo(0.99)], 1400, 1000), Profile())
    assert len(sure.tiles) == 12 and (0, 0) in {t.pips for t in sure.tiles}
    unsure = assemble(Faces(faces + [logo(0.9)], 1400, 1000), Profile())
    assert (0, 0) not in {t.pips for t in unsure.tiles}


def test_each_faces_plane_is_fitted_as_least_squares_would_even_with_the_faces_in_one_line():
    from companion.vision.assembly import _least_squares_each
    rng = np.random.default_rng(3)
    spread_out = np.column_stack([rng.uniform(0, 4000, 10), rng.uniform(0, 3000, 10), np.ones(10)])
    in_a_line = np.column_stack([np.arange(10) * 300.0, np.arange(10) * 150.0 + 40, np.ones(10)])  # rank 2
    sizes = rng.uniform(6, 9, 10)
    for places in (spread_out, in_a_line):
        masks = np.ones((10, 10), bool)
        masks[np.arange(10), np.arange(10)] = False  # each face left out in turn
        planes, spreads = _least_squares_each(places, sizes, masks)
        for mask, plane, spread in zip(masks, planes, spreads):
            expected = np.linalg.lstsq(places[mask], sizes[mask], rcond=None)[0]
            assert np.allclose(places[mask] @ plane, places[mask] @ expected)
            assert np.allclose(spread, np.linalg.pinv(places[mask].T @ places[mask]), rtol=1e-6, atol=1e-12)


def test_far_tiles_read_surely_past_a_near_row_are_kept():
    # a hand seen steeply (a fresh photo, seed 102101): three tiles side by side near the camera, two a third
    # of their length off, and two more beyond those. The plane through the near row, the larger half, guesses
    # at the far tiles' sizes; against it the two farthest looked like marks, and were once dropped as such
    near = [(407, 567, 250), (554, 554, 250), (697, 551, 248)]
    far = [(856, 202, 143), (445, 145, 130), (487, 102, 118), (528, 66, 107)]
    faces = [_face(x, y, length, pips=(k, 6)) for k, (x, y, length) in enumerate(near + far)]
    reading = assemble(Faces(faces, 1280, 720), Profile())
    assert len(reading.tiles) == 7
    # a mark below the floor of every tile there is still dropped
    mark = _face(640, 90, 50, pips=(0, 1))
    assert len(assemble(Faces(faces + [mark], 1280, 720), Profile()).tiles) == 7
