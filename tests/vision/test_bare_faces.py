"""Faces that show little that makes them a tile: a face with at most one pip, a second logo tile, a face
the reader is unsure is whole."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.vision import Faces, Profile, assemble, count_pips
from companion.vision import geometry as geo
from companion.vision.read import FaceReading, Peak

from drawing import peaks


def _face(x: float, pips: tuple[int, int], score: float, logo: float = 0.0) -> FaceReading:
    halves = tuple(peaks(n, 0.95) for n in pips)
    return FaceReading(geo.quad_of((x, 300), 0.0, 160, 80), score, halves, logo)


def test_a_one_pip_face_needs_a_surer_tile_score_than_others():
    plank = replace(_face(150, (1, 0), 0.9), corners=geo.quad_of((150, 300), 0.0, 220, 60))  # of no tile's shape
    faces = [plank, _face(400, (2, 0), 0.9), _face(650, (0, 1), 0.99), _face(900, (0, 0), 0.9, 0.99)]
    read = {t.pips for t in assemble(Faces(faces, 1100, 600), Profile()).tiles}
    # a plank with a knot is dropped; two pips, a surer tile score, or the logo tile stay
    assert read == {(2, 0), (0, 1), (0, 0)}
    # (without the other 0-1: the plank, read as the same tile as it, would be read with doubt)
    alone = faces[:2] + faces[3:]
    loose = {t.pips for t in assemble(Faces(alone, 1100, 600), Profile(bare_tile_threshold=0.8)).tiles}
    assert loose == {(1, 0), (2, 0), (0, 0)}
    # a one-pip face of a tile's shape there, its pip read surely, is a tile
    shaped = [_face(150, (1, 0), 0.9)] + faces[1:]
    assert {t.pips for t in assemble(Faces(shaped, 1100, 600), Profile()).tiles} == {(1, 0), (2, 0), (0, 1), (0, 0)}


def test_of_faces_taken_for_the_logo_tile_only_the_surest_is_kept():
    # the set has one logo tile: a score card's words, read as a second logo, are no tile
    faces = [_face(150, (0, 0), 0.99, logo=0.7), _face(400, (0, 0), 0.99, logo=0.99), _face(650, (3, 2), 0.99)]
    read = assemble(Faces(faces, 1100, 600), Profile()).tiles
    assert sorted(t.pips for t in read) == [(0, 0), (3, 2)]
    assert [t for t in read if t.pips == (0, 0)][0].corners[:, 0].mean() > 300  # the surer logo, at x=400
    # a set without a logo keeps every plain double-blank (and warns of the same tile twice)
    plain = assemble(Faces(faces, 1100, 600), Profile(logo=False))
    assert sorted(t.pips for t in plain.tiles) == [(0, 0), (0, 0), (3, 2)] and plain.warnings


def test_a_doubtful_face_of_another_colour_than_the_set_is_no_tile():
    pine, shaded_pine, grass = (72.0, 6.0, 30.0), (38.0, 8.0, 24.0), (55.0, -28.0, 40.0)
    doubtful = (peaks(2, 0.95), peaks(2, heats=(0.95, 0.55)))  # its second half 1 or 2

    def face(x, colour, halves=None, pips=(3, 2)):
        return replace(_face(x, pips, 0.99), colour=colour, **({"peaks": halves} if halves else {}))

    sure = [face(150 + 250 * k, pine, pips=pips) for k, pips in enumerate([(5, 1), (6, 4), (4, 4)])]
    read = assemble(Faces(sure + [face(900, grass, doubtful), face(1150, shaded_pine, doubtful)], 1400, 600),
                    Profile()).tiles
    assert [round(t.corners[:, 0].mean()) for t in read] == [150, 400, 650, 1150]  # the shade is no other colour
    # a face read surely stays whatever its colour
    assert len(assemble(Faces(sure + [face(900, grass)], 1400, 600), Profile()).tiles) == 4
    # most tiles in the shade of a tree, which tints them green, and one in the sun: a doubtful face in the sun
    # has the colour of that one
    leafy, sunlit = (40.0, -4.0, 15.0), (72.0, 8.0, 30.0)
    shade = [face(150 + 250 * k, leafy, pips=pips) for k, pips in enumerate([(5, 1), (6, 4), (4, 4)])] + \
        [face(900, sunlit, pips=(6, 6))]
    read = assemble(Faces(shade + [face(1150, (73.0, 9.0, 29.0), doubtful), face(1400, grass, doubtful)], 1600, 600),
                    Profile()).tiles
    assert [round(t.corners[:, 0].mean()) for t in read] == [150, 400, 650, 900, 1150]
    # a face read as the logo is judged by its colour however surely it is read (a score card's round print)
    card = replace(_face(900, (0, 0), 0.99, logo=0.99), colour=(80.0, -2.0, 6.0))
    logo = replace(card, colour=(70.0, 7.0, 28.0))
    for face, kept in ((card, 3), (logo, 4)):
        assert len(assemble(Faces(sure + [face], 1400, 600), Profile()).tiles) == kept
    # one face read surely tells the set's colour; fewer than colour_sure_min tell none
    assert len(assemble(Faces(sure[:1] + [card], 1400, 600), Profile()).tiles) == 1
    assert len(assemble(Faces(sure[:1] + [card], 1400, 600), Profile(colour_sure_min=2)).tiles) == 2
    # so is a face that shows at most one mark, which tells little else (a set without a logo: a plain 0-0, read
    # surely; a square of a checked cloth with a speck, read as a 1-0): it stays where it has the set's colour
    assert len(assemble(Faces(sure + [card], 1400, 600), Profile(logo=False)).tiles) == 3
    assert len(assemble(Faces(sure + [logo], 1400, 600), Profile(logo=False)).tiles) == 4
    cloth = (48.0, 52.0, 30.0)
    for colour, kept in ((cloth, 3), (pine, 4)):
        speck = replace(_face(900, (1, 0), 0.99), colour=colour)
        assert len(assemble(Faces(sure + [speck], 1400, 600), Profile()).tiles) == kept
    # a hand of one 1-0 read surely still tells the set's colour: a score card's line read as the logo goes
    one = replace(_face(150, (1, 0), 0.99), colour=pine)
    assert [t.pips for t in assemble(Faces([one, card], 1400, 600), Profile()).tiles] == [(1, 0)]


def test_the_logo_tile_read_surely_left_out_by_its_colour_alone_is_named():
    # pale pine in sun reads near white, the logo tile in shade beside it keeps the wood's colour, 17 a*b* units
    # apart (103104): left out as a score card's print would be, but read as surely as a card seldom is, named
    sunlit, shaded = (99.1, -3.1, 11.3), (87.5, -0.5, 28.1)
    sure = [replace(_face(150 + 250 * k, pips, 0.99), colour=sunlit) for k, pips in enumerate([(6, 5), (4, 4)])]
    logo = replace(_face(650, (0, 0), 0.99, logo=0.99), colour=shaded)
    read = assemble(Faces(sure + [logo], 1100, 600), Profile())
    assert len(read.tiles) == 2 and len(read.left_out) == 1
    assert read.warnings == ["a face read as the logo tile (near x=650, y=300, centre) was left out: its colour "
                             "is not the set's; add it if it is the logo tile"]
    # read as the logo less surely (as score cards are), it is left out without a word
    card = assemble(Faces(sure + [replace(logo, logo_score=0.95)], 1100, 600), Profile())
    assert len(card.tiles) == 2 and card.warnings == [] and card.left_out == []


def test_the_logo_tile_of_the_sets_hue_is_kept_however_light_changes_its_colour():
    # the logo tile in sun beside a 4-5 in shade (107327: 16.9 a*b* units apart), and one lit by warm light beside
    # two in dim light (107161: its saturation 0.52 from theirs): far by one measure or the other, of the wood's hue
    for wood, lit in [((33.5, 9.9, 19.1), (54.9, 17.7, 34.0)), ((17.1, 11.3, 17.3), (27.0, 9.8, 15.8))]:
        sure = [replace(_face(150 + 250 * k, pips, 0.99), colour=wood) for k, pips in enumerate([(4, 5), (6, 6)])]
        logo = replace(_face(650, (0, 0), 0.99, logo=1.0), colour=lit)
        assert len(assemble(Faces(sure + [logo], 1100, 600), Profile()).tiles) == 3
        assert len(assemble(Faces(sure + [logo], 1100, 600), Profile(logo_hue_far=0.0)).tiles) == 2
        # read as the logo less surely than logo_sure, it may be another tile's blank half (104096): left out
        assert len(assemble(Faces(sure + [replace(logo, logo_score=0.9)], 1100, 600), Profile()).tiles) == 2
    # score cards read as the logo are near grey, whatever their hue (81491's, 104107's): still no tile
    for wood, card in [((43.4, 7.8, 19.9), (71.7, 6.5, 5.3)), ((28.1, 11.0, 17.2), (50.2, 1.0, 4.1))]:
        sure = [replace(_face(150 + 250 * k, pips, 0.99), colour=wood) for k, pips in enumerate([(4, 5), (6, 6)])]
        logo = replace(_face(650, (0, 0), 0.99, logo=1.0), colour=card)
        assert len(assemble(Faces(sure + [logo], 1100, 600), Profile(logo_hue_far=90.0)).tiles) == 2


def test_a_pale_face_tinted_like_the_set_by_warm_light_is_no_tile():
    # dark wood in warm light, and a cloth's pale square with a speck tinted alike (a*b* within colour_far): sun
    # and shade scale the wood's lightness and chroma together, the square's saturation is far less
    walnut, sunlit, shaded, square = (30.0, 10.0, 18.5), (40.0, 13.0, 24.5), (22.0, 7.5, 13.5), (69.0, 15.0, 14.0)
    assert np.hypot(walnut[1] - square[1], walnut[2] - square[2]) < Profile().colour_far
    sure = [replace(_face(150 + 250 * k, pips, 0.99), colour=walnut) for k, pips in enumerate([(5, 1), (6, 4)])]

    def kept(colour: tuple[float, float, float], profile: Profile = Profile()) -> int:
        speck = replace(_face(650, (1, 0), 0.99), colour=colour)
        return len(assemble(Faces(sure + [speck], 1100, 600), profile).tiles)

    assert kept(square) == 2
    assert kept(sunlit) == 3 and kept(shaded) == 3
    assert kept(square, Profile(colour_saturation_far=0.5)) == 3
    # read surely, it is left out with a word (a 1-0 in sun beside tiles in shade may be left out so), and shown
    reading = assemble(Faces(sure + [replace(_face(650, (1, 0), 0.99), colour=square)], 1100, 600), Profile())
    assert reading.warnings == ["a face read as 1-0 (near x=650, y=300, centre) was left out: it was read surely "
                                "(0.90), but its colour is not the set's; add it if it is a tile"]
    assert len(reading.left_out) == 1 and np.allclose(geo.centre_of(reading.left_out[0]), (650, 300))
    # read with doubt, without one
    doubted = replace(_face(650, (1, 0), 0.99), colour=square, peaks=(peaks(1, heats=(0.55,)), ()))
    assert assemble(Faces(sure + [doubted], 1100, 600), Profile()).warnings == []


def test_a_face_of_many_pips_read_with_doubt_is_not_judged_by_its_saturation():
    # dark wood with light pips in dim light, and a 4-6 read with doubt under a glare that pales it (103144):
    # of the set's colour, its saturation 0.5 from theirs; a speck on a cloth shows one mark, this face ten
    sure = [replace(_face(150 + 250 * k, pips, 0.99), colour=(16.0, 11.0, 16.4)) for k, pips in
            enumerate([(1, 4), (1, 2)])]
    glared = replace(_face(650, (4, 6), 0.99), colour=(22.5, 9.2, 13.7),
                     peaks=(peaks(4, 0.95), peaks(6, heats=(0.95,) * 5 + (0.55,))))
    assert count_pips(glared, Profile()).confidence < Profile().doubt_below
    assert len(assemble(Faces(sure + [glared], 1100, 600), Profile()).tiles) == 3
    # the same colour on a face of one mark read with doubt is judged by its saturation
    speck = replace(glared, peaks=(peaks(1, heats=(0.55,)), ()))
    assert len(assemble(Faces(sure + [speck], 1100, 600), Profile()).tiles) == 2


def test_a_face_the_reader_is_unsure_is_whole_is_a_tile_where_it_has_a_tiles_shape_and_sure_pips():
    sure = [_face(150, (3, 2), 0.99), _face(400, (4, 1), 0.99), _face(650, (5, 1), 0.99)]

    def read(face: FaceReading, profile: Profile = Profile()) -> int:
        return len(assemble(Faces(sure + [face], 1100, 600), profile).tiles)

    unsure = _face(900, (6, 2), 0.6)
    assert Profile().shaped_tile_threshold <= 0.6 < Profile().tile_threshold
    assert read(unsure) == 4
    assert read(unsure, Profile(shaped_tile_threshold=0.7)) == 3
    assert read(replace(unsure, corners=geo.quad_of((900, 300), 0.0, 120, 80))) == 3  # no tile's shape there
    assert read(replace(unsure, peaks=(peaks(6), peaks(2, heats=(0.95, 0.55))))) == 3  # its pips in doubt
    assert read(replace(unsure, moved=20.0)) == 3  # its outline had not settled
    assert read(_face(900, (0, 0), 0.6)) == 3  # a plank's plain face has a tile's shape too


def test_a_one_pip_face_read_with_doubt_and_of_no_tiles_shape_is_no_tile():
    # a square of a checked cloth with a speck on it: the reader is sure it is whole, less sure of its one pip
    sure = [_face(150, (3, 2), 0.99), _face(400, (4, 1), 0.99), _face(650, (5, 1), 0.99)]
    doubtful_pip = (peaks(1, heats=(0.6,)), peaks(0))

    def read(face: FaceReading) -> int:
        return len(assemble(Faces(sure + [face], 1100, 600), Profile()).tiles)

    square = replace(_face(900, (1, 0), 0.99), corners=geo.quad_of((900, 300), 0.0, 80, 80))
    assert Profile().bare_tile_threshold <= 0.99
    assert read(square) == 4  # its pip read surely: the reader's word stands
    assert read(replace(square, peaks=doubtful_pip)) == 3
    assert read(replace(_face(900, (1, 0), 0.99), peaks=doubtful_pip)) == 4  # of a tile's shape there
    assert read(replace(square, peaks=(peaks(2, heats=(0.95, 0.7)), peaks(0)))) == 4  # two pips show a tile


def test_a_face_read_with_doubt_whose_outline_never_settled_is_no_tile():
    # a patch of deck between two tiles: the reader's corners kept moving (40 px in its last look), its pips
    # in doubt; a face as unsettled but read surely, or read with doubt but settled, stays
    doubtful = (peaks(2, 0.95), peaks(2, heats=(0.95, 0.3)))
    faces = [_face(150, (3, 2), 0.99), _face(400, (4, 1), 0.99),
             replace(_face(650, (2, 1), 0.93), peaks=doubtful, moved=40.0)]
    assert [t.pips for t in assemble(Faces(faces, 1100, 600), Profile()).tiles] == [(3, 2), (4, 1)]
    sure = faces[:2] + [replace(_face(650, (2, 1), 0.93), moved=40.0)]
    settled = faces[:2] + [replace(faces[2], moved=2.0)]
    for kept in (sure, settled):
        assert len(assemble(Faces(kept, 1100, 600), Profile()).tiles) == 3
    assert len(assemble(Faces(faces, 1100, 600), Profile(settled_px=50.0)).tiles) == 3


def test_a_face_read_almost_without_confidence_and_of_no_tiles_shape_is_left_out_and_named():
    # the numbers on a score card: a square read as a 2-0, its second pip barely a pip
    sure = [_face(150, (3, 2), 0.99), _face(400, (4, 1), 0.99), _face(650, (5, 1), 0.99)]
    faint = (peaks(2, heats=(0.95, 0.55)), peaks(0))
    card = replace(_face(900, (2, 0), 0.99), corners=geo.quad_of((900, 300), 0.0, 80, 80), peaks=faint)
    assert count_pips(card, Profile()).confidence < Profile().shapeless_below

    def read(faces, profile=Profile()):
        return assemble(Faces(faces, 1100, 600), profile)

    reading = read(sure + [card])
    assert len(reading.tiles) == 3
    assert [w for w in reading.warnings if "left out" in w] == [
        "a face read as 2-0 (near x=900, y=300, middle right) was left out: it was read almost without confidence "
        "(0.10) and has no tile's shape there; add it if it is a tile"]
    # of a tile's shape there it stays, marked for checking; so does a square read a little surer
    tile = replace(card, corners=_face(900, (2, 0), 0.99).corners)
    assert len(read(sure + [tile]).tiles) == 4
    assert len(read(sure + [replace(card, peaks=(peaks(2, heats=(0.95, 0.7)), peaks(0)))]).tiles) == 4
    # with fewer than two other faces read surely, nothing vouches for its shape
    assert [t.pips for t in read(sure[:1] + [tile]).tiles] == [(3, 2)]
    # so, read both ways, it is judged by the surer of that reading and the straight look's: pale pips on dark
    # wood read as surely as 0.35 straight and 0.1 both ways (the third thousand's 83833, a lone 6-6) are a tile;
    # where the faces around predict an outline it does not fit, its shape judges it, as before
    assert [t.pips for t in read(sure[:1] + [replace(tile, straight=0.35)]).tiles] == [(3, 2), (2, 0)]
    assert [t.pips for t in read(sure[:1] + [replace(tile, straight=0.15)]).tiles] == [(3, 2)]
    assert len(read(sure + [replace(card, straight=0.35)]).tiles) == 3
    # the floor lives in the profile
    assert len(read(sure + [card], Profile(shapeless_below=0.0)).tiles) == 4


def test_a_bare_face_is_judged_misshapen_only_by_three_faces_read_surely_or_more():
    # two faces read surely tell no horizon: they predict a far tile as large as themselves, so a one-pip face
    # read with doubt far off is not dropped for its shape; three or more predict its size
    from companion.vision.assembly import _bare_misshapen
    from companion.vision.plane import Plane

    small = FaceReading(geo.quad_of((500, 80), 0.0, 80, 40), 0.99, (peaks(1, 0.95), peaks(0)), 0.0, 0.5)
    sure = [geo.quad_of((x, 400), 0.0, 160, 80) for x in (300, 700, 1100)]
    assert not _bare_misshapen(small, Plane(sure[:2]), Profile())
    assert _bare_misshapen(small, Plane(sure), Profile())  # (no horizon in one row: as large as they are)


def test_a_face_read_as_a_tile_read_more_surely_elsewhere_is_left_out_unless_surely_a_tile():
    from companion.vision.assembly import TileReading, _without_lesser_twins

    quad = geo.quad_of((300, 300), 0.0, 160, 80)
    sure, specks, other = TileReading((0, 2), quad, 0.9), TileReading((2, 0), quad + 400, 0.4), \
        TileReading((3, 1), quad + 200, 0.3)
    kept, out = _without_lesser_twins([sure, specks, other], [0.99, 0.9, 0.9], Profile())
    assert kept == [sure, other] and out == [specks]  # (a doubtful face of a tile no other reads stays)
    assert _without_lesser_twins([sure, specks], [0.99, 0.99], Profile()) == ([sure, specks], [])  # surely a tile
    tie = TileReading((0, 2), quad + 400, 0.9)  # as sure as the other: neither can be told the lesser
    assert _without_lesser_twins([sure, tie], [0.99, 0.9], Profile()) == ([sure, tie], [])
    # read surely, but less surely than the other, by a face less sure it is a whole tile: a cloth's square
    square = TileReading((2, 0), quad + 400, 0.55)
    assert square.confidence >= Profile().doubt_below
    assert _without_lesser_twins([sure, square], [0.99, 0.93], Profile()) == ([sure], [square])
    assert _without_lesser_twins([sure, square], [0.99, 0.99], Profile()) == ([sure, square], [])


def test_the_lesser_twin_is_named_in_a_warning_and_drawn_as_left_out():
    faces = [_face(150 + 250 * k, pips, 0.99) for k, pips in enumerate([(0, 2), (0, 1), (0, 3), (1, 2)])]
    specks = FaceReading(geo.quad_of((1150, 300), 0.0, 160, 80), 0.9, (peaks(0), peaks(2, 0.62)), 0.0, 0.5)
    reading = assemble(Faces(faces + [specks], 1400, 600), Profile())
    assert sorted(t.pips for t in reading.tiles) == [(0, 1), (0, 2), (0, 3), (1, 2)]
    assert any("read as 0-2" in w and "another face reads that tile more surely" in w for w in reading.warnings)
    assert not any("read 2 times" in w for w in reading.warnings)
    assert any(np.allclose(q, specks.corners) for q in reading.left_out)


def test_a_face_whose_only_marks_are_strays_is_judged_on_its_marks():
    # a tile cut off by the left border: what is left of a half's pips lies askew, a lone pip at a corner that
    # the count takes for a stray (read 0-0); its marks still tell a tile cut off from a plain plank
    halves = ((Peak(0.95, 0.25, 0.27),), ())
    cut = FaceReading(geo.quad_of((40, 300), 0.0, 160, 80), 0.99, halves, 0.0)
    assert count_pips(cut, Profile()).pips == (0, 0)
    faces = [cut, _face(400, (2, 0), 0.99), _face(650, (3, 1), 0.99)]
    reading = assemble(Faces(faces, 1100, 600), Profile())
    assert {t.pips for t in reading.tiles} == {(2, 0), (3, 1)}
    assert any("cut off by the left border" in w for w in reading.warnings), reading.warnings
    # a plank that shows no mark at all is no tile, cut off or not: nothing is named
    plank = replace(cut, peaks=((), ()))
    reading = assemble(Faces([plank] + faces[1:], 1100, 600), Profile())
    assert not any("cut off" in w for w in reading.warnings)


def test_a_whole_blank_face_with_specks_is_no_tile_of_a_set_whose_double_blank_carries_its_logo():
    # a patch of concrete with a speck, read as a whole tile 0.98 surely and counted 0-0 (the speck a stray), of
    # a tile's shape (the held-out 83144): no tile of this set, whose double-blank shows its logo
    halves = ((Peak(0.95, 0.25, 0.27),), ())
    specks = FaceReading(geo.quad_of((650, 300), 0.0, 160, 80), 0.99, halves, 0.0)
    assert count_pips(specks, Profile()).pips == (0, 0)
    faces = [_face(150, (2, 0), 0.99), _face(400, (3, 1), 0.99), specks]
    assert {t.pips for t in assemble(Faces(faces, 1100, 600), Profile()).tiles} == {(2, 0), (3, 1)}
    # read as the logo it is the logo tile; in a set without a logo, a double-blank
    logo = replace(specks, logo_score=0.99)
    assert {t.pips for t in assemble(Faces(faces[:2] + [logo], 1100, 600), Profile()).tiles} == {(2, 0), (3, 1), (0, 0)}
    plain = {t.pips for t in assemble(Faces(faces, 1100, 600), Profile(logo=False)).tiles}
    assert plain == {(2, 0), (3, 1), (0, 0)}


def test_a_face_read_with_doubt_of_no_tiles_shape_lying_partly_on_a_tile_is_left_out_and_named():
    # h105's 105357: an outline strayed off a walnut 4-4 onto the deck beside it, read as 0-2 from two of its pips
    sure = [_face(150, (3, 2), 0.99), _face(400, (4, 1), 0.99), _face(650, (5, 1), 0.99)]
    doubtful = (peaks(2, 0.95), peaks(2, heats=(0.95, 0.7)))  # read 2-2 0.4 surely: with doubt, not almost without
    stray = FaceReading(geo.quad_of((760, 300), 0.0, 120, 120), 0.99, doubtful, 0.0)  # a fifth of it on the 5-1

    def read(faces, profile=Profile()):
        return assemble(Faces(faces, 1100, 600), profile)

    reading = read(sure + [stray])
    assert [t.pips for t in reading.tiles] == [(3, 2), (4, 1), (5, 1)]
    assert [w for w in reading.warnings if "left out" in w] == [
        "a face read as 2-2 (near x=760, y=300, middle right) was left out: it was read with doubt (0.40), has no "
        "tile's shape there and lies partly on a tile read surely; add it if it is a tile"]
    # apart from the tiles, of a tile's shape, or read surely, it stays
    assert len(read(sure + [replace(stray, corners=geo.quad_of((900, 300), 0.0, 120, 120))]).tiles) == 4
    assert len(read(sure + [replace(stray, corners=geo.quad_of((790, 300), 0.0, 160, 80))]).tiles) == 4
    assert len(read(sure + [replace(stray, peaks=(peaks(2, 0.95), peaks(2, 0.95)))]).tiles) == 4
    # the share on the tile that makes it a stray lives in the profile
    assert len(read(sure + [stray], Profile(shapeless_on_tile=0.3)).tiles) == 4


def test_of_two_faces_at_one_place_both_surely_whole_the_one_of_a_tiles_shape_is_kept():
    # 108036's logo tile laid crosswise as a spinner: a look read the whole tile as the logo 1.00 surely, and its
    # word mark's half, read apart, as the logo 0.90 and a whole tile a hair more surely (0.9987 against 0.9978);
    # first in the choice, the half was then left out as a card (not surely the logo, of no tile's shape). Both
    # are surely whole, where the tile score tells little: the one of a tile's shape there comes first.
    sure = [_face(150, (3, 2), 0.99), _face(400, (4, 1), 0.99), _face(650, (5, 1), 0.99)]
    whole = _face(900, (0, 0), 0.9978, logo=1.0)
    half = replace(_face(940, (0, 0), 0.9987, logo=0.9), corners=geo.quad_of((940, 300), 0.0, 80, 80))
    read = assemble(Faces(sure + [half, whole], 1100, 600), Profile())
    assert sorted(t.pips for t in read.tiles) == [(0, 0), (3, 2), (4, 1), (5, 1)] and not read.warnings
    assert np.allclose([t.corners for t in read.tiles if t.pips == (0, 0)][0], whole.corners)
    # where the whole one is not surely whole (below ``whole_sure``), the surer comes first as before
    unsure = assemble(Faces(sure + [half, replace(whole, tile_score=0.97)], 1100, 600), Profile())
    assert sorted(t.pips for t in unsure.tiles) == [(3, 2), (4, 1), (5, 1)] and unsure.warnings
    assert assemble(Faces(sure + [half, whole], 1100, 600), Profile(whole_sure=0.999)).warnings
