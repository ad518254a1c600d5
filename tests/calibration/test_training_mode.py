"""The training step's mode (``calibration/training/train.py``); needs PyTorch, the training extra."""

import pytest

torch = pytest.importorskip("torch")

from calibration.training.nets import Reader  # noqa: E402
from calibration.training.train import training_mode  # noqa: E402


@pytest.mark.parametrize("freeze", [False, True])
def test_frozen_norms_keep_their_statistics_and_still_learn(freeze):
    torch.manual_seed(0)
    net = Reader()
    norms = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    before = [n.running_mean.clone() for n in norms]
    weights = [n.weight.clone() for n in norms]
    training_mode(net, freeze)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    maps, tile = net(torch.rand(4, 3, 72, 128) * 3 + 1)  # far from the fresh norms' zero mean
    (maps.mean() + tile.mean()).backward()
    opt.step()
    moved = any(not torch.equal(b, n.running_mean) for b, n in zip(before, norms))
    assert moved is not freeze
    assert net.training
    assert any(not torch.equal(w, n.weight) for w, n in zip(weights, norms))  # their scales still learn


def test_frozen_norms_without_a_network_to_start_from_are_refused(tmp_path, capsys):
    from calibration.training.train import main

    with pytest.raises(SystemExit):
        main(["reader", str(tmp_path), "--freeze-norms", "--steps", "1"])
    assert "--freeze-norms needs --init" in capsys.readouterr().err


@pytest.mark.parametrize("argv, said", [(["reader", "--straddles", "1.5"], "a share from 0 to 1"),
                                        (["detector", "--straddles", "0.4"], "only the reader")])
def test_a_straddles_share_out_of_range_or_for_the_detector_is_refused(tmp_path, capsys, argv, said):
    from calibration.training.train import main

    with pytest.raises(SystemExit):
        main([argv[0], str(tmp_path), *argv[1:], "--steps", "1"])
    assert said in capsys.readouterr().err
