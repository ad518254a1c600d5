"""Set profiles: the recognizer's thresholds for one kind of domino set.

Entry point: ``load_profile(name_or_path)``: ``None`` gives ``giant-wood``; a bare name loads a shipped
profile, ``calibration/profiles/NAME.json``, or else one the user calibrated, ``NAME.json`` in
``user_profiles_dir()`` (where ``companion calibrate`` writes); anything ending in ``.json`` (or
containing a path separator) is read as a file. Shipped profiles: ``giant-wood`` (the giant wooden
double-six set), ``ivory`` (ivory tiles, black pips) and ``twelve-color`` (double-12, ivory tiles,
coloured pips). ``calibration.learn`` learns new ones.

A profile file is a JSON object of ``companion.vision.profile.Profile`` fields; missing fields keep
their defaults, keys starting with ``_`` are comments. Raises ``UnknownProfileError`` (``ValueError``)
for a name or file that does not exist or cannot be read, and ``ProfileError`` for bad contents.
"""

from __future__ import annotations

import json
from pathlib import Path

from companion.paths import user_data_dir
from companion.vision.profile import Profile, ProfileError

__all__ = ["load_profile", "profile_names", "shipped_profile_names", "user_profiles_dir",
           "UnknownProfileError", "ProfileError", "PROFILES_DIR", "DEFAULT_PROFILE"]

PROFILES_DIR = Path(__file__).resolve().parent / "profiles"
DEFAULT_PROFILE = "giant-wood"


class UnknownProfileError(ValueError):
    """A profile name or file that does not exist or is not JSON."""


def user_profiles_dir() -> Path:
    """Where a user's calibrated profiles live (not created here)."""
    return user_data_dir() / "profiles"


def shipped_profile_names() -> list[str]:
    return sorted(p.stem for p in PROFILES_DIR.glob("*.json"))


def profile_names() -> list[str]:
    """Every profile a bare name finds: the default, the other shipped ones, then the user's own."""
    shipped = shipped_profile_names()
    try:
        own = sorted(p.stem for p in user_profiles_dir().glob("*.json") if p.stem not in shipped)
    except OSError:  # an unreadable data directory hides the user's profiles, not the shipped ones
        own = []
    return [DEFAULT_PROFILE] + [n for n in shipped if n != DEFAULT_PROFILE] + own


def load_profile(name_or_path: str | Path | None = None) -> Profile:
    """The profile named (or stored at the path) ``name_or_path``; ``None`` is the giant wooden set."""
    name = DEFAULT_PROFILE if name_or_path is None else str(name_or_path)
    if name.endswith(".json") or "/" in name or "\\" in name:
        path = Path(name)
    else:
        path = PROFILES_DIR / f"{name}.json"
        if not path.is_file():
            path = user_profiles_dir() / f"{name}.json"
        if not path.is_file():
            raise UnknownProfileError(f"unknown profile: {name!r} (known: {', '.join(profile_names())})")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UnknownProfileError(f"profile file not found: {name!r}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UnknownProfileError(f"profile file {name!r} is not readable JSON: {exc}") from None
    data.setdefault("name", path.stem)
    return Profile.from_dict(data)
