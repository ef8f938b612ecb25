#!/usr/bin/python3
"""Writes tests/data/ropeprecision/faithful.json: correct RoPE tables as three independent
implementations compute them (run by hand, not by the tests; needs numpy and torch).

Each case is one rope_type at one rope_theta, head dim and length, computed as transformers does
(src/transformers/modeling_rope_utils.py: _compute_default_rope_parameters,
_compute_linear_scaling_rope_parameters, _compute_dynamic_ntk_parameters at seq_len = L,
_compute_yarn_parameters, _compute_llama3_parameters; then LlamaRotaryEmbedding.forward:
freqs = inv_freq.float() @ position_ids.float(), emb = cat((freqs, freqs)), cos = emb.cos() *
attention_scaling) by
- "torch32":  torch float32 on the CPU, the code above;
- "numpy32":  numpy in float32 throughout (np.arange(L, dtype=float32)[:, None] * inv_freq);
- "numpy64":  numpy in float64 throughout, rounded to float32 at the end.
The file records what tst_tablecheckropefaithful needs to rebuild each table bit for bit but for the
last step's cos (its own float64 cos rounded to float32, within an ulp of numpy's and torch's): the
implementation's own inv_freq (float32 for torch32/numpy32, float64 for numpy64), its attention
factor (its inv_freq as little-endian bytes in base64, a cell as its float32 bits), and 24 cells of
the implementation's own table, which the test compares with its rebuild.
Usage: /usr/bin/python3 tests/data/make_rope_precision_fixture.py [--dump DIR]
(--dump also writes each table as DIR/<name>.npy, for running posenc check on them by hand).
"""
import base64
import json
import math
import os
import sys

import numpy as np
import torch

here = os.path.dirname(os.path.abspath(__file__))
THETAS = [1e4, 5e5, 1e6, 2e6, 1e7]
TYPES = ["default", "linear", "dynamic", "yarn", "llama3"]
DIMS = [64, 128]
IMPLS = ["torch32", "numpy32", "numpy64"]
LENGTHS = [1024, 2048, 4096, 8192]
LINEAR_FACTORS = [3.0, 5.0, 6.0, 4.0, 2.5]


def scaling(kind, case):
    """The rope_parameters of a case: factor and original length by type."""
    L = case["L"]
    if kind == "linear":
        return {"factor": LINEAR_FACTORS[case["index"] % len(LINEAR_FACTORS)]}
    if kind == "dynamic":
        return {"factor": 2.0, "original": L // 2}
    if kind == "yarn":
        return {"factor": 4.0, "original": max(L // 4, 256)}
    if kind == "llama3":
        return {"factor": 8.0, "original": 8192, "low": 1.0, "high": 4.0}
    return {}


def inv_freq(lib, dtype, kind, theta, dim, s, L):
    """transformers' inv_freq and attention factor, in `lib` (torch or numpy) at `dtype`."""
    if lib is torch:
        ar = torch.arange(0, dim, 2, dtype=torch.int64).to(dtype=dtype)
    else:
        ar = np.arange(0, dim, 2, dtype=np.int64).astype(dtype)
    base = theta
    if kind == "dynamic" and L > s["original"]:
        # _compute_dynamic_ntk_parameters: base in Python float
        base = theta * ((s["factor"] * L / s["original"]) - (s["factor"] - 1)) ** (dim / (dim - 2))
    if kind == "yarn":
        pos_freqs = base ** (ar / dim)
        extrapolation = 1.0 / pos_freqs
        interpolation = 1.0 / (s["factor"] * pos_freqs)

        def correction_dim(rot):
            return (dim * math.log(s["original"] / (rot * 2 * math.pi))) / (2 * math.log(base))

        low = max(math.floor(correction_dim(32)), 0)
        high = min(math.ceil(correction_dim(1)), dim - 1)
        if low == high:
            high += 0.001
        if lib is torch:
            ramp = torch.clamp((torch.arange(dim // 2, dtype=torch.float32) - low) / (high - low), 0, 1).to(dtype)
        else:
            ramp = np.clip((np.arange(dim // 2, dtype=np.float32).astype(dtype) - low) / (high - low), 0, 1)
            ramp = ramp.astype(dtype)
        extrapolation_factor = 1 - ramp
        inv = interpolation * (1 - extrapolation_factor) + extrapolation * extrapolation_factor
        return inv, 0.1 * math.log(s["factor"]) + 1.0
    inv = 1.0 / (base ** (ar / dim))
    if kind == "linear":
        inv = inv / s["factor"]
    if kind == "llama3":
        factor, low_f, high_f, old = s["factor"], s["low"], s["high"], s["original"]
        low_wavelen, high_wavelen = old / low_f, old / high_f
        wavelen = 2 * math.pi / inv
        where = torch.where if lib is torch else np.where
        inv_llama = where(wavelen > low_wavelen, inv / factor, inv)
        smooth = (old / wavelen - low_f) / (high_f - low_f)
        smoothed = (1 - smooth) * inv_llama / factor + smooth * inv_llama
        medium = ~(wavelen < high_wavelen) * ~(wavelen > low_wavelen)
        inv = where(medium, smoothed, inv_llama)
    return inv, 1.0


def table(impl, kind, theta, dim, s, L):
    if impl == "torch32":
        inv, attn = inv_freq(torch, torch.float32, kind, theta, dim, s, L)
        position_ids = torch.arange(L)[None, :]
        freqs = (inv[None, :, None].float() @ position_ids[:, None, :].float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return (emb.cos() * attn)[0].numpy(), (emb.sin() * attn)[0].numpy(), inv.numpy(), attn
    dtype = np.float32 if impl == "numpy32" else np.float64
    inv, attn = inv_freq(np, dtype, kind, theta, dim, s, L)
    inv = inv.astype(dtype)
    freqs = np.arange(L, dtype=dtype)[:, None] * inv[None, :]
    emb = np.concatenate([freqs, freqs], axis=-1)
    cos = (np.cos(emb) * dtype(attn)).astype(np.float32)
    sin = (np.sin(emb) * dtype(attn)).astype(np.float32)
    return cos, sin, inv, attn


def main():
    dump = sys.argv[sys.argv.index("--dump") + 1] if "--dump" in sys.argv else None
    rng = np.random.default_rng(56)
    cases = []
    index = 0
    for kind in TYPES:
        for theta in THETAS:
            for dim in DIMS:
                for impl in IMPLS:
                    case = {"index": index, "L": LENGTHS[index % len(LENGTHS)]}
                    index += 1
                    s = scaling(kind, case)
                    L = case["L"]
                    cos, sin, inv, attn = table(impl, kind, theta, dim, s, L)
                    sine = index % 3 == 0
                    values = sin if sine else cos
                    rows = np.concatenate([[0, 1, L - 1], rng.integers(0, L, 21)])
                    cols = np.concatenate([[0, dim // 2, 1], rng.integers(0, dim, 21)])
                    name = "%s-%s-theta%g-d%d-L%d-%s" % (impl, kind, theta, dim, L, "sin" if sine else "cos")
                    cases.append({
                        "name": name, "impl": impl, "rope_type": kind, "theta": theta, "head_dim": dim,
                        "rows": L, "table": "sin" if sine else "cos", **s,
                        "inv_freq": base64.b64encode(np.ascontiguousarray(inv).astype("<" + inv.dtype.str[1:]).tobytes()).decode(),
                        "inv_freq_bits": 32 if inv.dtype == np.float32 else 64,
                        "attention_factor": float(attn),
                        "cells": [[int(r), int(c), int(values[r, c].view(np.uint32))] for r, c in zip(rows, cols)],
                    })
                    if dump:
                        np.save(os.path.join(dump, name + ".npy"), values)
    with open(os.path.join(here, "ropeprecision", "faithful.json"), "w") as f:
        json.dump({"torch": torch.__version__, "numpy": np.__version__, "cases": cases}, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
