"""A face read as the logo tile less surely than ``logo_sure`` is that tile only where it has a tile's shape by
what the faces read surely around it predict (or where too few of them predict anything): a score card with a
round print reads as the logo almost as surely as the tile does, and is left out with a warning that names it."""

from __future__ import annotations

from companion.vision import Faces, Profile, assemble
from companion.vision import geometry as geo
from companion.vision.read import FaceReading

from drawing import peaks

LENGTH, WIDTH = 160.0, 80.0
PIPS = [(3, 2), (5, 1), (6, 4)]


def _row(n: int = 3) -> list[FaceReading]:
    """``n`` tiles read surely, side by side along the top of the photo."""
    return [FaceReading(geo.quad_of((200 + 250 * k, 150), 0.0, LENGTH, WIDTH), 0.99,
                        tuple(peaks(p) for p in PIPS[k]), 0.0, 0.5) for k in range(n)]


def _logo(quad, logo_score: float) -> FaceReading:
    return FaceReading(quad, 0.99, ((), ()), logo_score, 0.5)


TILE_SHAPED = geo.quad_of((450, 450), 0.0, LENGTH, WIDTH)
CARD = geo.quad_of((450, 450), 0.3, 1.4 * WIDTH, 1.3 * WIDTH)  # a card, near square, turned a little


def _read(faces: list[FaceReading], profile: Profile = Profile()) -> tuple[list[tuple[int, int]], list[str]]:
    reading = assemble(Faces(faces, 1000, 700), profile)
    return sorted(t.pips for t in reading.tiles), reading.warnings


def test_a_face_read_as_the_logo_with_doubt_and_of_no_tiles_shape_is_left_out_and_named():
    pips, warnings = _read(_row() + [_logo(CARD, 0.95)])
    assert (0, 0) not in pips and len(pips) == 3
    assert len(warnings) == 1 and "logo tile" in warnings[0] and "x=450, y=450" in warnings[0]


def test_the_logo_read_surely_or_of_a_tiles_shape_stays():
    for face in (_logo(CARD, 0.99), _logo(TILE_SHAPED, 0.95)):
        pips, warnings = _read(_row() + [face])
        assert (0, 0) in pips and warnings == []
    # how sure the logo must be lives in the profile
    assert (0, 0) in _read(_row() + [_logo(CARD, 0.95)], Profile(logo_sure=0.9))[0]
    # a set without a logo reads a plain blank face as 0-0, its shape aside
    assert (0, 0) in _read(_row() + [_logo(CARD, 0.95)], Profile(logo=False))[0]


def test_with_fewer_than_two_other_faces_read_surely_nothing_judges_a_doubtful_logo_and_it_stays():
    # one tile gives no plane: in a hand of a tile or two, the logo tile read in part is likelier than a card
    for n in (0, 1):
        pips, warnings = _read(_row(n) + [_logo(CARD, 0.95)])
        assert (0, 0) in pips and len(pips) == n + 1 and warnings == []
    # two do, and the face itself is no witness to its own shape, however surely it is read otherwise
    assert _read(_row(2) + [_logo(CARD, 0.95)])[0] == [(3, 2), (5, 1)]
    assert _read(_row(2) + [_logo(TILE_SHAPED, 0.95)])[0] == [(0, 0), (3, 2), (5, 1)]
