"""A set profile: every threshold the recognizer uses, with documented defaults.

Entry point: ``Profile`` (frozen dataclass) with ``Profile.from_dict(d)`` / ``profile.to_dict()``.
Shipped profiles live as JSON files in ``calibration/profiles/`` and are loaded with
``calibration.load_profile(name)``; the defaults here describe the giant wooden set.

Units: lengths are relative to something named in the field's comment ("tile widths", "pixels of the
working image", ...); colour distances are in OpenCV 8-bit Lab units (L, a, b each 0..255).

Raises ``ProfileError`` (``ValueError``) for an unknown field or a value of the wrong type.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields


class ProfileError(ValueError):
    """A profile that names an unknown field or gives a value of the wrong type."""


@dataclass(frozen=True)
class Profile:
    """Thresholds of the recognizer for one kind of domino set."""

    name: str = "giant-wood"
    max_pips: int = 6  # highest half in the set (6, 9 or 12)

    # --- finding tiles (find.py), on a reduced "working" image -------------------------------------
    work_max_side: int = 2048  # the photo is reduced so that its longer side is at most this
    ink_polarity: str = "both"  # "dark": pips/divider darker than the face; "light": lighter; "both"
    ink_window: float = 0.02  # local-mean window for ink, as a fraction of the working image's longer side
    ink_window_min: float = 41.0  # ... but at least this many pixels
    ink_extra_levels: tuple = ()  # further contrast levels (fractions of the first) searched for dividers
    ink_blur: float = 0.0  # Gaussian sigma (working-image pixels) applied before looking for ink
    ink_contrast: float = 22.0  # gray levels an ink pixel differs from its local mean, at most
    ink_contrast_rel: float = 0.14  # ... as a fraction of the local mean
    ink_contrast_min: float = 8.0  # ... and at least
    # thin-line ink: a divider is darker (lighter) than the face right beside it, whatever the ground around
    # the tile does to a wide local mean (a dark tile on a pale deck is all "dark ink" there); a morphological
    # black-hat (top-hat) of each size below finds lines thinner than it. Empty: not used.
    line_kernels: tuple = (9.0, 17.0)  # structuring element diameters, pixels of the working image
    line_contrast: float = 30.0  # gray levels a thin line differs from the face beside it, at least
    divider_min_aspect: float = 3.5  # long/short side of a divider's bounding box
    divider_min_fill: float = 0.45  # divider area / its bounding box area
    divider_min_len: float = 8.0  # pixels of the working image
    divider_max_len: float = 0.5  # fraction of the working image's shorter side
    # a divider found in part (this fraction shorter than the photo's clear dividers, and it may grow to
    # as much longer) is run on along its axis while it still stands out from what lies beside it ...
    divider_extend_short: float = 0.15
    divider_extend_max: float = 0.5  # ... at most this fraction of its length further each way (0: off) ...
    divider_extend_contrast: float = 0.4  # ... by this fraction of the contrast it has where it was found
    divider_extend_gap: float = 2.0  # ... bridging gaps of up to this many pixels
    divider_extend_clear: float = 0.8  # (a divider whose face fits this well is a clear one)
    # a thin mark that is no line as a whole (a divider joined to a seam or a tile's edge) is searched for
    # straight runs (Hough), fitted as dividers where the tiles found leave room
    divider_straights: bool = True
    straight_min_len: float = 2.0  # ... runs at least this many times divider_min_len long
    straight_span_min: float = 0.45  # ... and this many times the found tiles' width (median), at least
    straight_span_max: float = 1.2  # ... and at most
    straight_both_marked: bool = True  # ... and a face found so needs a mark (pips, logo) on each half
    straight_max_taper: float = 1.6  # ... and opposite sides that differ in length by this factor at most
    split_max_area: float = 0.0  # marks up to this fraction of the image are split into thin and thick parts (0: off)
    divider_span_min: float = 0.5  # divider length / tile width, lowest plausible
    divider_span_max: float = 1.08  # divider length / tile width, highest plausible
    face_min_lightness: float = 0.0  # lowest Lab L (0..255) of a face; ivory sets use it to ignore dark ground
    face_min_a: float = 114.0  # lowest Lab a (128 grey, lower green) of a face: wood is never green, grass is
    #   (pine in cool shade comes to about 120; 0: not checked)
    max_face_spread: float = 12.0  # robust spread (Lab units) of the face beside the divider; busier is ground
    face_tolerance: float = 3.2  # face colour distance allowed, in robust spreads of the face sample
    face_tolerance_min: float = 14.0  # ... but never less than this many Lab units
    face_tolerance_max: float = 40.0  # ... nor more
    divider_span_typical: float = 0.8  # usual divider length / tile width, for a side without a visible edge
    tile_aspect_typical: float = 2.0  # usual long/short side, for an end without a visible edge
    joint_ends: bool = False  # look for both ends together (they are about equally far from the divider)
    end_asymmetry: float = 0.25  # ends' distances from the divider may differ by this fraction (perspective)
    side_asymmetry: float = 0.2  # long sides' distances from the divider's centre may differ by this fraction
    #   (more: the farther one is taken for a neighbour's and mirrored from the nearer; 0: off)
    max_guessed_sides: int = 3  # sides of a face that may be inferred rather than seen
    tile_aspect_min: float = 1.15  # long/short side of a found face (a tile tilted 50 degrees shortens)
    tile_aspect_max: float = 3.4
    divider_center_tol: float = 0.16  # divider centre's distance from the face centre, in tile lengths
    divider_angle_tol: float = 22.0  # degrees between the divider and the face's short side
    spot_max_size: float = 0.06  # largest pip-like mark, as a fraction of the working image's longer side
    fit_divider_px: float = 40.0  # a face is fitted on a copy reduced so that its divider is at most this long
    edge_step: float = 0.04  # step of the edge search, in divider lengths
    edge_baseline: float = 3.0  # pixels (working image) over which an edge's rise is measured, at least
    edge_min_rise: float = 6.0  # Lab distance a face edge must rise over on most rays
    edge_rel_rise: float = 0.45  # ... and this fraction of the strongest rise on that side
    side_rays: int = 25  # rays of the search for a long side slanting from square to the divider (0: off) ...
    side_ray_span: float = 0.9  # ... spread this far along the face each way (divider lengths)
    side_min_rays: float = 0.4  # ... of which this fraction must see one straight edge
    side_fit_tol: float = 0.06  # ... within this fraction of its distance from the divider
    side_shear_tol: float = 50.0  # degrees a long side may slant from square to the divider (steep views)
    edge_near_rise: float = 0.2  # a weaker rise (this fraction) nearer the divider gives a second face to
    #   judge: the seam between touching tiles rises less than the ground beyond them (0: off)
    # a parallel divider straight ahead (beside) puts the seam with a tile laid end to end (side by side)
    # halfway to it, and a face ending there is judged too: how far off the axis it may lie (divider
    # lengths; 0: off) plus how far it may slant from it (degrees; steep views shear a tile), how much longer
    # or shorter it may be (fraction), and how far from halfway the seam's own edge is looked for (fraction)
    seam_max_offset: float = 0.3
    seam_max_slant: float = 15.0
    seam_length_tol: float = 0.3
    seam_slack: float = 0.12
    border_margin: float = 2.0  # pixels of the working image: a face this near the border is cut off
    min_relative_size: float = 0.45  # a face shorter than this fraction of the photo's median face is dropped
    dedupe_near: float = 0.1  # faces whose centres and widths agree within this fraction of a width are one
    dedupe_angle: float = 6.0  # ... and divider lines also within this many degrees of each other
    select_full_size: float = 0.7  # of overlapping faces the most are kept; one smaller than this fraction of a
    #   clear tile counts only (size / (this * clear tile))^2 of a face
    select_score_power: float = 2.0  # a face counts as its score to this power among overlapping faces
    cut_shortfall: float = 0.12  # a side ending at the border this much shorter than its opposite: cut off
    cut_tolerance: float = 0.2  # a corner may lie this far (tile widths) beyond the border and count as whole
    ring_width: float = 0.45  # outer ring around a face, checked for contrast (diameter, in tile widths)
    ring_gap: float = 0.12  # ... leaving out this much next to the edge (bevels, seams)
    ring_tolerance: float = 0.6  # ... where "not face-coloured" means beyond this fraction of the face tolerance
    min_outside_contrast: float = 0.1  # fraction of that ring not face-coloured; a face must reach it
    min_face_fill: float = 0.7  # face pixels / area of the fitted quadrilateral
    # faces found as regions of face colour, without a divider (regions.py): the colours just around round
    # marks are clustered into this many colours (0: off) ...
    region_colours: int = 4
    region_spot_min: float = 3.0  # ... of round marks at least this many working-image pixels across
    region_spot_max: float = 0.03  # ... and at most this fraction of the working image's longer side
    region_ring: tuple = (1.8, 2.5)  # ... sampled on rings this many mark radii from each mark's centre
    region_tolerance: float = 3.0  # pixels within this many robust spreads of a colour are of it
    region_min_area: float = 100.0  # a region's hull covers at least this many working-image pixels
    region_solidity: float = 0.8  # region area / its convex hull's (pips on the rim cut notches)
    region_min_fill: float = 0.85  # hull area / its smallest enclosing rectangle's: straight sides
    region_side_band: float = 0.15  # outline points this near a side (tile widths) refit it
    region_split_aspect: float = 2.8  # a region this many times longer than wide is judged as two tiles too
    region_score: float = 0.6  # how tile-like a region counts before its contents are judged
    # the logo tile found from its emblem (emblem.py), a ring-shaped mark (0 rays: off)
    emblem_rays: int = 48  # rays from the emblem's centre that outline the face
    emblem_min_size: float = 6.0  # emblem diameter, working-image pixels, at least
    emblem_max_size: float = 0.12  # ... and at most this fraction of the working image's longer side
    emblem_min_circularity: float = 0.7  # 4*pi*area/perimeter^2 of its outline, or else ...
    emblem_min_on_circle: float = 0.7  # ... this fraction of its outline on one circle (a divider crossing it)
    emblem_ring_band: float = 0.12  # ... within this fraction of its radius
    emblem_min_hole: float = 0.15  # its largest hole / its area
    # ... or, its outline joined to other marks, its holes fill an ellipse (the divider's strip across it
    # closed over this fraction of their size) ...
    emblem_strip_close: float = 0.2
    emblem_hole_fill: float = 0.85  # ... this much of it (hole area / the fitted ellipse's)
    emblem_min_axes: float = 0.5  # ... no flatter than this (tilted up to 60 degrees), its outline as close
    #   to that ellipse as a round outline's to its circle, at least this many pixels across ...
    emblem_cover_min_size: float = 12.0
    emblem_min_cover: float = 0.85  # ... and ink covers this fraction of the way round it ...
    emblem_ring_scales: tuple = (1.03, 1.08, 1.14, 1.2)  # ... round one of these (times the holes' ellipse) ...
    emblem_max_cover_out: float = 0.4  # ... but at most this fraction of the way round an ellipse ...
    emblem_out_scale: float = 1.45  # ... this many times as large (grain lines and the divider cross it)
    emblem_in_scale: float = 0.85  # ... and the face this far in (between its ring and what it holds) ...
    emblem_face_same: float = 0.5  # ... differs from the face outside by at most this part of the ring's contrast
    emblem_max_holes: int = 4  # holes of one mark tried alone (grain joined on can close off more)
    emblem_reach: float = 3.6  # rays go this many emblem diameters (the tile is up to about 4.2 long)
    emblem_exit_run: float = 0.12  # a ray stops where it stays off the face colour this far (diameters)
    emblem_blur: float = 0.06  # the colour distance is smoothed over this (diameters): grain is not an edge
    emblem_spike: float = 1.25  # a ray this many times longer than both rays beside it slipped out: dropped
    # ... and from its word mark, whose letters lie in a row along the tile (emblem diameters):
    logo_word_reach: float = 2.4  # the word lies within this far of the emblem's centre ...
    logo_word_beyond: tuple = (0.9, 1.9)  # ... this far where it runs on beyond the emblem (logo in one half)
    logo_word_beside: tuple = (0.45, 1.1)  # ... this far where it runs beside it (logo over the divider)
    logo_divider_beside: tuple = (0.6, 1.2)  # the divider beside a logo in one half lies this far
    logo_letter_min: float = 0.005  # a letter covers this much at least (square diameters) ...
    logo_letter_gap: float = 0.5  # ... and lies at most this far from the next one
    logo_width_beyond: float = 1.3  # tile width, where the word lies beyond the emblem (logo in one half)
    logo_width_over: float = 1.6  # tile width, where the word lies beside it (logo over the divider) ...
    logo_middle_shift: float = 0.19  # ... and the tile's middle this fraction of the way towards the word

    # --- reading pips (pips.py), on the rectified tile ----------------------------------------------
    draft_slack: float = 0.9  # a JPEG may be decoded reduced down to this fraction of work_max_side
    full_res_below: float = 64.0  # a face narrower than this (pixels of a reduced decode) is read at full size
    read_pad: float = 0.0  # the outline is grown by this fraction before the face is read
    # a face read with doubt (its surer half below refine_below) is read again through outlines near the
    # found one, and the surest reading kept: the finder's outline is loose on hard faces (a seam or shadow
    # taken for an edge), and a loose outline cuts pips or takes in a neighbour's, which the reader doubts
    refine_below: float = 0.85  # (1.0 reads every face again; 0: off)
    refine_widen: tuple = (1.0, 1.15, 1.3)  # the outline's width times these ...
    refine_shift: tuple = (-0.08, 0.0, 0.08)  # ... and moved along the tile by these fractions of its length
    refine_gain: float = 0.05  # another outline is taken when it reads this much surer
    rect_width: int = 96  # pixels across a rectified tile (its length is twice this)
    face_margin: float = 0.07  # border of the rectified face ignored (bevel), in tile widths
    divider_search: float = 0.25  # the divider is looked for this far (tile widths) from the face's middle
    divider_band: float = 0.09  # half-height of the band around the divider ignored, in tile widths
    pip_background_window: float = 0.5  # pips are told from the face's median colour over a window this wide
    #   (tile widths) around them, so that shade or glare over part of a face is no ink (0: one face colour)
    pip_contrast: float = 40.0  # Lab distance from the face colour that marks a pip pixel
    pip_contrast_rel: float = 0.5  # ... or this fraction of the face's strongest marks, if that is lower
    pip_contrast_min: float = 40.0  # ... but never below this
    pip_lightness_ref: float = 150.0  # ... on a face darker than this Lab L, both scale with its lightness (0: off)
    pip_contrast_floor: float = 18.0  # ... down to this at the least
    pip_otsu: bool = True  # lower the pip threshold to Otsu's when pips clearly stand out (dim light)
    pip_contrast_dim: float = 32.0  # ... their mean contrast then being at least this
    pip_otsu_ratio: float = 5.0  # ... and this many times the face's own
    pip_contrast_spread: float = 3.0  # ... or this many robust spreads of the face, whichever is larger
    pip_area_min: float = 0.006  # pip area in square tile widths (radius 0.044)
    pip_area_max: float = 0.06  # (radius 0.138)
    pip_min_circularity: float = 0.55  # 4*pi*area/perimeter^2
    pip_max_elongation: float = 2.8  # long over short side (a pip seen through a loose outline is stretched)
    pip_off_centre_free: float = 0.06  # the pips' centroid may lie this far (tile widths) from its half's centre
    pip_off_centre_span: float = 0.12  # ... beyond it the half's confidence falls over this distance
    pip_off_centre_cost: float = 0.6  # ... by up to this fraction
    pip_size_ratio: float = 3.2  # a pip this many times larger or smaller than the half's median is not one
    logo_min_area: float = 0.15  # a non-pip mark at least this big (square tile widths) makes the half a logo
    #   (the emblem is about 0.25 or more; pips run together by blur or a loose outline make 0.05 to 0.1)
    logo_max_elongation: float = 4.0  # ... unless it is a line longer than this many times its width
    # the logo's emblem, a ring, looked for on the whole face (a logo over the divider is cut in two by it):
    logo_min_hole: float = 0.15  # a mark of logo_min_area (outline included) whose holes take this much of it
    logo_min_roundness: float = 0.75  # ... and whose convex hull is this round (4*pi*area/perimeter^2)
    logo_reach: float = 0.25  # ... is on each half that holds this fraction of its height
    logo_ink_ratio: float = 0.7  # not found so: looked for in ink of this part of the pips' contrast (a
    #   faint, blurred ring) ...
    logo_faint_hole: float = 0.5  # ... with holes this large (pips run together there enclose less)
    logo_confidence: float = 0.9  # confidence of a half read as the logo from its emblem
    max_grain_across: float = 0.15  # a face whose texture runs across it more than this (-1 along .. 1 across)
    #   is no tile: wooden tiles have the grain along their length (1: not checked, for plain sets)
    halves_max_apart: float = 14.0  # a face whose halves differ more in colour (Lab a, b) is no tile (0: off)
    grain_min_energy: float = 1.0  # squared gradient (grey levels per pixel) of texture too faint to be grain
    dim_pips_confidence: float = 0.9  # a face whose pips show only at the dim-light contrast is a tile if
    #   they read this clearly (found from its divider only) ...
    dim_pips_score: float = 0.5  # ... and judged this tile-like
    blank_needs_logo: bool = True  # the double-blank carries the logo: a face with no mark at all is no tile
    use_color_ink: bool = False  # pips differ from the face in colour as well as brightness (coloured pips)

    @classmethod
    def from_dict(cls, data: dict) -> "Profile":
        """Build a profile from a mapping; missing fields keep their defaults."""
        if not isinstance(data, dict):
            raise ProfileError(f"a profile must be a JSON object, not {type(data).__name__}")
        known = {f.name: f for f in fields(cls)}
        values = {}
        for key, value in data.items():
            if key.startswith("_"):  # comments
                continue
            if key not in known:
                raise ProfileError(f"unknown profile field: {key!r}")
            default = getattr(cls, key)
            if isinstance(default, tuple):
                ok = isinstance(value, list) and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                     for v in value)
                value = tuple(float(v) for v in value) if ok else value
            elif isinstance(default, bool):
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
        if values.get("ink_polarity", "both") not in ("dark", "light", "both"):
            raise ProfileError(f"profile field 'ink_polarity' must be dark, light or both: {values['ink_polarity']!r}")
        return cls(**values)

    def to_dict(self) -> dict:
        return asdict(self)
