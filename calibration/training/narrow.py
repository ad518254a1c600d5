"""Start a narrower network from a wider one of the same design (``nets.py``): keep in each stage the channels
that carry the most on real inputs and copy their weights, so that training the narrower network begins near
what the wider one learned over many rounds rather than from scratch (structured pruning, then fine-tuning).
"""

from __future__ import annotations

import torch
from torch import nn

from calibration.training.nets import Detector, Reader


def _stages(net: nn.Module) -> list[nn.Sequential]:
    return [net.s4, net.s8, net.s16, net.s32] if isinstance(net, Detector) else [net.s2, net.s4, net.s8]


def _layers(net: nn.Module) -> list[tuple[nn.Module, nn.BatchNorm2d | None, str, str]]:
    """Each convolution of ``net`` with its norm and the channel groups it reads and writes: ``g0`` the stem,
    ``gK`` stage K (a stage's blocks share their channels through the shortcuts), ``neck`` the pyramid and head."""
    layers = [(net.stem[0], net.stem[1], "image", "g0")]
    group = "g0"
    for k, stage in enumerate(_stages(net), 1):
        for block in stage:
            layers.append((block.depth[0], block.depth[1], group, group))
            layers.append((block.point[0], block.point[1], group, f"g{k}"))
            group = f"g{k}"
    layers += [(lat[0], lat[1], f"g{k}", "neck") for k, lat in enumerate(net.lat, 1)]
    for block in net.head[:-1]:
        layers += [(block.depth[0], block.depth[1], "neck", "neck"), (block.point[0], block.point[1], "neck", "neck")]
    layers.append((net.head[-1], None, "neck", "maps"))
    return layers


def activity(net: nn.Module, inputs: list[torch.Tensor]) -> dict[str, torch.Tensor]:
    """How much each channel of each group carries: its mean absolute value where the group ends (the stem's
    output, each stage's output, the head's input)."""
    sums: dict[str, torch.Tensor] = {}

    def record(group: str, x: torch.Tensor) -> None:
        sums[group] = sums.get(group, 0) + x.abs().mean(dim=(0, 2, 3))

    hooks = [net.stem.register_forward_hook(lambda m, i, o: record("g0", o)),
             net.head.register_forward_hook(lambda m, i, o: record("neck", i[0]))]
    hooks += [stage.register_forward_hook(lambda m, i, o, k=k: record(f"g{k}", o))
              for k, stage in enumerate(_stages(net), 1)]
    net.eval()
    with torch.no_grad():
        for x in inputs:
            net(x)
    for h in hooks:
        h.remove()
    return sums


def narrow_into(wide: nn.Module, narrow: nn.Module, inputs: list[torch.Tensor]) -> dict[str, torch.Tensor]:
    """Copy into ``narrow`` the weights of ``wide``'s most active channels (``inputs``: real batches); returns the
    channels kept in each group. Both networks are in eval mode's terms: norms as ``wide`` has them."""
    if type(wide) is not type(narrow):
        raise ValueError(f"cannot narrow a {type(wide).__name__} into a {type(narrow).__name__}")
    wide_layers, narrow_layers = _layers(wide), _layers(narrow)
    sizes = {out: layer.out_channels for layer, _, _, out in narrow_layers}
    for (a, _, _, out), (b, _, _, _) in zip(wide_layers, narrow_layers):
        if b.out_channels > a.out_channels:
            raise ValueError(f"group {out}: {b.out_channels} channels, more than the wider network's {a.out_channels}")
    kept = {group: torch.sort(torch.argsort(score, descending=True)[:sizes[group]]).values
            for group, score in activity(wide, inputs).items()}
    everything = slice(None)
    with torch.no_grad():
        for (a, a_norm, src, out), (b, b_norm, _, _) in zip(wide_layers, narrow_layers):
            rows = kept.get(out, everything)
            weight = a.weight[rows]
            if a.groups == 1:  # (a depthwise one reads only its own channel: no inputs to choose)
                weight = weight[:, kept.get(src, everything)]
            b.weight.copy_(weight)
            if a.bias is not None:
                b.bias.copy_(a.bias[rows])
            if a_norm is not None:
                for name in ("weight", "bias", "running_mean", "running_var"):
                    getattr(b_norm, name).copy_(getattr(a_norm, name)[rows])
        if isinstance(wide, Reader):  # the whole-tile scores read the last stage's mean and maximum
            last = kept[f"g{len(_stages(wide))}"]
            narrow.whole.weight.copy_(wide.whole.weight[:, torch.cat([last, last + wide.whole.in_features // 2])])
            narrow.whole.bias.copy_(wide.whole.bias)
    return kept
