"""Measure calibration: learn a profile from one photo of a whole set, then read new photos of that set.

    nice .venv/bin/python benchmarks/calibrate_benchmark.py [--count 20] [--style STYLE ...] [--set-seed 7]
                                                            [--seed-start 70000] [--size 1600x1200]
                                                            [--baseline [PROFILE]] [--out DIR]

For each style (default: pine-black, dark-light, ivory-black) it renders one full-set photo of a set
(``--set-seed`` fixes the set: colours, pips, proportions), runs ``calibration.learn.calibrate`` on it,
prints the verdict, then renders ``--count`` fresh photos of the *same* set (same style and set seed;
kinds in the scan benchmark's rotation) and reads them with the learned profile, printing recall,
precision, value accuracy and hand-exact as ``benchmarks/scan_benchmark.py`` does (its matching code is
imported, not copied). A refused calibration is still measured with the best profile it found, marked
``refused`` instead of ``learned``. ``--baseline [PROFILE]`` also reads the same photos with a shipped
profile (giant-wood if none is named). A style's set decides the range (ivory-color: double-12).
``--out DIR`` writes each learned profile (STYLE.json) and the calibration picture (STYLE.png).

Vision targets (the vision issue): recall, precision and value accuracy >= 99.5%, hand-exact >= 97%.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from scan_benchmark import HEADER, ROTATION, run_one, summarize  # noqa: E402  (sets OpenCV's pixel limit first)

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from calibration import load_profile  # noqa: E402
from calibration.learn import calibrate  # noqa: E402
from companion.synth import STYLE_NAMES, render_photo, render_scene  # noqa: E402
from companion.synth.styles import pick_style  # noqa: E402

STYLES = ("pine-black", "dark-light", "ivory-black")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid size: {text!r} (write it as WIDTHxHEIGHT)") from None
    return w, h


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=20, help="fresh photos of each set read with its learned profile")
    ap.add_argument("--style", action="append", choices=STYLE_NAMES, help="repeatable; default: " + ", ".join(STYLES))
    ap.add_argument("--set-seed", type=int, default=7, help="which set of each style (same seed: same set)")
    ap.add_argument("--seed-start", type=int, default=70000, help="seed of the first fresh photo")
    ap.add_argument("--size", type=_size, default=(1600, 1200), help="size of the full-set photo")
    ap.add_argument("--tilt", type=float, default=5.0, help="tilt of the full-set photo, degrees")
    ap.add_argument("--baseline", nargs="?", const="giant-wood", default=None, metavar="PROFILE",
                    help="also read the fresh photos with this shipped profile (default giant-wood)")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    t_all = time.perf_counter()
    rows = []
    for style in args.style or STYLES:
        image, _ = render_scene(args.set_seed, kind="full-set", style=style, set_seed=args.set_seed,
                                size=args.size, tilt_deg=args.tilt)
        t0 = time.perf_counter()
        top = pick_style(np.random.default_rng(args.set_seed), style).top  # the set: double-6, -9 or -12
        cal = calibrate(image, name=f"learned-{style}", max_pips=top)
        verdict = "OK" if cal.ok else "REFUSED"
        print(f"{style}: calibration {verdict} in {time.perf_counter() - t0:.0f} s: {cal.check.summary()} "
              f"(profile from {' + '.join(cal.steps)})", flush=True)
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"{style}.json").write_text(json.dumps(cal.profile_json(f"{style} full set"), indent=2))
            cv2.imwrite(str(args.out / f"{style}.png"), cal.picture(image))
        profiles = [("learned" if cal.ok else "refused", cal.profile)]
        if args.baseline:
            profiles.append((args.baseline, load_profile(args.baseline)))
        for title, profile in profiles:
            results = []
            for i in range(args.count):
                seed = args.seed_start + i
                data, label = render_photo(seed, kind=ROTATION[i % len(ROTATION)], style=style,
                                           set_seed=args.set_seed, name=f"{style}-{seed}.jpg")
                results.append(run_one(data, label, label["file"], profile))
            row = summarize(f"{style} {title}", results)
            if not rows:
                print(HEADER)
            rows.append(row)
            print(row, flush=True)
    print(f"\n{HEADER}")
    for row in rows:
        print(row)
    print(f"(total {time.perf_counter() - t_all:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
