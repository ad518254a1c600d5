"""The ``companion`` command line: a thin layer over rules, vision, store and web.

Exit status: 0 success, 1 some input could not be processed (the rest still was), 2 usage error.
Errors go to stderr as one line naming the bad input; ``--json`` output alone goes to stdout.
"""

from __future__ import annotations

import argparse
import os
import sys

EXIT_OK, EXIT_PARTIAL, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Bad command-line input: reported as one line, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not argparse's usage block
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="companion", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    scan = commands.add_parser("scan", help="find every tile in photos and read its pips")
    scan.add_argument("photos", nargs="+", metavar="PHOTO")
    scan.add_argument("--profile", default=None, help="set profile name or JSON file (default: giant-wood)")
    scan.add_argument("--annotate", metavar="DIR", help="write an annotated picture per photo into DIR")
    scan.add_argument("--json", action="store_true", help="JSON Lines on stdout, one object per photo")
    scan.set_defaults(handler=_cmd_scan)

    verify = commands.add_parser("verify", help="check every junction of a line of play in a photo")
    verify.add_argument("photo", metavar="PHOTO")
    verify.add_argument("--profile", default=None)
    verify.add_argument("--annotate", metavar="DIR")
    verify.add_argument("--json", action="store_true")
    verify.set_defaults(handler=_cmd_verify)

    score = commands.add_parser("score", help="score the end of a round from the hands left over")
    score.add_argument("--rules", required=True, metavar="PRESET")
    score.add_argument("--boneyard", default=None, metavar="HAND")
    score.add_argument("--table", default=None, metavar="HAND")
    score.add_argument("--json", action="store_true")
    score.add_argument("hands", nargs="+", metavar="NAME=HAND")
    score.set_defaults(handler=_cmd_score)

    rules = commands.add_parser("rules", help="list the rule presets and how each reads its manual")
    rules.add_argument("--json", action="store_true")
    rules.set_defaults(handler=_cmd_rules)

    calibrate = commands.add_parser("calibrate", help="learn a set profile from one photo of the whole set")
    calibrate.add_argument("photo", metavar="PHOTO")
    calibrate.add_argument("--name", required=True, help="the profile's name (letters, digits, . _ -)")
    calibrate.add_argument("--set", dest="set_name", default="double-six",
                           choices=["double-six", "double-nine", "double-twelve"])
    calibrate.add_argument("--out", default=None, metavar="PATH",
                           help="where to write the profile (default: NAME.json in your profiles folder, found by --profile NAME); "
                                "the picture goes beside it (.png)")
    calibrate.add_argument("--quiet", action="store_true", help="no progress on stderr")
    calibrate.set_defaults(handler=_cmd_calibrate)

    serve = commands.add_parser("serve", help="run the party dashboard")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=5000)
    serve.add_argument("--db", default=None, metavar="PATH")
    serve.set_defaults(handler=_cmd_serve)
    return parser


def _cmd_scan(args: argparse.Namespace) -> int:
    import json

    from calibration import ProfileError, UnknownProfileError, load_profile
    from companion.scanner import scan_photo

    try:
        profile = load_profile(args.profile)
    except (UnknownProfileError, ProfileError) as exc:
        raise UsageError(f"companion scan: {exc}") from None
    status = EXIT_OK
    for photo in args.photos:
        result = scan_photo(photo, profile=profile, annotate_to=args.annotate)
        if "error" in result:
            status = EXIT_PARTIAL
            print(f"companion scan: {result['error']}", file=sys.stderr)
        if args.json:
            print(json.dumps(result), flush=True)
        elif "error" not in result:
            print(f"{result['file']} ({result['width']}x{result['height']}): {len(result['tiles'])} tiles, "
                  f"{result['pip_total']} pips")
            for k, tile in enumerate(result["tiles"], 1):
                print(f"  {k:>2}. {tile['pips'][0]}|{tile['pips'][1]}  confidence {tile['confidence']:.2f}")
            for warning in result["warnings"]:
                print(f"  warning: {warning}")
    return status


def _cmd_verify(args: argparse.Namespace) -> int:
    import json

    from calibration import load_profile
    from companion.verifier import describe_junction, headline, verify_photo

    try:
        profile = load_profile(args.profile)
    except ValueError as exc:
        raise UsageError(f"companion verify: {exc}") from None
    try:
        verdict = verify_photo(args.photo, profile=profile, annotate_to=args.annotate)
    except OSError as exc:  # the annotated picture could not be written
        print(f"companion verify: --annotate {args.annotate}: {exc}", file=sys.stderr)
        return EXIT_PARTIAL
    if "error" in verdict:
        print(f"companion verify: {verdict['error']}", file=sys.stderr)
        if args.json:
            print(json.dumps(verdict))
        return EXIT_PARTIAL
    if args.json:
        print(json.dumps(verdict))
        return EXIT_OK
    junctions = verdict["junctions"]
    # the same one-line verdict as the picture and the dashboard: "legal" only when every tile was checked
    print(f"{verdict['file']}: {len(verdict['tiles'])} tiles: {headline(verdict)[0]}")
    for k in range(len(junctions)):
        print(f"  {describe_junction(verdict, k)}")
    for warning in verdict["warnings"]:
        print(f"  warning: {warning}")
    return EXIT_OK


def _cmd_score(args: argparse.Namespace) -> int:
    import json

    from companion.rules import format_hand, hand_pips, parse_hand, score_round

    try:
        hands: dict[str, object] = {}
        for item in args.hands:
            name, sep, hand = item.partition("=")
            if not sep or not name.strip():
                raise ValueError(f"invalid player hand: {item!r} (write it as NAME=HAND, for example Ann=6-4,3-3)")
            name = name.strip()
            if name in hands:
                raise ValueError(f"player {name!r} is given twice")
            try:
                hands[name] = parse_hand(hand)
            except ValueError as exc:
                raise ValueError(f"{name}'s hand: {exc}") from None
        extra = {}
        for option in ("boneyard", "table"):
            text = getattr(args, option)
            if text is not None:
                try:
                    extra[option] = parse_hand(text)
                except ValueError as exc:
                    raise ValueError(f"--{option}: {exc}") from None
        result = score_round(args.rules, hands, **extra)
    except ValueError as exc:
        raise UsageError(f"companion score: {exc}") from None
    if args.json:
        print(json.dumps(result.to_json()))
        return EXIT_OK
    head = f"{result.winner} wins {result.points} points" if result.winner else "no winner"
    print(f"{result.rules}: {head} ({result.how.value})")
    width = max(len(name) for name in result.hands)
    for name, tiles in result.hands.items():
        this = result.scores.get(name, 0)
        print(f"  {name:<{width}}  {hand_pips(tiles):>3} dots  {format_hand(tiles) or '-':<30}  +{this}")
    print(result.explanation)
    return EXIT_OK


def _cmd_rules(args: argparse.Namespace) -> int:
    import json

    from companion.rules import PRESETS

    if args.json:
        print(json.dumps([preset.to_json() for preset in PRESETS.values()]))
        return EXIT_OK
    for preset in PRESETS.values():
        info = preset.to_json()
        print(f"{preset.name}: {preset.game}, from the {preset.manual_title} ({preset.manual_file})")
        low, high = preset.players
        info["players"] = str(low) if low == high else f"{low}-{high}"
        if isinstance(info["hand_size"], dict):
            info["hand_size"] = "; ".join(f"{n} players: {size} each" for n, size in info["hand_size"].items())
        info["target"] = info["target"] or "none (won or lost)"
        for key in ("players", "hand_size", "who_starts", "drawing", "doubles", "spinners", "in_play_scoring",
                    "end_of_round_scoring", "blocked_round", "blocked_tie", "target"):
            print(f"  {key.replace('_', ' ')}: {info[key]}")
        for choice in preset.choices:
            print(f"  choice, {choice.topic}: {choice.choice}")
        print()
    return EXIT_OK


def _cmd_calibrate(args: argparse.Namespace) -> int:
    import json
    import re
    from pathlib import Path

    from companion.photo import PhotoError, load_photo  # before cv2 (sets OpenCV's pixel limit)

    import cv2

    from calibration import shipped_profile_names, user_profiles_dir
    from calibration.learn import SETS, calibrate

    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", args.name) or args.name.endswith(".json"):
        raise UsageError(f"companion calibrate: invalid --name: {args.name!r} (letters, digits, '.', '_', '-'; "
                         "no .json)")
    if not args.out and args.name in shipped_profile_names():
        raise UsageError(f"companion calibrate: --name {args.name!r} is a shipped profile; choose another name")
    out = Path(args.out) if args.out else user_profiles_dir() / f"{args.name}.json"
    if out.suffix.lower() != ".json":
        raise UsageError(f"companion calibrate: --out must end in .json: {str(out)!r}")
    picture = out.with_suffix(".png")
    try:
        image = load_photo(args.photo)
    except PhotoError as exc:
        print(f"companion calibrate: {exc}", file=sys.stderr)
        return EXIT_PARTIAL

    def progress(message: str) -> None:
        if not args.quiet:
            print(f"companion calibrate: {message}", file=sys.stderr, flush=True)

    result = calibrate(image, name=args.name, max_pips=SETS[args.set_name], progress=progress)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(picture), result.picture(image)):
            raise OSError("the picture could not be encoded")
        if result.ok:
            text = json.dumps(result.profile_json(Path(args.photo).name), indent=2) + "\n"
            out.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"companion calibrate: cannot write {out if result.ok else picture}: {exc}", file=sys.stderr)
        return EXIT_PARTIAL
    if not result.ok:
        print(f"companion calibrate: {args.photo}: refused to write profile {args.name!r}: it does not read its "
              f"own photo as a whole {args.set_name} set: {result.check.summary()} (see {picture})",
              file=sys.stderr)
        return EXIT_PARTIAL
    print(f"{args.name}: read all {result.check.expected} tiles of the {args.set_name} set exactly once "
          f"(profile from {' + '.join(result.steps)})")
    print(f"  profile: {out}   (use it with --profile {out if args.out else args.name})")
    print(f"  picture: {picture}")
    return EXIT_OK


def _cmd_serve(args: argparse.Namespace) -> int:
    from companion.web.server import serve

    if not 0 < args.port < 65536:
        raise UsageError(f"companion serve: invalid port: {args.port!r}")
    return serve(args.host, args.port, args.db)


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.handler(args)
    except UsageError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (``companion scan ... | head``): nothing left to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit's flush
        return 0


if __name__ == "__main__":
    sys.exit(main())
