"""Write synthetic photos and their label files (NAME.jpg + NAME.json) into a folder.

    .venv/bin/python benchmarks/make_photos.py OUT_DIR [--count N] [--seed-start S] [--kind KIND ...]
                                               [--style STYLE] [--set-seed N] [--size WxH] [--exif 0.1]
                                               [--tilt LOW HIGH]
    .venv/bin/python benchmarks/make_photos.py sample_images --sample   # regenerate the committed set

Without ``--kind`` the kinds rotate (hand, touching, crowd, layout, full-set, hand, ...). Photos are
numbered by seed, so the same command writes the same files. ``--sample`` writes the fixed list that is
committed in ``sample_images/`` (about a dozen photos, a few MB). ``--exif 0.1`` (the default) stores a
tenth of the photos turned with an EXIF orientation tag, as phones do; labels stay upright. ``--tilt 40 50``
takes each photo's camera tilt from straight down within those degrees (seeded; by default the generator's own
mix, which puts about one photo in six at 40 degrees or more, where most misreadings lie).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.synth import KINDS, STYLE_NAMES, render_photo  # noqa: E402
from companion.synth.exif import with_orientation  # noqa: E402

ROTATION = ("hand", "touching", "crowd", "hand", "layout", "hand", "full-set", "touching")

# The committed sample: (name, seed, arguments). Covers the logo tile, touching tiles, tilted views, crowds of
# 15+ tiles, lines of play (one with a wrong junction), full sets in three styles, and two 12 MP photos.
SAMPLE: tuple[tuple[str, int, dict], ...] = (
    ("hand-grass-top", 101, dict(kind="hand", size=(1600, 1200), tilt_deg=5.0, ground="grass", light="sun", count=5)),
    ("hand-deck-tilted", 102, dict(kind="hand", size=(1920, 1080), tilt_deg=40.0, ground="deck", light="dappled")),
    ("hand-webcam-dim", 103, dict(kind="hand", size=(1280, 720), tilt_deg=25.0, ground="table", light="dim-warm")),
    ("hand-blanket", 104, dict(kind="hand", size=(1600, 1200), tilt_deg=30.0, ground="blanket", light="shade", count=6)),
    ("touching-concrete", 105, dict(kind="touching", size=(2048, 1536), tilt_deg=15.0, ground="concrete", light="sun")),
    ("touching-grass-tilted", 106, dict(kind="touching", size=(1600, 1200), tilt_deg=45.0, ground="grass", light="overcast")),
    ("crowd-grass", 107, dict(kind="crowd", size=(4032, 3024), tilt_deg=20.0, ground="grass", light="sun", count=24)),
    ("crowd-deck", 108, dict(kind="crowd", size=(1920, 1080), tilt_deg=10.0, ground="deck", light="shade", count=18)),
    ("layout-legal", 109, dict(kind="layout", size=(1600, 1200), tilt_deg=30.0, ground="table", light="overcast", wrong=False)),
    ("layout-wrong", 110, dict(kind="layout", size=(1920, 1080), tilt_deg=40.0, ground="grass", light="sun", wrong=True)),
    ("fullset-pine-black", 111, dict(kind="full-set", style="pine-black", size=(3024, 4032), tilt_deg=8.0, ground="concrete", light="overcast")),
    ("fullset-dark-light", 112, dict(kind="full-set", style="dark-light", size=(2048, 1536), tilt_deg=15.0, ground="blanket", light="sun")),
    ("fullset-ivory-black", 113, dict(kind="full-set", style="ivory-black", size=(1600, 1200), tilt_deg=5.0, ground="table", light="shade")),
    ("hand-pine-black-exif6", 114, dict(kind="hand", style="pine-black", size=(1440, 1080), tilt_deg=35.0, ground="grass",
                                        light="dappled", orientation=6)),
)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid size: {text!r} (write it as WIDTHxHEIGHT, for example 1600x1200)")
    return w, h


def write_photo(out: Path, name: str, seed: int, quality: int | None = None, orientation: int = 1,
                **kwargs) -> dict:
    """Render and write NAME.jpg and NAME.json; ``orientation`` != 1 stores the pixels turned, with an
    EXIF tag (the label stays upright, as a person sees the photo)."""
    data, label = render_photo(seed, name=f"{name}.jpg", jpeg_quality=quality, **kwargs)
    if orientation != 1:
        data = with_orientation(data, orientation, quality=quality or 92)
        label["exif_orientation"] = orientation
    (out / f"{name}.jpg").write_bytes(data)
    (out / f"{name}.json").write_text(json.dumps(label, indent=1) + "\n")
    return label


def orientation_for(seed: int, fraction: float) -> int:
    """A seeded choice: 1 (upright) for most photos, 6, 8 or 3 for ``fraction`` of them."""
    rng = random.Random(seed * 7919 + 17)
    return rng.choice((6, 8, 3)) if rng.random() < fraction else 1


def tilt_for(seed: int, low: float, high: float) -> float:
    """A seeded tilt from straight down, in degrees, within ``low`` and ``high``."""
    return random.Random(seed * 104_729 + 3).uniform(low, high)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed-start", type=int, default=1000)
    ap.add_argument("--kind", action="append", choices=KINDS)
    ap.add_argument("--style", choices=STYLE_NAMES)
    ap.add_argument("--size", type=_size)
    ap.add_argument("--set-seed", type=int, default=None,
                    help="show the same physical set in every photo (for calibration)")
    ap.add_argument("--quality", type=int, default=None, help="JPEG quality (default: random 62..95)")
    ap.add_argument("--exif", type=float, default=0.1,
                    help="fraction of photos stored turned with an EXIF orientation tag (default 0.1)")
    ap.add_argument("--tilt", type=float, nargs=2, metavar=("LOW", "HIGH"), default=None,
                    help="the camera's tilt from straight down, in degrees, drawn within these (0 to 60)")
    ap.add_argument("--sample", action="store_true", help="write the committed sample set")
    args = ap.parse_args(argv)
    if args.tilt is not None and not 0 <= args.tilt[0] <= args.tilt[1] <= 60:
        ap.error(f"--tilt {args.tilt[0]:g} {args.tilt[1]:g}: give LOW and HIGH with 0 <= LOW <= HIGH <= 60 degrees")
    if args.tilt is not None and args.sample:
        ap.error("--tilt does not go with --sample: the committed sample's photos each have their own tilt")
    args.out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    if args.sample:
        for name, seed, kw in SAMPLE:
            label = write_photo(args.out, name, seed, quality=80, **kw)
            print(f"{name}: {len(label['tiles'])} tiles, {', '.join(label['tags'])}")
        n = len(SAMPLE)
    else:
        kinds = args.kind or list(ROTATION)
        for i in range(args.count):
            seed = args.seed_start + i
            kind = kinds[i % len(kinds)]
            tilt = tilt_for(seed, *args.tilt) if args.tilt else None
            write_photo(args.out, f"synth-{seed:06d}", seed, quality=args.quality, kind=kind, style=args.style,
                        size=args.size, orientation=orientation_for(seed, args.exif), set_seed=args.set_seed,
                        tilt_deg=tilt)
        n = args.count
    dt = time.perf_counter() - t0
    print(f"wrote {n} photos to {args.out} in {dt:.1f} s ({1000 * dt / max(n, 1):.0f} ms per photo)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
