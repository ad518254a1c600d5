"""The join link and its QR code (segno, drawn as inline SVG: no image service needed).

Entry points: ``join_url(path)``: the page's URL as phones must reach it. When the page was opened
on the server itself (``localhost``), the host part becomes the server's LAN address (``LAN_HOST``,
set by ``companion serve`` when it listens on every interface), so the code works for phones.
``qr_svg(url)``: the code as SVG markup; ``reachable_from_phones(url)``: False for a localhost URL.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

import segno
from flask import current_app, request
from markupsafe import Markup

LOOPBACK_NAMES = {"localhost", "localhost.localdomain"}


def _is_loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def join_url(path: str) -> str:
    host = request.host
    name, _, port = host.rpartition(":") if host.count(":") == 1 or host.startswith("[") else (host, "", "")
    if not name:
        name, port = host, ""
    lan = current_app.config.get("LAN_HOST")
    if lan and _is_loopback(name):
        host = f"{lan}:{port}" if port else lan
    return f"{request.scheme}://{host}{path}"


def reachable_from_phones(url: str) -> bool:
    """False when ``url`` names this computer only (localhost): phones cannot open it."""
    host = urlsplit(url).hostname or ""
    return not _is_loopback(host)


def qr_svg(url: str) -> Markup:
    code = segno.make(url, error="m")
    return Markup(code.svg_inline(scale=6, border=2, dark="#101820", light="#ffffff", omitsize=True))
