"""The recognizer's two networks, in PyTorch (for training; the app runs them as ONNX through ONNX Runtime).

``Detector``: a photo reduced to about 768 pixels -> 7 maps at a quarter of its size: the heat of tile
centres (a logit), the centre's offset within the cell (2), the long axis as (cos 2a, sin 2a) (2, so that
a tile turned half round is the same), and log length and log width (in units of ``SIZE_UNIT`` pixels, as
``companion.vision.detect`` reads them).

``Reader``: a crop around one tile (``companion.vision.geometry``) -> 5 maps at half the crop's size: the
heat of pip centres and of the face's four corners (logits), and two logits: is this a whole tile, and is
it a double-blank carrying a logo?

Both are small stacks of depthwise-separable convolutions with a feature pyramid, so that they run in tens
of milliseconds on one CPU core.
"""

from __future__ import annotations

import torch
from torch import nn


def _cbr(cin: int, cout: int, stride: int = 1, k: int = 3, groups: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, dilation * (k // 2), dilation=dilation, groups=groups,
                                   bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class _Sep(nn.Module):
    """Depthwise 3x3 then pointwise 1x1, with a shortcut when the shape allows."""

    def __init__(self, cin: int, cout: int, stride: int = 1, dilation: int = 1) -> None:
        super().__init__()
        self.depth = _cbr(cin, cin, stride, 3, cin, dilation)
        self.point = _cbr(cin, cout, 1, 1)
        self.shortcut = cin == cout and stride == 1

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.point(self.depth(x))
        return x + y if self.shortcut else y


class Detector(nn.Module):
    def __init__(self, widths: tuple[int, ...] = (16, 32, 64, 96, 128), neck: int = 64) -> None:
        super().__init__()
        c = widths
        self.stem = _cbr(3, c[0], 2)
        self.s4 = nn.Sequential(_Sep(c[0], c[1], 2), _Sep(c[1], c[1]))
        self.s8 = nn.Sequential(_Sep(c[1], c[2], 2), _Sep(c[2], c[2]), _Sep(c[2], c[2]))
        self.s16 = nn.Sequential(_Sep(c[2], c[3], 2), _Sep(c[3], c[3]), _Sep(c[3], c[3], dilation=2))
        self.s32 = nn.Sequential(_Sep(c[3], c[4], 2), _Sep(c[4], c[4]), _Sep(c[4], c[4], dilation=2),
                                 _Sep(c[4], c[4], dilation=4))
        self.lat = nn.ModuleList([_cbr(ci, neck, 1, 1) for ci in (c[1], c[2], c[3], c[4])])
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.head = nn.Sequential(_Sep(neck, neck), _Sep(neck, neck), nn.Conv2d(neck, 7, 1))
        with torch.no_grad():
            self.head[-1].bias.zero_()
            self.head[-1].bias[0] = -4.0  # few cells are centres

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.s4(self.stem(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        y = self.lat[3](f32)
        y = self.up(y) + self.lat[2](f16)
        y = self.up(y) + self.lat[1](f8)
        y = self.up(y) + self.lat[0](f4)
        return self.head(y)


class Reader(nn.Module):
    def __init__(self, widths: tuple[int, ...] = (24, 32, 64, 96), neck: int = 48) -> None:
        super().__init__()
        c = widths
        self.stem = _cbr(3, c[0], 2)
        self.s2 = nn.Sequential(_Sep(c[0], c[1]), _Sep(c[1], c[1]))
        self.s4 = nn.Sequential(_Sep(c[1], c[2], 2), _Sep(c[2], c[2]), _Sep(c[2], c[2], dilation=2))
        self.s8 = nn.Sequential(_Sep(c[2], c[3], 2), _Sep(c[3], c[3]), _Sep(c[3], c[3], dilation=2),
                                _Sep(c[3], c[3], dilation=3))
        self.lat = nn.ModuleList([_cbr(ci, neck, 1, 1) for ci in (c[1], c[2], c[3])])
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.head = nn.Sequential(_Sep(neck, neck), nn.Conv2d(neck, 5, 1))
        self.whole = nn.Linear(2 * c[3], 2)  # a whole tile; the logo
        with torch.no_grad():
            self.head[-1].bias.fill_(-4.0)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f2 = self.s2(self.stem(x))
        f4 = self.s4(f2)
        f8 = self.s8(f4)
        y = self.lat[2](f8)
        y = self.up(y) + self.lat[1](f4)
        y = self.up(y) + self.lat[0](f2)
        pooled = torch.cat([f8.mean(dim=(2, 3)), f8.amax(dim=(2, 3))], dim=1)
        return self.head(y), self.whole(pooled)
