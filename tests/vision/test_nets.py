"""The networks' files: a missing or broken one is refused by name, and one session serves many threads."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from companion.vision.nets import ModelError, Network, network


def test_a_missing_network_is_named():
    with pytest.raises(ModelError, match="no network 'nowhere.onnx'"):
        network("nowhere.onnx")


def test_a_file_that_is_no_network_is_refused(tmp_path):
    bad = tmp_path / "reader.onnx"
    bad.write_bytes(b"not a network at all")
    with pytest.raises(ModelError, match="'reader.onnx' cannot be read"):
        Network(bad)


def test_threads_share_a_network_and_agree():
    reader = network("reader.onnx")
    assert network("reader.onnx") is reader  # loaded once
    rng = np.random.default_rng(3)
    h, w = reader.session.get_inputs()[0].shape[2:]
    crops = rng.uniform(-1, 1, (4, 3, h, w)).astype(np.float32)
    alone = reader.run(crops, ["tile"])[0]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda _: reader.run(crops, ["tile"])[0], range(8)))
    for out in together:
        np.testing.assert_allclose(out, alone, atol=1e-5)
