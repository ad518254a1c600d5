"""Matches, rounds and their history, kept in SQLite (standard library ``sqlite3``).

``companion.store.db``: where the database lives, its schema, and ``write`` (every change is one
``BEGIN IMMEDIATE`` transaction). ``companion.store.matches``: every query the dashboard runs.
``companion.store.scoring``: the bridge to ``companion.rules`` that scores stored rounds.
``companion.store.errors``: the ``ValueError`` subclasses raised here.

No SQL lives outside this package. Importing it opens nothing.
"""
