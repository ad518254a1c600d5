"""Errors raised by the store. Each is a ``ValueError`` whose message quotes the bad input.

The web layer maps each class to one HTTP status (see ``companion.web.errors``); nothing else
needs to know about statuses.
"""

from __future__ import annotations


class MatchInputError(ValueError):
    """A match or round that cannot be accepted as given (bad names, target, hands...): 400."""


class UnknownRulesError(MatchInputError):
    """A rules preset (or set profile) name that does not exist: 400."""


class MatchNotFoundError(ValueError):
    """No match with this id: 404."""


class RoundNotFoundError(ValueError):
    """No round with this number in the match: 404."""


class MissingTokenError(ValueError):
    """A change without ``Authorization: Bearer <host token>``: 401."""


class WrongTokenError(ValueError):
    """A host token that does not belong to this match: 403."""


class MatchConflictError(ValueError):
    """A change that contradicts the match's state (it is already won, a reused key...): 409."""
