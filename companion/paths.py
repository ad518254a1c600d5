"""Where companion keeps a user's data: the dashboard's database and the profiles they calibrated.

``user_data_dir()`` is ``companion/`` in the platform's data directory (``$XDG_DATA_HOME`` or
``~/.local/share`` on Linux, ``~/Library/Application Support`` on macOS, ``%LOCALAPPDATA%`` on Windows).
Nothing is created here; callers make the folders they write to.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def user_data_dir() -> Path:
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "companion"
