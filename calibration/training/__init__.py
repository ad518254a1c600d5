"""Training the recognizer's two networks on synthetic photos (needs the ``train`` extra: torch and onnx).

The networks ship in ``companion/vision/models/``; this package is how they were made, and how to make them
again: ``dataset.py`` renders labelled photos into a folder, ``nets.py`` defines the networks,
``train.py`` trains one and writes it as ONNX. The generator's seeds used here (10,000,000 and up) are far
from those the benchmarks measure (50,000 to 200,000), so no measured photo is ever trained on.

    .venv/bin/python -m calibration.training.dataset DATA --count 8000
    .venv/bin/python -m calibration.training.train detector DATA
    .venv/bin/python -m calibration.training.train reader DATA
"""
