"""companion: the companion app for giant yard dominoes.

Packages, with dependencies pointing one way (web -> store, vision, rules; vision -> rules):

- ``companion.rules``: tiles, hands, layouts, legal moves, presets and scoring (standard library only).
- ``companion.vision``: find tiles in a photo and read their pips (NumPy, OpenCV, ONNX Runtime; no I/O).
- ``companion.store``: matches and rounds in SQLite.
- ``companion.web``: the Flask dashboard and HTTP API.
- ``companion.cli``: the ``companion`` command line (thin).

Importing the package does nothing.
"""

__version__ = "0.1.0"
