"""Set styles for the synthetic photo generator: what one domino set looks like.

Entry point: ``pick_style(rng, name)`` returns a frozen ``SetStyle`` (wood colours, grain strength, pip
colour and kind, divider kind, logo colours, tile proportions, the set's highest half). ``STYLE_NAMES``
lists the named styles; ``None`` picks from a random mixture of giant wooden sets (pale pine to dark
stained wood). ``ivory-color`` is a double-12 set of ivory plastic with a colour for each number of pips.

Conventions: colours are BGR floats in 0..1 (linear-ish, multiplied by lighting later); lengths are in
units of the tile's width (a tile is ``2 x 1`` on its face and ``thickness`` high).

Raises ``UnknownStyleError`` (``ValueError``) for a style name that does not exist.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

STYLE_NAMES = ("pine-black", "dark-light", "ivory-black", "walnut-black", "painted-white", "ivory-color")

PIP_KINDS = ("painted", "burned", "drilled")
DIVIDER_KINDS = ("line", "groove")


class UnknownStyleError(ValueError):
    """A style name that the generator does not know."""


@dataclass(frozen=True)
class SetStyle:
    """How every tile of one set looks (each tile then varies a little around it)."""

    name: str
    wood_light: tuple[float, float, float]  # BGR of the pale grain
    wood_dark: tuple[float, float, float]  # BGR of the dark grain (rings)
    grain: float  # 0 (plain, ivory-like) .. 1 (strong grain)
    knots: float  # expected knots per tile face
    pip_color: tuple[float, float, float]
    pip_kind: str  # painted | burned | drilled
    pip_radius: float  # in tile widths
    pip_spread: float  # distance of the corner pips from the half's centre, in tile widths
    six_along: bool  # the six as two rows of three along the tile's long axis (else across)
    divider_kind: str  # line | groove
    divider_width: float  # in tile widths
    divider_span: float  # fraction of the tile's width the divider crosses
    logo_color: tuple[float, float, float]
    logo_accent: tuple[float, float, float]
    thickness: float  # tile height in tile widths
    bevel: float  # rounded edge width in tile widths
    gloss: float  # 0 matte .. 1 varnished (glare strength)
    wear: float = 0.0  # 0 new .. 0.5 paint worn off in patches (pips keep at least half their contrast)
    top: int = 6  # the set's highest half: 6 (double-six), 9 or 12
    value_colors: tuple | None = None  # a pip colour per number of pips (0..top), for sets coloured so
    logo: bool = True  # the double-blank carries the brand's logo


def _jitter(rng: np.random.Generator, color: tuple[float, float, float], amount: float) -> tuple[float, float, float]:
    # mostly a change of brightness, a little of hue
    c = np.asarray(color) * (1.0 + rng.normal(0.0, amount)) * (1.0 + rng.normal(0.0, amount / 4, 3))
    c = np.clip(c, 0.0, 1.0)
    return (float(c[0]), float(c[1]), float(c[2]))


def _hue_colour(hue: float, rng: np.random.Generator) -> tuple[float, float, float]:
    """A saturated BGR colour of OpenCV hue ``hue`` (0..180)."""
    hsv = np.uint8([[[int(hue) % 180, int(rng.uniform(160, 255)), int(rng.uniform(140, 240))]]])
    b, g, r = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0] / 255.0
    return (float(b), float(g), float(r))


def pick_style(rng: np.random.Generator, name: str | None = None) -> SetStyle:
    """A set style: one of ``STYLE_NAMES`` (jittered a little) or, for ``None``, a random giant wooden set."""
    if name is not None and name not in STYLE_NAMES:
        raise UnknownStyleError(f"unknown style: {name!r} (known: {', '.join(STYLE_NAMES)})")
    if name is None:
        name = str(rng.choice(["pine-black", "pine-black", "dark-light", "walnut-black", "painted-white",
                               "pine-black", "dark-light"]))
        label = "giant-wood/" + name
    else:
        label = name
    black = _jitter(rng, (0.06, 0.06, 0.07), 0.3)
    common = dict(
        pip_kind=str(rng.choice(PIP_KINDS)),
        pip_radius=float(rng.uniform(0.075, 0.105)),
        pip_spread=float(rng.uniform(0.25, 0.30)),
        six_along=bool(rng.random() < 0.5),
        divider_kind=str(rng.choice(DIVIDER_KINDS)),
        divider_width=float(rng.uniform(0.025, 0.05)),
        divider_span=float(rng.uniform(0.6, 1.0)),
        thickness=float(rng.uniform(0.22, 0.45)),
        bevel=float(rng.uniform(0.01, 0.04)),
        gloss=float(rng.uniform(0.1, 0.8)),
        logo_accent=_jitter(rng, (0.15, 0.2, 0.75), 0.2),  # a red accent
        wear=float(rng.uniform(0.1, 0.5)) if rng.random() < 0.35 else 0.0,
    )
    if name == "pine-black":
        return SetStyle(name=label, wood_light=_jitter(rng, (0.62, 0.80, 0.90), 0.06),
                        wood_dark=_jitter(rng, (0.33, 0.52, 0.70), 0.08), grain=float(rng.uniform(0.5, 1.0)),
                        knots=float(rng.uniform(0.0, 0.5)), pip_color=black, logo_color=black, **common)
    if name == "walnut-black":
        return SetStyle(name=label, wood_light=_jitter(rng, (0.42, 0.58, 0.72), 0.08),
                        wood_dark=_jitter(rng, (0.25, 0.38, 0.52), 0.1), grain=float(rng.uniform(0.6, 1.0)),
                        knots=float(rng.uniform(0.0, 0.4)), pip_color=black, logo_color=black, **common)
    if name == "dark-light":
        light = _jitter(rng, (0.88, 0.92, 0.94), 0.04)
        common["pip_kind"] = str(rng.choice(["painted", "painted", "drilled"]))
        return SetStyle(name=label, wood_light=_jitter(rng, (0.20, 0.30, 0.42), 0.12),
                        wood_dark=_jitter(rng, (0.09, 0.15, 0.24), 0.12), grain=float(rng.uniform(0.4, 0.9)),
                        knots=float(rng.uniform(0.0, 0.3)), pip_color=light, logo_color=light, **common)
    if name == "ivory-black":
        common.update(pip_kind=str(rng.choice(["painted", "drilled"])), thickness=float(rng.uniform(0.2, 0.35)),
                      gloss=float(rng.uniform(0.4, 0.9)))
        return SetStyle(name=label, wood_light=_jitter(rng, (0.80, 0.90, 0.93), 0.03),
                        wood_dark=_jitter(rng, (0.74, 0.85, 0.89), 0.03), grain=float(rng.uniform(0.0, 0.15)),
                        knots=0.0, pip_color=black, logo_color=black, **common)
    if name == "ivory-color":  # double-12 in ivory plastic: coloured pips, a black bar, no logo
        hues = rng.permutation(np.linspace(0, 180, 13, endpoint=False))
        colors = [_hue_colour(h, rng) for h in hues]
        colors[int(rng.integers(1, 13))] = black  # one number is usually black
        common.update(pip_kind=str(rng.choice(["painted", "drilled"])), pip_radius=float(rng.uniform(0.07, 0.125)),
                      pip_spread=float(rng.uniform(0.28, 0.32)), divider_kind="line", divider_span=float(rng.uniform(0.6, 0.8)),
                      thickness=float(rng.uniform(0.2, 0.35)), gloss=float(rng.uniform(0.4, 0.9)))
        return SetStyle(name=label, wood_light=_jitter(rng, (0.86, 0.92, 0.93), 0.03),
                        wood_dark=_jitter(rng, (0.80, 0.87, 0.89), 0.03), grain=float(rng.uniform(0.0, 0.1)),
                        knots=0.0, pip_color=black, logo_color=black, top=12, value_colors=tuple(colors), logo=False,
                        **common)
    # painted-white: a wooden set painted white with black pips; the grain shows faintly through
    return SetStyle(name=label, wood_light=_jitter(rng, (0.90, 0.92, 0.93), 0.03),
                    wood_dark=_jitter(rng, (0.80, 0.84, 0.86), 0.03), grain=float(rng.uniform(0.15, 0.35)),
                    knots=float(rng.uniform(0.0, 0.1)), pip_color=black, logo_color=black, **common)
