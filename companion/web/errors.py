"""One place that turns errors into JSON answers ``{"error": message}`` with a fitting status.

``STATUS``: each ``ValueError`` subclass the app can raise, mapped to its HTTP status (the most
specific class listed first wins). HTTP errors raised by Flask (404 route, 405, 413 upload too large)
answer JSON too; a database still locked after the busy timeout answers 503 with ``Retry-After``. Anything else is logged and answers 500 ``{"error": "internal error"}``: clients
never see a stack trace.
"""

from __future__ import annotations

import sqlite3

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from companion.store.errors import (
    MatchConflictError,
    MatchInputError,
    MatchNotFoundError,
    MissingTokenError,
    RoundNotFoundError,
    WrongTokenError,
)


class BadRequestBody(ValueError):
    """A request body that is not the JSON object the endpoint expects: 400."""


class NotJsonError(ValueError):
    """A JSON endpoint called with another content type: 415."""


class NotAPhotoError(ValueError):
    """An upload that is not a readable photo: 422."""


class CrossSiteRequestError(ValueError):
    """A change sent by another site's page (``companion.web.cross_site``): 403."""


class ScanUnavailableError(ValueError):
    """The photo reader is not installed in this build: 503."""


STATUS: tuple[tuple[type[ValueError], int], ...] = (
    (MissingTokenError, 401),
    (WrongTokenError, 403),
    (CrossSiteRequestError, 403),
    (MatchNotFoundError, 404),
    (RoundNotFoundError, 404),
    (MatchConflictError, 409),
    (NotJsonError, 415),
    (NotAPhotoError, 422),
    (ScanUnavailableError, 503),
    (MatchInputError, 400),
    (BadRequestBody, 400),
    (ValueError, 400),  # any other ValueError from rules or vision is about the input
)


def status_of(exc: ValueError) -> int:
    for cls, status in STATUS:
        if isinstance(exc, cls):
            return status
    return 400


def error_response(message: str, status: int):
    response = jsonify({"error": message})
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="companion"'
    return response


def init_app(app: Flask) -> None:
    @app.errorhandler(ValueError)
    def _value_error(exc: ValueError):
        return error_response(str(exc), status_of(exc))

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        messages = {413: f"upload too large (at most {app.config['MAX_CONTENT_LENGTH'] // (1024 * 1024)} MB)"}
        return error_response(messages.get(exc.code, exc.description or exc.name), exc.code or 500)

    @app.errorhandler(sqlite3.OperationalError)
    def _database(exc: sqlite3.OperationalError):
        if "locked" in str(exc) or "busy" in str(exc):  # waited the whole busy timeout for a writer
            response = error_response("the server is busy; try again in a moment", 503)
            response.headers["Retry-After"] = "2"
            return response
        app.logger.exception("database error")
        return error_response("internal error", 500)

    @app.errorhandler(Exception)
    def _internal(exc: Exception):
        app.logger.exception("internal error")
        return error_response("internal error", 500)
