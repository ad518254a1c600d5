#!/usr/bin/env bash
# Sets up companion in ./.venv (Python 3.11+). `bash setup.sh --test` adds the test tools.
set -euo pipefail
cd "$(dirname "$0")"
python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "companion needs Python 3.11 or newer")'
[ -x .venv/bin/python ] || python3 -m venv .venv
extra=""
[ "${1:-}" = "--test" ] && extra="[test]"
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".${extra}"
