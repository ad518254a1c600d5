"""Narrowing a trained network (``calibration/training/narrow.py``); needs PyTorch, the training extra."""

import pytest

torch = pytest.importorskip("torch")

from calibration.training.narrow import activity, narrow_into  # noqa: E402
from calibration.training.nets import Detector, Reader  # noqa: E402


def _outputs(net, x):
    net.eval()
    with torch.no_grad():
        out = net(x)
    return out if isinstance(out, tuple) else (out,)


@pytest.mark.parametrize("cls, shape", [(Reader, (2, 3, 72, 128)), (Detector, (1, 3, 96, 128))])
def test_narrowing_to_the_same_widths_keeps_the_function(cls, shape):
    torch.manual_seed(0)
    wide, same = cls(), cls()
    for p in wide.parameters():  # not the freshly made network's plain start
        p.data.normal_(0, 0.3)
    x = torch.randn(*shape)
    narrow_into(wide, same, [x])
    for a, b in zip(_outputs(wide, x), _outputs(same, x)):
        assert torch.allclose(a, b, atol=1e-5)


def test_the_most_active_channels_are_kept():
    torch.manual_seed(1)
    wide, narrow = Reader(), Reader(widths=(16, 16, 32, 64), neck=24)
    x = torch.randn(2, 3, 72, 128)
    kept = narrow_into(wide, narrow, [x])
    scores = activity(wide, [x])
    assert {g: len(k) for g, k in kept.items()} == {"g0": 16, "g1": 16, "g2": 32, "g3": 64, "neck": 24}
    for group, channels in kept.items():
        dropped = torch.ones(len(scores[group]), dtype=torch.bool)
        dropped[channels] = False
        if dropped.any():
            assert scores[group][channels].min() >= scores[group][dropped].max()
    assert narrow.stem[0].weight.shape == (16, 3, 3, 3)
    assert torch.equal(narrow.stem[0].weight, wide.stem[0].weight[kept["g0"]])


def test_a_wider_network_is_refused():
    with pytest.raises(ValueError, match="more than"):
        narrow_into(Reader(widths=(16, 16, 32, 64), neck=24), Reader(), [torch.randn(1, 3, 72, 128)])
