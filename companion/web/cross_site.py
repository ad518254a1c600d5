"""Refuse changes that another web site's page makes a visitor's browser send (cross-site request forgery).

Entry point: ``init_app(app)``. Every request that is not GET, HEAD or OPTIONS must come from one of
companion's own pages: the browser's ``Sec-Fetch-Site`` header must say ``same-origin`` (or ``none``:
typed or bookmarked), or, from browsers too old to send it, the ``Origin`` header must name this very
host. A request with neither header is not from a browser page (a script, curl) and passes: forgery
needs a browser. Refused requests answer 403 ``{"error": ...}`` before any view runs.

This is a second lock: changes already need the host token in an ``Authorization`` header, which
another site's form cannot set. It also keeps other sites from posting photos to ``/verify``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, request

from companion.web.errors import CrossSiteRequestError

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
OWN_PAGE = frozenset({"same-origin", "none"})


def check_same_origin() -> None:
    if request.method in SAFE_METHODS:
        return
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None:
        if fetch_site.lower() not in OWN_PAGE:
            raise CrossSiteRequestError(f"refused a {fetch_site} request: changes come from companion's own pages")
        return
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc.lower() != request.host.lower():
        raise CrossSiteRequestError(f"refused a request from {origin[:80]!r}: changes come from companion's own pages")


def init_app(app: Flask) -> None:
    app.before_request(check_same_origin)
