"""Train one of the recognizer's networks on a folder made by ``dataset.py`` and write it as ONNX.

    .venv/bin/python -m calibration.training.train detector DATA [--steps 8000] [--out companion/vision/models]
    .venv/bin/python -m calibration.training.train reader DATA [--steps 6000]
    .venv/bin/python -m calibration.training.train reader DATA --widths 16,16,32,64 --neck 24 \
        --init companion/vision/models/reader.onnx --teacher companion/vision/models/reader.onnx \
        --run reader_small --out DIR   # a smaller reader, from the shipped one's busiest channels

A checkpoint (``DATA/KIND.pt``, or ``--run NAME``) is kept every few hundred steps and a run picks up from
it, so a long training can be stopped and resumed; ``--init CHECKPOINT`` starts a new run from another's
weights (a second round, after ``mine.py``), ``--init NETWORK.onnx`` from a shipped network's, narrowed to
``--widths`` and ``--neck`` where those are smaller (``narrow.py``). ``--teacher NETWORK.onnx`` adds to the loss
how far the outputs lie from that network's (distillation). ``--export-only`` writes the ONNX file from the
checkpoint. ``--freeze-norms`` keeps the batch norms' statistics fixed (a short round from a shipped network
on photos of one kind). ``--straddles SHARE`` (the reader) makes that share of the negatives of a photo with
touching tiles outlines across two of them (``samples.straddles``). One photo in fifty (by seed) is never trained
on; the losses on those are printed as it goes.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, IterableDataset

from calibration.training import samples
from calibration.training.narrow import narrow_into
from calibration.training.nets import Detector, Reader
from companion.vision import geometry as geo

MODELS_DIR = Path(__file__).resolve().parents[2] / "companion" / "vision" / "models"
MAP_CELLS = 100  # a crop's maps against a teacher's count per this many cells: of the size of the focal terms


def focal_loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """The penalty-reduced focal loss of CenterNet: cells at 1 are centres, the rest count less near one."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = target >= 0.999
    pos_loss = -((1 - p) ** 2 * torch.log(p))[pos].sum()
    neg_loss = -((1 - target) ** 4 * p ** 2 * torch.log(1 - p))[~pos].sum()
    return (pos_loss + neg_loss) / pos.sum().clamp(min=1)


def _photos(data: Path, held_out: bool) -> list[Path]:
    """The photos to train on, or those held out (one in fifty, by seed)."""
    return [p for p in sorted(data.glob("*.json")) if p.stem.isdigit() and (int(p.stem) % 50 == 0) == held_out]


def _to_tensor(images: list[np.ndarray]) -> torch.Tensor:
    x = np.stack(images).astype(np.float32)
    return torch.from_numpy((x - 127.5) / 127.5).permute(0, 3, 1, 2).contiguous()


class DetectorBatches(IterableDataset):
    def __init__(self, data: Path, batch: int, seed: int, held_out: bool = False) -> None:
        self.data, self.batch, self.seed, self.held_out = data, batch, seed, held_out
        self.labels = _photos(data, held_out)

    def __iter__(self):
        rng = np.random.default_rng(self.seed + int(time.time()))
        count = 0
        while True:
            count += 1
            if count % 500 == 0:  # the folder may still be growing
                self.labels = _photos(self.data, self.held_out)
            xs, heats, regs = [], [], []
            for _ in range(self.batch):
                path = self.labels[int(rng.integers(0, len(self.labels)))]
                label = json.loads(path.read_text())
                image = cv2.imread(str(path.with_suffix(".jpg")), cv2.IMREAD_COLOR)
                x, heat, reg = samples.detector_sample(image, label, rng)
                xs.append(x), heats.append(heat), regs.append(reg)
            yield _to_tensor(xs), torch.from_numpy(np.stack(heats)), torch.from_numpy(np.stack(regs))


class ReaderBatches(IterableDataset):
    """Crops from a pool of decoded photos, a few of which are replaced for every batch."""

    def __init__(self, data: Path, batch: int, seed: int, held_out: bool = False, pool: int = 40,
                 refresh: int = 3, straddle_share: float = 0.0) -> None:
        self.data, self.batch, self.seed, self.held_out = data, batch, seed, held_out
        self.straddle_share = straddle_share
        self.pool_size, self.refresh = pool, refresh
        self.labels = _photos(data, held_out)

    def _load(self, rng) -> samples.PoolPhoto:
        path = self.labels[int(rng.integers(0, len(self.labels)))]
        mined = path.with_name(path.stem + "_cand.json")
        return samples.PoolPhoto(cv2.imread(str(path.with_suffix(".jpg")), cv2.IMREAD_COLOR),
                                 json.loads(path.read_text()), json.loads(mined.read_text()) if mined.exists() else [])

    def __iter__(self):
        rng = np.random.default_rng(self.seed + int(time.time()))
        pool = [self._load(rng) for _ in range(self.pool_size)]
        count = 0
        while True:
            count += 1
            if count % 500 == 0:  # the folder may still be growing
                self.labels = _photos(self.data, self.held_out)
            for _ in range(self.refresh):
                pool[int(rng.integers(0, len(pool)))] = self._load(rng)
            xs, maps, kinds, weights = [], [], [], []
            for _ in range(self.batch):
                x, m, kind, weight = samples.reader_sample(pool[int(rng.integers(0, len(pool)))], rng,
                                                               self.straddle_share)
                xs.append(x), maps.append(m), kinds.append(kind), weights.append(weight)
            yield (_to_tensor(xs), torch.from_numpy(np.stack(maps)), torch.tensor(kinds, dtype=torch.float32),
                   torch.tensor(weights, dtype=torch.float32))


def detector_loss(net, batch) -> tuple[torch.Tensor, dict]:
    return detector_terms(net(batch[0]), batch)


def detector_terms(out: torch.Tensor, batch) -> tuple[torch.Tensor, dict]:
    _, heat, reg = batch
    l_heat = focal_loss(out[:, 0], heat)
    w = reg[:, 6]
    norm = w.sum().clamp(min=1)
    l_off = ((out[:, 1:3] - reg[:, 0:2]).abs().sum(1) * w).sum() / norm
    l_ang = ((out[:, 3:5] - reg[:, 2:4]).abs().sum(1) * w).sum() / norm
    l_size = ((out[:, 5:7] - reg[:, 4:6]).abs().sum(1) * w).sum() / norm
    loss = l_heat + l_off + l_ang + 2 * l_size
    return loss, {"heat": l_heat.item(), "off": l_off.item(), "angle": l_ang.item(), "size": l_size.item()}


def reader_loss(net, batch) -> tuple[torch.Tensor, dict]:
    return reader_terms(*net(batch[0]), batch)


def reader_terms(out: torch.Tensor, logit: torch.Tensor, batch) -> tuple[torch.Tensor, dict]:
    _, maps, kinds, weight = batch
    keep = weight > 0
    l_pips = focal_loss(out[keep, 0], maps[keep, 0]) if keep.any() else out.sum() * 0
    l_corners = focal_loss(out[keep, 1:5], maps[keep, 1:5]) if keep.any() else out.sum() * 0
    l_whole = F.binary_cross_entropy_with_logits(logit[:, 0], kinds[:, 0])
    l_logo = F.binary_cross_entropy_with_logits(logit[:, 1], kinds[:, 1])
    loss = l_pips + 0.5 * l_corners + l_whole + l_logo
    return loss, {"pips": l_pips.item(), "corners": l_corners.item(), "whole": l_whole.item(), "logo": l_logo.item()}


def distilled(kind: str, teacher_path: Path, share: float):
    """The network's loss plus ``share`` times how far its outputs lie from those of the network at
    ``teacher_path`` (an exported network of the same kind) on the same input, as soft targets: a smaller
    network learns from a larger one what it has learned over many rounds, and gives scores of the same
    scale, to which the profile's thresholds were fitted."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    teacher = ort.InferenceSession(str(teacher_path), options, providers=["CPUExecutionProvider"])

    def reader(net, batch):
        x = batch[0]
        out, logit = net(x)
        total, parts = reader_terms(out, logit, batch)
        maps, tile = (torch.from_numpy(t) for t in teacher.run(["maps", "tile"], {"crops": x.numpy()}))
        soft = F.binary_cross_entropy_with_logits(out, torch.sigmoid(maps), reduction="sum") / (len(x) * MAP_CELLS)
        soft = soft + F.binary_cross_entropy_with_logits(logit, torch.sigmoid(tile))
        parts["teacher"] = soft.item()
        return total + share * soft, parts

    def detector(net, batch):
        x = batch[0]
        out = net(x)
        total, parts = detector_terms(out, batch)
        maps = torch.from_numpy(teacher.run(["maps"], {"image": x.numpy()})[0])
        heat = torch.sigmoid(maps[:, 0])
        soft = F.binary_cross_entropy_with_logits(out[:, 0], heat, reduction="sum") / (len(x) * MAP_CELLS)
        near = heat * (heat > 0.1)  # the offsets, axes and sizes where the teacher sees a centre
        soft = soft + ((out[:, 1:7] - maps[:, 1:7]).abs().sum(1) * near).sum() / near.sum().clamp(min=1)
        parts["teacher"] = soft.item()
        return total + share * soft, parts
    return reader if kind == "reader" else detector


def weights_from_onnx(net: torch.nn.Module, path: Path, example: torch.Tensor) -> None:
    """Load an exported network's weights back into ``net`` (the same architecture). The export folded each
    batch norm into its convolution, so the norms become identities that carry the folded bias; convolutions
    are paired in the order the forward pass runs them."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    values = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in model.graph.initializer}
    nodes = [n for n in model.graph.node if n.op_type in ("Conv", "Gemm")]
    norm_after = {}
    for seq in net.modules():
        if isinstance(seq, nn.Sequential):
            for a, b in zip(seq, list(seq)[1:]):
                if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d):
                    norm_after[a] = b
    order: list[nn.Module] = []
    hooks = [m.register_forward_hook(lambda m, i, o: order.append(m)) for m in net.modules()
             if isinstance(m, (nn.Conv2d, nn.Linear))]
    net.eval()
    with torch.no_grad():
        net(example)
    for h in hooks:
        h.remove()
    if len(order) != len(nodes):
        raise ValueError(f"{path} has {len(nodes)} layers, the network {len(order)}")
    with torch.no_grad():
        for node, layer in zip(nodes, order):
            weight = values[node.input[1]]
            if weight.shape != layer.weight.shape:
                raise ValueError(f"{path}: layer {node.name} is {tuple(weight.shape)}, not {tuple(layer.weight.shape)}")
            layer.weight.copy_(weight)
            bias = values[node.input[2]] if len(node.input) > 2 else torch.zeros(weight.shape[0])
            norm = norm_after.get(layer)
            if norm is None:
                layer.bias.copy_(bias)
            else:
                norm.weight.fill_(1.0)
                norm.bias.copy_(bias)
                norm.running_mean.zero_()
                norm.running_var.fill_(1.0 - norm.eps)


def settle_norms(net: torch.nn.Module, images: list[torch.Tensor]) -> None:
    """Give the identity norms of ``weights_from_onnx`` the statistics of real inputs, so that training, which
    normalises by each batch's own, starts from the same function the exported network computes."""
    stats: dict[nn.BatchNorm2d, list[torch.Tensor]] = {}
    hooks = [norm.register_forward_hook(lambda norm, i, o: stats.setdefault(norm, []).append(i[0]))
             for norm in net.modules() if isinstance(norm, nn.BatchNorm2d)]
    net.eval()
    with torch.no_grad():
        for x in images:
            net(x)
        for h in hooks:
            h.remove()
        for norm, seen in stats.items():
            z = torch.cat([t.transpose(0, 1).reshape(t.shape[1], -1) for t in seen], dim=1)
            mean, var = z.mean(dim=1), z.var(dim=1)
            norm.bias.add_(mean)
            norm.weight.copy_(torch.sqrt(var + norm.eps))
            norm.running_mean.copy_(mean)
            norm.running_var.copy_(var)


def training_mode(net: torch.nn.Module, freeze_norms: bool) -> None:
    """Train ``net``; with ``freeze_norms`` its batch norms keep normalising by the statistics they have, so
    a short round on photos of one kind (steep views) does not move the scales of every layer to theirs."""
    net.train()
    if freeze_norms:
        for norm in net.modules():
            if isinstance(norm, nn.BatchNorm2d):
                norm.eval()


def export(net: torch.nn.Module, kind: str, out: Path) -> Path:
    net.eval()
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{kind}.onnx"
    if kind == "detector":
        dummy = torch.zeros(1, 3, 448, 448)
        torch.onnx.export(net, dummy, str(path), input_names=["image"], output_names=["maps"], opset_version=13,
                          dynamic_axes={"image": {0: "n", 2: "h", 3: "w"}, "maps": {0: "n", 2: "h", 3: "w"}},
                          dynamo=False)
    else:
        dummy = torch.zeros(1, 3, geo.CROP_H, geo.CROP_W)
        torch.onnx.export(net, dummy, str(path), input_names=["crops"], output_names=["maps", "tile"],
                          opset_version=13, dynamic_axes={"crops": {0: "n"}, "maps": {0: "n"}, "tile": {0: "n"}},
                          dynamo=False)
    return path


def _widths(text: str) -> tuple[int, ...]:
    """``--widths``: positive whole numbers, comma-separated."""
    try:
        widths = tuple(int(w) for w in text.split(","))
    except ValueError:
        widths = ()
    if not widths or min(widths) < 1:
        raise argparse.ArgumentTypeError(f"expected positive whole numbers separated by commas, not {text!r}")
    return widths


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Train a network of the recognizer.")
    ap.add_argument("kind", choices=("detector", "reader"))
    ap.add_argument("data", type=Path)
    ap.add_argument("--steps", type=int, default=None)
    ap.add_argument("--batch", type=int, default=None)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", type=Path, default=MODELS_DIR)
    ap.add_argument("--export-only", action="store_true")
    ap.add_argument("--run", default=None, help="the checkpoint's name in DATA (default: the kind)")
    ap.add_argument("--init", type=Path, default=None,
                    help="start from this checkpoint's weights (those whose shapes still fit), or from a .onnx "
                         "network's of nets.py's widths (narrowed to --widths), with a fresh schedule")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--widths", type=_widths, default=None,
                    help="the network's stage widths, e.g. 16,24,48,64 (default: nets.py's)")
    ap.add_argument("--neck", type=int, default=None, help="the width of its feature pyramid (default: nets.py's)")
    ap.add_argument("--teacher", type=Path, default=None,
                    help="a network's .onnx, of the same kind, to learn from too (distillation)")
    ap.add_argument("--teacher-share", type=float, default=1.0)
    ap.add_argument("--freeze-norms", action="store_true",
                    help="keep the batch norms' statistics as they are (a short round from a shipped network)")
    ap.add_argument("--straddles", type=float, default=0.0, metavar="SHARE",
                    help="the reader: this share (0 to 1) of the negatives of a photo with touching tiles lie across "
                         "two of them (default 0)")
    args = ap.parse_args(argv)
    if not 0.0 <= args.straddles <= 1.0:
        ap.error(f"--straddles: a share from 0 to 1, not {args.straddles}")
    if args.straddles and args.kind != "reader":
        ap.error("--straddles: only the reader learns from outlines across two tiles")
    stages = 5 if args.kind == "detector" else 4
    if args.widths and len(args.widths) != stages:
        ap.error(f"--widths: the {args.kind} has {stages} stages, not {len(args.widths)}")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    detector = args.kind == "detector"
    steps = args.steps or (8000 if detector else 6000)
    batch = args.batch or (10 if detector else 64)
    shape = {**({"widths": args.widths} if args.widths else {}),
             **({"neck": args.neck} if args.neck else {})}
    net = Detector(**shape) if detector else Reader(**shape)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    ckpt = args.data / f"{args.run or args.kind}.pt"
    if args.freeze_norms and args.init is None and not ckpt.exists():
        ap.error("--freeze-norms needs --init: a new network's norms have no statistics of real inputs to keep")
    step = 0
    wide = None  # a network of nets.py's widths to start from, this one's or narrowed to this one's
    if args.init is not None and args.init.suffix == ".onnx" and not ckpt.exists():
        wide = Detector() if detector else Reader()
        try:
            weights_from_onnx(wide, args.init, torch.zeros(1, 3, geo.CROP_H, geo.CROP_W) if not detector
                              else torch.zeros(1, 3, 128, 128))
        except ValueError as e:
            ap.error(f"--init: not a {args.kind} of nets.py's widths: {e}")
    elif args.init is not None and not ckpt.exists():
        old = torch.load(args.init, map_location="cpu")["net"]
        own = net.state_dict()
        fits = {k: v for k, v in old.items() if k in own and own[k].shape == v.shape}
        net.load_state_dict(fits, strict=False)
        print(f"started from {args.init}: {len(fits)} of {len(own)} tensors", flush=True)
    if ckpt.exists():
        state = torch.load(ckpt, map_location="cpu")
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        step = state["step"]
        print(f"resumed {args.kind} at step {step}", flush=True)
    if args.export_only:
        print(export(net, args.kind, args.out))
        return 0
    if detector:
        train, held = DetectorBatches(args.data, batch, args.seed), DetectorBatches(args.data, batch, 12345, True)
    else:
        train = ReaderBatches(args.data, batch, args.seed, straddle_share=args.straddles)
        held = ReaderBatches(args.data, batch, 12345, held_out=True, straddle_share=args.straddles)
    print(f"{args.kind}: {len(train.labels)} photos to train on, {len(held.labels)} held out; {steps} steps of {batch}",
          flush=True)
    loader = iter(DataLoader(train, batch_size=None, num_workers=1, prefetch_factor=4))
    held_batches = [b for b, _ in zip(iter(held), range(6))]
    if wide is not None and step == 0:
        inputs = [next(loader)[0] for _ in range(8)]
        try:
            kept = narrow_into(wide, net, inputs)  # all of it where the widths are the same
        except ValueError as e:
            ap.error(f"--widths, --neck: wider than {args.init}: {e}")
        print(f"started from {args.init}, channels kept: " + ", ".join(f"{g} {len(k)}" for g, k in kept.items()),
              flush=True)
        settle_norms(net, inputs)
    loss_fn = detector_loss if detector else reader_loss
    if args.teacher is not None:
        loss_fn = distilled(args.kind, args.teacher, args.teacher_share)
    t0, seen = time.perf_counter(), {}
    while step < steps:
        lr = args.lr * 0.5 * (1 + math.cos(math.pi * step / steps)) if step > 200 else args.lr * (step + 1) / 200
        for group in opt.param_groups:
            group["lr"] = lr
        training_mode(net, args.freeze_norms)
        loss, parts = loss_fn(net, next(loader))
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 5.0)
        opt.step()
        step += 1
        for k, v in parts.items():
            seen[k] = seen.get(k, 0.0) + v
        if step % 100 == 0:
            msg = " ".join(f"{k} {v / 100:.4f}" for k, v in seen.items())
            seen = {}
            print(f"step {step} lr {lr:.5f} {msg} ({time.perf_counter() - t0:.0f} s)", flush=True)
        if step % 500 == 0 or step == steps:
            net.eval()
            with torch.no_grad():
                held_parts = {}
                for b in held_batches:
                    for k, v in loss_fn(net, b)[1].items():
                        held_parts[k] = held_parts.get(k, 0.0) + v / len(held_batches)
            print("  held out: " + " ".join(f"{k} {v:.4f}" for k, v in held_parts.items()), flush=True)
            torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "step": step}, ckpt)
            export(net, args.kind, args.out)
    print(f"wrote {export(net, args.kind, args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
