"""A set profile: what the recognizer needs to know about one kind of domino set, with documented defaults.

Entry point: ``Profile`` (frozen dataclass) with ``Profile.from_dict(d)`` / ``profile.to_dict()``.
Shipped profiles live as JSON files in ``calibration/profiles/`` and are loaded with
``calibration.load_profile(name)``; ``companion calibrate`` learns new ones from a photo of a whole set.
The defaults here describe the giant wooden double-six set.

Units: scores and thresholds are the networks' outputs (0..1); lengths are tile widths unless a field's
comment says pixels.

Raises ``ProfileError`` (``ValueError``) for an unknown field or a value of the wrong type or range.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from functools import cached_property


class ProfileError(ValueError):
    """A profile that names an unknown field or gives a value of the wrong type or range."""


@dataclass(frozen=True)
class Profile:
    """The recognizer's settings for one kind of domino set."""

    name: str = "giant-wood"
    max_pips: int = 6  # the set's highest half: 6 (double-six), 9 or 12
    logo: bool = True  # the double-blank carries a printed logo: a plain blank face is no tile of this set

    # the networks (files in companion/vision/models); reader-all-sets.onnx, before the giant wooden set's
    # own last round, reads other sets (the shipped profiles of other sets and calibration start from it)
    detector: str = "detector.onnx"
    reader: str = "reader.onnx"

    # --- finding tiles (detect.py) ---------------------------------------------------------------------
    detect_side: int = 768  # the photo is scaled so that its longer side is this many pixels for the detector
    detect_threshold: float = 0.2  # a tile centre's heat, at least (low: the reader judges each candidate)
    # the detector places small faces loosely: where the smaller tiles it found (lower quartile of those
    # with a centre's heat of ``detect_sure``) are shorter than ``detect_tile_px`` / ``detect_finer_gain``,
    # it looks again with the photo scaled so that they are ``detect_tile_px`` long (its side at most
    # ``detect_side_most``)
    detect_sure: float = 0.3
    detect_tile_px: float = 60.0
    detect_finer_gain: float = 1.15
    detect_side_most: int = 2048
    # where no face was read as the set's logo tile, the detector looks again with the photo scaled to this
    # side (0: not at all), and a candidate on no whole face is the logo tile if the reader is as sure of it
    # as ``logo_sure``: the detector's heat dips for some tiles at one scale and not another, and a logo
    # tile close to the camera is too large for it at ``detect_side``. Of the logo tiles read in the tuning
    # photos, 99.5% score 0.985 or more; score cards taken for the logo score 0.77 to 0.97. A face read as the
    # logo less surely stands only where it has a tile's shape, or nothing can judge it (``gap_fit``; see
    # ``assembly._logo_vouched``)
    logo_look_side: int = 512
    logo_sure: float = 0.985

    # --- reading tiles (read.py) -----------------------------------------------------------------------
    tile_threshold: float = 0.8  # the reader's belief that a crop is one whole tile, at least
    bare_tile_threshold: float = 0.98  # ... for a face with at most one pip (not the logo), which shows little else
    pip_threshold: float = 0.5  # a pip's heat, at least
    pip_floor: float = 0.05  # peaks weaker than this are not even doubts
    logo_threshold: float = 0.5  # the reader's belief that a face is the logo tile, at least (with ``logo``)
    pip_margin: float = 0.12  # pips are counted up to this far beyond the face's outline (tile widths)
    pip_mid_band: float = 0.08  # a pip this close to the middle line could be either half's (tile widths)
    # the pips of each face of a double-six set lie symmetric about the middle of its half: a count whose pips
    # lie further than this from that (tile widths) is at most ``asymmetric_confidence`` sure (double-six only).
    # A pip lost from a face leaves its mirror image a pip's spacing (0.25 tile widths or more) from any pip;
    # of the tiles read right on the tuning photos, 99% lie within 0.17
    pip_symmetry: float = 0.2
    asymmetric_confidence: float = 0.4
    # a set's pips are all lighter or all darker than its wood, so a mark of the other shade (a dark knot on a tile
    # with light pips, glare on one with dark pips) is no pip: where at least two pips of a face at least
    # ``shade_sure`` hot lie ``shade_apart`` (a fraction of white) or more to one side of the wood's shade, a
    # fainter pip (still ``pip_threshold`` hot) ``shade_other`` or more to the other side is no pip (``shade_apart``
    # 0: no such rule). Through the labelled outlines of 300 photos (seeds 50000+ and 96000+), of the 1,818 such
    # fainter peaks on faces whose sure pips tell a shade, 99.5% lie 0.11 or more to the pips' side and one lies on
    # the other side at all (0.075, a stray mark on a face read right)
    shade_sure: float = 0.85
    shade_apart: float = 0.06
    shade_other: float = 0.02
    # a lone pip this far from the middle of its half (tile widths) is a stray mark, not a one (double-six only;
    # 0: never): a one's pip lies at the middle, and the corner pips of larger faces about 0.35 from it. Of the
    # lone pips of the faces read as whole tiles in the 1,000 fresh photos of seeds 50000+, 91% lie within 0.05
    # of the middle and 3% from 0.3
    lone_pip_off: float = 0.3
    # a half's two or three pips this close along the face (tile widths) lie in a line across it, which no face of
    # the set does (its two and three lie on a diagonal, 0.5 to 0.6 apart along): a four's or a six's half of a
    # tile read as a whole face, which ``_halved`` looks at as the tile twice its size (0: never)
    pip_line_along: float = 0.2
    aspect_min: float = 0.7  # a face's length / width: a tile seen at a slant, at least ...
    aspect_max: float = 6.0  # ... and at most (a far tile of a steep photo, seen nearly edge on)
    # the reader's corners are its maps' highest peaks, unless those are further than this from a parallelogram
    # (the gap between its two closings, tile widths: one corner was taken from a neighbouring tile); then
    # one corner moves to its map's next peak (at least ``corner_peak_floor`` of the highest) if that makes one
    corner_skew: float = 0.25
    corner_peak_floor: float = 0.1
    square_on_px: float = 2.0  # a look with its corners this close to their place (crop pixels) is final
    # ... and a first look this close that reads a whole tile with its pips sure (0: none; a look more at such
    # a face read the 1,450 photos of seeds 50000+, 90000+, 92000+ and 93000+ alike, for 7% more reader crops)
    sure_square_on_px: float = 5.0
    # looks at a face in all: the first through the detector's guess, then through corners while they move (5 rather
    # than 3: a face close to the camera or far off takes more to settle; 9 photos put right and 3 put wrong of 2,450)
    max_looks: int = 5
    second_look_floor: float = 0.02  # a first look this unsure of a whole tile is not looked at again
    read_min_length: float = 72.0  # a face shorter than this (pixels) is read from a finer decoding if there is one

    # a face read with doubt (not surely a whole tile, its pips in doubt, or read as the tile another face
    # holds) whose outline overlaps the one the sure faces around it predict (for a tile ``tile_aspect`` times
    # as long as wide) less than this (intersection over union) is looked at again through that prediction ...
    shape_overlap: float = 0.95
    tile_aspect: float = 2.0
    # ... and such a face whose pips are in doubt through the prediction moved each way along the tile by this
    # share of its length and across it by this share of its width (the reader took an outline across two
    # tiles), and through the prediction turned across the face, and so moved along (it read half a tile as
    # a whole one)
    shift_along: float = 0.25
    shift_across: float = 0.5
    # between two whole tiles in a row (end to end or side by side, axes within ``gap_turn_deg``) with room for
    # 1 to ``gap_most`` tiles (give or take ``gap_slack`` of a tile) and no tile read there, a look through the
    # outline they predict, and one a tile beyond the end of a line (beyond a face with another against its
    # other end, within half ``end_touch`` of its length; 0 for none: a line going on or turning a corner at a
    # tile not found; and where a tile was found, the gaps and ends it makes, at most ``end_rounds`` times more);
    # a whole tile found there whose fit to the plane's prediction is at least ``gap_fit`` is kept (``gap_most`` 0
    # looks in no gap, nor at lost candidates) if read surely; one found where the detector saw a tile but every
    # look went to a neighbour if its fit is at least ``candidate_fit`` and its pips' confidence at least
    # ``candidate_confidence`` (below ``doubt_below``: it is then read with doubt)
    gap_most: int = 2
    gap_slack: float = 0.15
    gap_turn_deg: float = 15.0
    gap_fit: float = 0.8
    end_touch: float = 0.15
    end_rounds: int = 3
    candidate_confidence: float = 0.3
    candidate_fit: float = 0.6
    # a candidate left unread whose centre lies on one face, off its centre by this share of its width across
    # it (or of its length along it), saw that face and a tile beside it (beyond its end) as one: a look there
    beside_offset: float = 0.25
    # ... and one found in a gap or at a line's end is kept however surely its pips are read (then with doubt,
    # marked for checking) where the reader's belief that it is a whole tile is at least this
    guess_tile_sure: float = 0.98
    # a new look replaces the face if (among other things) its corners moved at most ``settled_px`` in its last
    # look (crop pixels) and it fits the prediction at its place better (IoU; a moved or turned look by
    # ``fit_margin``)
    fit_margin: float = 0.1
    # a whole face read as a double, in line with a face of a line of play half a tile beyond its end (one and a
    # half lengths from its centre, give or take this share of a length), may lie across two tiles of the line
    # (see ``_unstraddled``); a face touches the next end to end within the same slack
    straddle_slack: float = 0.25
    # two whole faces side by side make a square that splits two ways; the other split's two faces take their
    # place where the least sure of them is this many times likelier whole (odds) than the least sure of the
    # two (0: only where a face is read as a tile read twice); two looks take the place of a face they may lie
    # across (``_split_in_two``) where so much likelier whole, and never where so much less (0: by their pips);
    # a look where a tile was missed takes the place of the face it lies on where so much likelier whole (``_taken``)
    split_odds: float = 25.0
    straddle_rounds: int = 3  # rounds of those looks while they find tiles (a line read half a tile off)
    # a whole face holding a candidate left unread off its centre along it by at least this share of its length
    # (on it, or outside it by at most this share of its width) may lie across two tiles, end to end or (where
    # the candidate lies off it across by as much of its width) side by side (see ``_split_in_two``)
    straddle_sides: float = 0.15
    settled_px: float = 10.0
    # where the whole faces read hold all the set's tiles but at most this many, those missing are looked for
    # where the detector saw a tile and no face was read surely (0: not looked for)
    set_missing_most: int = 2
    # a peak of the detector's heat at the photo's border this high, below ``detect_threshold``, may be a tile cut
    # off with its centre beyond the border (0: not looked at); a look there that the reader takes for a tile this
    # surely, cut off, is named in a warning
    border_heat: float = 0.05
    border_tile_sure: float = 0.98
    # where at least ``weak_tiles`` whole faces are read, a peak of the detector's heat this high, below
    # ``detect_threshold``, on no face read and within ``weak_near`` tile lengths of a whole face's centre, is looked
    # at through the plane's outlines there, and a tile found there must be read surely (0: not looked at): the peak
    # of a tile staggered against a neighbour merges into the neighbour's
    weak_heat: float = 0.08
    weak_tiles: int = 12
    weak_near: float = 1.5
    # where the faces read surely tell that the camera sees the table at least ``above_deg`` from straight down, the
    # detector looks again at the photo mapped to a view from straight above, within ``above_reach`` tile lengths
    # of those faces, at most ``above_side_most`` pixels a side (90: not looked at); what it sees there on no face
    # read surely is looked at, and a tile found so must be read surely (far tiles seen steeply are small and
    # squashed in the photo, and it misses some)
    above_deg: float = 35.0
    above_reach: float = 3.0
    above_side_most: int = 1024
    # a face read as a tile another face reads more surely is left out (named in a warning) where the reader is
    # less sure than this that it is a whole tile
    twin_tile_sure: float = 0.98
    # of faces at one place that the reader is at least this sure are whole (where its tile score tells them little
    # apart), one of a tile's shape there (``gap_fit``) comes first in step 4's choice
    whole_sure: float = 0.98

    # --- what is kept --------------------------------------------------------------------------------------
    # a face the reader is less sure is whole (from this tile score up to ``tile_threshold``) is a tile where it
    # has a tile's shape there (its fit to the plane's prediction at least ``shaped_fit``), settled, and its pips
    # are read surely; on the tuning photos such faces were tiles but for plain blank faces (planks, no logo)
    shaped_tile_threshold: float = 0.5
    shaped_fit: float = 0.85
    cut_area: float = 0.03  # a face with more of its area than this beyond the border is cut off
    cut_tolerance: float = 0.1  # a face with two corners within half this of the border (tile widths) is cut off
    same_face_overlap: float = 0.3  # two outlines overlapping this much (intersection / smaller) are one face
    # a face more than this of it within a look read surely, of no tile's shape, is part of the look's tile
    part_within: float = 0.5
    # the tiles of a set lie on one plane, so their size follows their place in the photo: a face smaller than
    # this fraction of what the other faces predict there is a mark of a tile's shape (a number on a score card)
    size_floor: float = 0.5
    # ... and a face larger than this multiple is a patch across two tiles (two tiles side by side: 1.41)
    size_ceiling: float = 1.35
    # the sizes of tiles read right scatter about the plane by at least this fraction (for the ceiling's
    # margin: a face is judged too large only where the plane predicts its size surely)
    size_noise: float = 0.03
    size_fit_min: int = 5  # other faces needed to predict a face's size (fewer: no face is judged by its size)
    # a plane of sizes (cube roots of areas) that changes across the photo's longer side by more than this
    # many times the smallest size fitted is a guess across a line of play, not tiles' sizes: on the labels of
    # the 1,935 tuning and fresh photos with 6 tiles or more, the steepest changes 3.45 times
    size_steepest: float = 5.0
    # the tiles of a set are of one wood or plastic: a face read with doubt (or as the logo) whose colour lies
    # further than this (CIE a*b* units) from the colour of every one of at least ``colour_sure_min`` faces read
    # surely is no tile of the set (grass, a card, a blanket's print); of the 21,414 tiles read right on the
    # tuning photos, in sun and shade alike, 99% lie within 11 of the sure faces' median colour, and 99% within
    # 3.2 and 99.9% within 8 of the nearest of them (of the 793 logo tiles among them, all within 8.3); one sure
    # face is enough to judge by: on 2,600 fresh photos, 1 left out no tile that 3 kept, and left out a card
    colour_far: float = 12.0
    colour_sure_min: int = 1
    # ... or, showing at most one mark, whose saturation (chroma over lightness, which sun and shade change alike)
    # lies further than this from every such face's: a pale square of a cloth or grey concrete with a speck, tinted
    # like the wood by warm light (a glare pales a tile of many pips as much);
    # of the 1,978 faces so judged and kept in 1,800 photos (the steep 800, the first thousand), tiles lie within
    # 0.22 of the nearest, and the two faces of ground read as a 1-0 and a 0-1 at 0.32 and 0.56
    colour_saturation_far: float = 0.3
    # a face read as the logo tile at least ``logo_sure``, far from every sure face by either, is of the set's colour
    # all the same where its hue lies within this many degrees of a sure face's at most ``logo_chroma_ratio`` times
    # more or less chroma (that face no nearer grey than ``colour_far``): light changes lightness and chroma, not
    # hue, and the print pales the logo's wood as sampled; the score cards so left out in 9,250 photos are near
    # grey, 0.15 to 0.4 of the nearest sure face's chroma (a face read less surely as the logo may be another
    # tile's blank half: 104096's, 0.89, of the wood's hue)
    logo_hue_far: float = 15.0
    logo_chroma_ratio: float = 2.0
    doubt_below: float = 0.5  # a reading less sure than this is named in a warning
    settle_below: float = 0.5  # a reading less sure than this may give way to its next where the set needs it
    # a reading the set cannot hold (a half above ``max_pips``, a tile twice) is at most this sure (below
    # ``doubt_below``, so that it is marked for checking)
    impossible_confidence: float = 0.3
    # a face read less surely than this (its pips or its being a tile) with no tile's shape where it lies, or
    # nothing to judge its shape by, is left out and named in a warning: a card's numbers, a cloth's square;
    # nor does a face whose pips are read less surely judge another too large (patches of grass by a close tile)
    shapeless_below: float = 0.2
    # ... and a face read with doubt (``doubt_below``) of no tile's shape there, more than this of it on a face read
    # surely, is no tile either: its outline strayed off a tile onto what lies beside it, taking in some of its pips
    shapeless_on_tile: float = 0.1

    @classmethod
    def from_dict(cls, data: dict) -> "Profile":
        """Build a profile from a mapping; missing fields keep their defaults, keys starting with ``_`` are comments."""
        if not isinstance(data, dict):
            raise ProfileError(f"a profile must be a JSON object, not {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        values = {}
        for key, value in data.items():
            if key.startswith("_"):
                continue
            if key not in known:
                raise ProfileError(f"unknown profile field: {key!r}")
            default = getattr(cls, key)
            if isinstance(default, bool):
                ok = isinstance(value, bool)
            elif isinstance(default, int):
                ok = isinstance(value, int) and not isinstance(value, bool)
            elif isinstance(default, float):
                ok = isinstance(value, (int, float)) and not isinstance(value, bool)
                value = float(value) if ok else value
            else:
                ok = isinstance(value, str)
            if not ok:
                raise ProfileError(f"profile field {key!r} has the wrong type: {value!r}")
            values[key] = value
        profile = cls(**values)
        if profile.max_pips not in (6, 9, 12):
            raise ProfileError(f"profile field 'max_pips' must be 6, 9 or 12: {profile.max_pips!r}")
        for key in ("detect_threshold", "detect_sure", "tile_threshold", "pip_threshold", "pip_floor", "logo_threshold",
                    "second_look_floor", "cut_area", "doubt_below", "settle_below", "impossible_confidence",
                    "size_floor", "size_noise", "corner_peak_floor", "shape_overlap", "bare_tile_threshold",
                    "shift_along", "shift_across", "fit_margin", "gap_fit", "end_touch", "candidate_confidence",
                    "candidate_fit", "beside_offset", "guess_tile_sure", "asymmetric_confidence", "straddle_slack",
                    "straddle_sides", "shaped_tile_threshold", "shaped_fit", "logo_sure", "shapeless_below",
                    "shapeless_on_tile", "border_heat", "border_tile_sure", "twin_tile_sure", "whole_sure", "weak_heat",
                    "shade_sure", "shade_apart", "shade_other"):
            if not 0.0 <= getattr(profile, key) <= 1.0:
                raise ProfileError(f"profile field {key!r} must be between 0 and 1: {getattr(profile, key)!r}")
        if profile.detect_tile_px <= 0 or profile.detect_finer_gain < 1:
            raise ProfileError("profile fields 'detect_tile_px' and 'detect_finer_gain' must be positive and at "
                               f"least 1: {profile.detect_tile_px!r}, {profile.detect_finer_gain!r}")
        if profile.logo_look_side < 0:
            raise ProfileError(f"profile field 'logo_look_side' must not be negative: {profile.logo_look_side!r}")
        if profile.detect_side_most < profile.detect_side:
            raise ProfileError(f"profile field 'detect_side_most' must be at least 'detect_side': "
                               f"{profile.detect_side_most!r}")
        if not 1 <= profile.max_looks <= 5:
            raise ProfileError(f"profile field 'max_looks' must be 1 to 5: {profile.max_looks!r}")
        if profile.end_rounds < 0 or profile.straddle_rounds < 0 or profile.set_missing_most < 0:
            raise ProfileError("profile fields 'end_rounds', 'straddle_rounds' and 'set_missing_most' must not be "
                               f"negative: {profile.end_rounds!r}, {profile.straddle_rounds!r}, "
                               f"{profile.set_missing_most!r}")
        if profile.gap_most < 0 or not 0 <= profile.gap_slack < 0.5 or not 0 <= profile.gap_turn_deg <= 90:
            raise ProfileError("profile fields 'gap_most', 'gap_slack' and 'gap_turn_deg' must be at least 0, "
                               f"below 0.5 and at most 90: {profile.gap_most!r}, {profile.gap_slack!r}, "
                               f"{profile.gap_turn_deg!r}")
        if profile.impossible_confidence >= profile.doubt_below:
            raise ProfileError("profile field 'impossible_confidence' must be below 'doubt_below': "
                               f"{profile.impossible_confidence!r}, {profile.doubt_below!r}")
        if profile.above_reach < 0 or profile.above_side_most < 32:
            raise ProfileError("profile fields 'above_reach' and 'above_side_most' must be at least 0 and 32: "
                               f"{profile.above_reach!r}, {profile.above_side_most!r}")
        if profile.weak_tiles < 0 or profile.weak_near < 0:
            raise ProfileError("profile fields 'weak_tiles' and 'weak_near' must not be negative: "
                               f"{profile.weak_tiles!r}, {profile.weak_near!r}")
        if profile.settled_px < 0:
            raise ProfileError(f"profile field 'settled_px' must not be negative: {profile.settled_px!r}")
        if profile.tile_aspect < 1:
            raise ProfileError(f"profile field 'tile_aspect' must be at least 1: {profile.tile_aspect!r}")
        if profile.split_odds and profile.split_odds < 1:
            raise ProfileError(f"profile field 'split_odds' must be 0 or at least 1: {profile.split_odds!r}")
        if profile.size_ceiling < 1:
            raise ProfileError(f"profile field 'size_ceiling' must be at least 1: {profile.size_ceiling!r}")
        if profile.colour_far <= 0 or profile.colour_sure_min < 1 or profile.colour_saturation_far <= 0:
            raise ProfileError("profile fields 'colour_far', 'colour_sure_min' and 'colour_saturation_far' must be "
                               f"positive: {profile.colour_far!r}, {profile.colour_sure_min!r}, "
                               f"{profile.colour_saturation_far!r}")
        if profile.logo_hue_far < 0 or profile.logo_chroma_ratio < 1:
            raise ProfileError("profile fields 'logo_hue_far' and 'logo_chroma_ratio' must be at least 0 and 1: "
                               f"{profile.logo_hue_far!r}, {profile.logo_chroma_ratio!r}")
        if profile.size_steepest <= 0:
            raise ProfileError(f"profile field 'size_steepest' must be positive: {profile.size_steepest!r}")
        if profile.size_fit_min < 4:
            raise ProfileError(f"profile field 'size_fit_min' must be at least 4 (a plane needs 3): "
                               f"{profile.size_fit_min!r}")
        for key in ("square_on_px", "sure_square_on_px", "corner_skew", "pip_symmetry", "lone_pip_off",
                    "pip_line_along"):
            if getattr(profile, key) < 0:
                raise ProfileError(f"profile field {key!r} must not be negative: {getattr(profile, key)!r}")
        for key in ("detector", "reader"):
            name = getattr(profile, key)
            if "/" in name or "\\" in name or not name.endswith(".onnx"):
                raise ProfileError(f"profile field {key!r} must name an .onnx file in companion/vision/models: "
                                   f"{name!r}")
        return profile

    def to_dict(self) -> dict:
        return asdict(self)

    @cached_property
    def _hash(self) -> int:
        return hash(tuple(getattr(self, f.name) for f in fields(self)))

    def __hash__(self) -> int:  # (the pip counts are cached by profile, hundreds of times a scan: hashed once)
        return self._hash
