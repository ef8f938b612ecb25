#!/usr/bin/env python3
"""Torch-recorded resizes of a learned position grid for tests/cli/tst_cliexpectclasses.cpp.

A learned n x n grid resized to a patch grid as huggingface/transformers'
models/qwen3_vl/modeling_qwen3_vl.py, Qwen3VLVisionModel.fast_pos_embed_interpolate does it
(bilinear at torch.linspace(0, n - 1, h), weights and sum in float32, patches in 2 x 2 merge
blocks), and as llama.cpp's tools/mtmd/models/qwen3vl.cpp resize_position_embeddings() did before
ggml-org/llama.cpp#25781: F.interpolate(..., mode="bilinear", align_corners=False).

Run with the torch at hand (written with torch 1.13.0, CPU): its linspace is not the scalar form
start + step * i / end - step * (steps - 1 - i) of today's aten/src/ATen/native/cpu/
RangeFactoriesKernel.cpp linspace_kernel everywhere (1.13's kernel also ran a vectorised lambda,
Vectorized::arange(base, step)), so its positions differ from that form by a unit of n - 1 and
the cells by several units of float32. Writes tests/data/gridresize/{grid,fixed,buggy}.npy and
torch.txt (the version).

Also (tests/cli/tst_cligridresize.cpp), from the same grid:
- equal.npy: the grid resized to its own 24 x 24 patches: linspace(0, 23, 24) is the identity, the
  rows in 2 x 2 merge blocks (a 384 x 384 image at patch 16);
- rowmajor.npy: the 56 x 40 resize with its rows left row-major, the merge permute
  (view(t, h/m, m, w/m, m).permute(0, 1, 3, 2, 4)) forgotten;
- odd.npy: the resize to 15 x 21 patches, row-major (no merge block of 2 fits);
- transposed.npy: the 56 x 40 resize of the grid read transposed (row y * n + x taken as x * n + y),
  in merge blocks;
- grid_bf16.safetensors, bf16.safetensors: the grid as bfloat16 (the checkpoint's dtype) and
  fast_pos_embed_interpolate run in it: weight_tensor = torch.tensor(weight_list,
  dtype=self.pos_embed.weight.dtype), so the weights, the four products and the sum are bfloat16;
  bf16_buggy.safetensors: F.interpolate(align_corners=False) of the bfloat16 grid.
"""
import json
import os
import struct

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "gridresize")
N, DIM, H, W, MERGE = 24, 4, 56, 40, 2


def fast_pos_embed_interpolate(grid, n, h, w):
    hi, wi = torch.linspace(0, n - 1, h), torch.linspace(0, n - 1, w)
    hf, wf = hi.int(), wi.int()
    hc, wc = (hi.int() + 1).clip(max=n - 1), (wi.int() + 1).clip(max=n - 1)
    dh, dw = hi - hf, wi - wf
    idx = [(hf[:, None] * n + wf[None]).flatten(), (hf[:, None] * n + wc[None]).flatten(),
           (hc[:, None] * n + wf[None]).flatten(), (hc[:, None] * n + wc[None]).flatten()]
    wts = [((1 - dh)[:, None] * (1 - dw)[None]).flatten(), ((1 - dh)[:, None] * dw[None]).flatten(),
           (dh[:, None] * (1 - dw)[None]).flatten(), (dh[:, None] * dw[None]).flatten()]
    return sum(grid[i.long()] * wt[:, None] for i, wt in zip(idx, wts))


def interpolate_without_align_corners(grid, n, h, w):
    d = grid.shape[1]
    img = grid.T.reshape(1, d, n, n)
    out = torch.nn.functional.interpolate(img, size=(h, w), mode="bilinear", align_corners=False)
    return out[0].reshape(d, h * w).T


def merge_order(t, h, w, m):
    d = t.shape[1]
    return t.reshape(1, h // m, m, w // m, m, d).permute(0, 1, 3, 2, 4, 5).reshape(h * w, d)


def grid_transposed(grid, n):
    return grid.reshape(n, n, -1).transpose(0, 1).reshape(n * n, -1)


def fast_in_dtype(grid, n, h, w):
    """fast_pos_embed_interpolate in the grid's dtype: the weights made in float32 (linspace) and
    cast to it, as torch.tensor(weight_list, dtype=self.pos_embed.weight.dtype) does."""
    hi, wi = torch.linspace(0, n - 1, h), torch.linspace(0, n - 1, w)
    hf, wf = hi.int(), wi.int()
    hc, wc = (hi.int() + 1).clip(max=n - 1), (wi.int() + 1).clip(max=n - 1)
    dh, dw = hi - hf, wi - wf
    idx = [(hf[:, None] * n + wf[None]).flatten(), (hf[:, None] * n + wc[None]).flatten(),
           (hc[:, None] * n + wf[None]).flatten(), (hc[:, None] * n + wc[None]).flatten()]
    wts = [((1 - dh)[:, None] * (1 - dw)[None]).flatten(), ((1 - dh)[:, None] * dw[None]).flatten(),
           (dh[:, None] * (1 - dw)[None]).flatten(), (dh[:, None] * dw[None]).flatten()]
    wt = torch.tensor([x.tolist() for x in wts], dtype=grid.dtype)
    pos = grid[torch.stack(idx).long()] * wt[:, :, None]
    return pos[0] + pos[1] + pos[2] + pos[3]


def save_bf16(path, t):
    t = t.to(torch.bfloat16).contiguous()
    raw = t.view(torch.int16).numpy().tobytes()
    header = json.dumps({"t": {"dtype": "BF16", "shape": list(t.shape), "data_offsets": [0, len(raw)]}}).encode()
    header += b" " * ((8 - len(header) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(header)) + header + raw)


def main():
    os.makedirs(OUT, exist_ok=True)
    g = torch.Generator().manual_seed(24)
    grid = torch.randn(N * N, DIM, generator=g) * 0.02
    fixed = merge_order(fast_pos_embed_interpolate(grid, N, H, W), H, W, MERGE)
    buggy = merge_order(interpolate_without_align_corners(grid, N, H, W), H, W, MERGE)
    np.save(os.path.join(OUT, "grid.npy"), grid.numpy().astype(np.float32))
    np.save(os.path.join(OUT, "fixed.npy"), fixed.contiguous().numpy().astype(np.float32))
    np.save(os.path.join(OUT, "buggy.npy"), buggy.contiguous().numpy().astype(np.float32))
    equal = merge_order(fast_pos_embed_interpolate(grid, N, N, N), N, N, MERGE)
    rowmajor = fast_pos_embed_interpolate(grid, N, H, W)
    transposed = merge_order(fast_pos_embed_interpolate(grid_transposed(grid, N), N, H, W), H, W, MERGE)
    odd = fast_pos_embed_interpolate(grid, N, 15, 21)
    for name, t in (("equal", equal), ("rowmajor", rowmajor), ("odd", odd), ("transposed", transposed)):
        np.save(os.path.join(OUT, name + ".npy"), t.contiguous().numpy().astype(np.float32))
    grid16 = grid.to(torch.bfloat16)
    save_bf16(os.path.join(OUT, "grid_bf16.safetensors"), grid16)
    save_bf16(os.path.join(OUT, "bf16.safetensors"), merge_order(fast_in_dtype(grid16, N, H, W), H, W, MERGE))
    save_bf16(os.path.join(OUT, "bf16_buggy.safetensors"),
              merge_order(interpolate_without_align_corners(grid16, N, H, W), H, W, MERGE))
    with open(os.path.join(OUT, "torch.txt"), "w") as f:
        f.write("torch %s; grid %d x %d (width %d) resized to %d x %d patches, merge %d\n"
                % (torch.__version__, N, N, DIM, H, W, MERGE))


if __name__ == "__main__":
    main()
