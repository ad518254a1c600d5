"""The race chart: an inline SVG drawn on the server, one line per player, with the target line.

Entry point: ``race_svg(race, target)`` where ``race`` maps each player (in seating order) to their
running totals after round 0, 1, 2, ... (as ``companion.store.matches.get_match`` gives it). Returns
``Markup`` (names are escaped here), sized by its viewBox so it fills any width: big type for a TV.
``narrow=True`` draws a squarer chart whose type stays readable on a phone (the page shows one of
the two by screen width).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from markupsafe import Markup, escape

# One colour per seat, readable on the dark board and told apart by colour-blind viewers.
PLAYER_COLOURS = ("#ffb000", "#3fa9f5", "#ff5d8f", "#6fdc8c")
WIDTH, HEIGHT = 960, 420  # the TV and laptop shape; ``narrow=True`` draws a taller one for phones
NARROW_WIDTH, NARROW_HEIGHT = 560, 400
PAD_LEFT, PAD_TOP, PAD_BOTTOM = 64, 28, 48
LABEL_CHAR_PX = 16  # room for one character of an end label (24 px bold; wide digits), to leave room for names


def player_colour(seat: int) -> str:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def _nice_step(span: float) -> int:
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if span / step <= 6:
            return step
    return 10000


def _short(name: str, narrow: bool) -> str:
    """A name as an end label shows it: long names are cut (the cards above show them whole)."""
    limit = 9 if narrow else 16
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _spread(wanted: Sequence[float], *, gap: float, low: float, high: float) -> list[float]:
    """Label heights as close to ``wanted`` as possible, at least ``gap`` apart, inside [low, high]
    (close scores stay readable). Returns them in the order given."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [float(wanted[i]) for i in order]
    for k in range(len(placed)):  # push down past the label above
        placed[k] = max(placed[k], low if k == 0 else placed[k - 1] + gap)
    for k in reversed(range(len(placed))):  # then pull back up from the bottom edge
        placed[k] = min(placed[k], high if k == len(placed) - 1 else placed[k + 1] - gap)
    out = [0.0] * len(wanted)
    for k, i in enumerate(order):
        out[i] = placed[k]
    return out


def race_svg(race: Mapping[str, Sequence[int]], target: int, *, narrow: bool = False) -> Markup:
    width, height = (NARROW_WIDTH, NARROW_HEIGHT) if narrow else (WIDTH, HEIGHT)
    longest = max([len(f"{_short(name, narrow)} {totals[-1]}") for name, totals in race.items()]
                  + [len(f"target {target}")])
    pad_right = min(int(width * (0.46 if narrow else 0.4)), 30 + int(LABEL_CHAR_PX * longest))
    rounds = max((len(v) for v in race.values()), default=1) - 1
    top = max([target] + [max(v) for v in race.values() if v])
    top = top + _nice_step(top) * 0.25
    plot_w, plot_h = width - PAD_LEFT - pad_right, height - PAD_TOP - PAD_BOTTOM

    def x(i: int) -> float:
        return PAD_LEFT + plot_w * (i / max(rounds, 1))

    def y(v: float) -> float:
        return PAD_TOP + plot_h * (1 - v / top)

    parts = [f'<svg class="race{" narrow" if narrow else " wide"}" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="score after each round" xmlns="http://www.w3.org/2000/svg">']
    step = _nice_step(top)
    for v in range(0, int(top) + 1, step):
        parts.append(f'<line class="grid" x1="{PAD_LEFT}" x2="{PAD_LEFT + plot_w}" y1="{y(v):.1f}" y2="{y(v):.1f}"/>')
        parts.append(f'<text class="tick" x="{PAD_LEFT - 10}" y="{y(v) + 7:.1f}" text-anchor="end">{v}</text>')
    tick_every = max(1, -(-rounds // (6 if narrow else 12)))
    for i in range(0, rounds + 1, tick_every):
        parts.append(f'<text class="tick" x="{x(i):.1f}" y="{height - 14}" text-anchor="middle">{i}</text>')
    parts.append(f'<line class="target" x1="{PAD_LEFT}" x2="{PAD_LEFT + plot_w}" '
                 f'y1="{y(target):.1f}" y2="{y(target):.1f}"/>')
    label_x = PAD_LEFT + plot_w + 14  # every end label in one column right of the plot
    labels: list[tuple[float, str, str]] = [(y(target), f"target {target}", "target-label")]
    for seat, (name, totals) in enumerate(race.items()):
        colour = player_colour(seat)
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(totals))
        if rounds:
            parts.append(f'<polyline class="line" points="{points}" stroke="{colour}"/>')
        for i, v in enumerate(totals):
            parts.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="6" fill="{colour}"/>')
        labels.append((y(totals[-1]), f"{escape(_short(name, narrow))} {totals[-1]}", f'end-label" fill="{colour}'))
    for ly, text, css in zip(_spread([ly for ly, _, _ in labels], gap=30, low=PAD_TOP, high=height - 14),
                             [t for _, t, _ in labels], [c for _, _, c in labels]):
        parts.append(f'<text class="{css}" x="{label_x:.1f}" y="{ly + 8:.1f}">{text}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
