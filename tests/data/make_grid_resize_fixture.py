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
"""
import os

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


def main():
    os.makedirs(OUT, exist_ok=True)
    g = torch.Generator().manual_seed(24)
    grid = torch.randn(N * N, DIM, generator=g) * 0.02
    fixed = merge_order(fast_pos_embed_interpolate(grid, N, H, W), H, W, MERGE)
    buggy = merge_order(interpolate_without_align_corners(grid, N, H, W), H, W, MERGE)
    np.save(os.path.join(OUT, "grid.npy"), grid.numpy().astype(np.float32))
    np.save(os.path.join(OUT, "fixed.npy"), fixed.contiguous().numpy().astype(np.float32))
    np.save(os.path.join(OUT, "buggy.npy"), buggy.contiguous().numpy().astype(np.float32))
    with open(os.path.join(OUT, "torch.txt"), "w") as f:
        f.write("torch %s; grid %d x %d (width %d) resized to %d x %d patches, merge %d\n"
                % (torch.__version__, N, N, DIM, H, W, MERGE))


if __name__ == "__main__":
    main()
