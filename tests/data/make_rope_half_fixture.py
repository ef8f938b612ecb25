#!/usr/bin/python3
"""Writes tests/data/ropehalf/: faithful RoPE cos|sin caches with an attention factor given in the
config, stored in half precision, as tst_cliropehalf checks them (run by hand, not by the tests;
needs numpy and torch).

Each case is one rope_type with `attention_factor` set explicitly (not a round number), computed as
transformers does (src/transformers/modeling_rope_utils.py: _compute_yarn_parameters takes
config.rope_scaling["attention_factor"] as given, _compute_longrope_parameters likewise;
_compute_linear_scaling_rope_parameters, _compute_dynamic_ntk_parameters at seq_len = L and
_compute_llama3_parameters; then LlamaRotaryEmbedding.forward: freqs = inv_freq.float() @
position_ids.float(), emb = cat((freqs, freqs)), cos = emb.cos() * attention_scaling) by two
independent implementations:
- "torch32": torch float32 on the CPU, the code above, the cache then cast with .to(dtype);
- "numpy64": numpy in float64 throughout, cast to the half dtype at the end (by torch, once).
The half dtype is bfloat16 or float16 (the dtype a model runs in: `cos.to(dtype=x.dtype)`).
transformers reads attention_factor only for yarn and longrope; for linear, dynamic and llama3 the
amplitude is a port's own multiplier of the same table (the cache is c T), which no faithful
computation's rounding tells from a mistake: it is never `mistake` undeclared.

Writes ropehalf/caches.safetensors (one tensor per case, BF16 or F16, rows x rotary_dim) and
ropehalf/cases.json (each case: its tensor name, the table, rope_type, the attention factor, and the
model config a --expect-config of it reads).
Usage: /usr/bin/python3 tests/data/make_rope_half_fixture.py
"""
import json
import math
import os
import struct

import numpy as np
import torch

here = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(here, "ropehalf")
ROWS = 256
# Attention factors a config could write, none of few digits.
FACTORS = [1.5888, 1.2347, 1.0713, 1.3619, 1.1873]
IMPLS = ["torch32", "numpy64"]
DTYPES = ["bfloat16", "float16"]

# Phi-3-mini-128k-instruct's short_factor (tests/data/configs/Phi-3-mini-128k-instruct.json): a table
# of at most original_max_position_embeddings rows uses it (longrope_frequency_update).
with open(os.path.join(here, "configs", "Phi-3-mini-128k-instruct.json")) as f:
    PHI3 = json.load(f)


def scaling(kind):
    """rope_theta, head dim, max_position_embeddings and rope_scaling (without attention_factor)."""
    if kind == "yarn":
        return 1e6, 64, 16384, {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}
    if kind == "longrope":
        s = PHI3["rope_scaling"]
        return 1e4, 96, 131072, {"rope_type": "longrope", "long_factor": s["long_factor"],
                                 "short_factor": s["short_factor"], "original_max_position_embeddings": 4096}
    if kind == "llama3":
        return 5e5, 64, 131072, {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                 "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}
    if kind == "linear":
        return 1e4, 64, 8192, {"rope_type": "linear", "factor": 4.0}
    return 1e4, 64, 128, {"rope_type": "dynamic", "factor": 2.0}


def inv_freq(lib, kind, theta, dim, maxpos, s):
    """transformers' inv_freq in `lib` (torch float32, or numpy float64)."""
    if lib is torch:
        ar = torch.arange(0, dim, 2, dtype=torch.int64).float()
    else:
        ar = np.arange(0, dim, 2, dtype=np.int64).astype(np.float64)
    base = theta
    if kind == "dynamic":
        # _compute_dynamic_ntk_parameters: seq_len = max(seq_len, max_position_embeddings)
        seq = max(ROWS, maxpos)
        base = theta * ((s["factor"] * seq / maxpos) - (s["factor"] - 1)) ** (dim / (dim - 2))
    if kind == "yarn":
        pos_freqs = base ** (ar / dim)
        extrapolation = 1.0 / pos_freqs
        interpolation = 1.0 / (s["factor"] * pos_freqs)
        original = s["original_max_position_embeddings"]

        def correction_dim(rot):
            return (dim * math.log(original / (rot * 2 * math.pi))) / (2 * math.log(base))

        low = max(math.floor(correction_dim(32)), 0)
        high = min(math.ceil(correction_dim(1)), dim - 1)
        if low == high:
            high += 0.001
        if lib is torch:
            ramp = torch.clamp((torch.arange(dim // 2, dtype=torch.float32) - low) / (high - low), 0, 1)
        else:
            ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0, 1)
        extrapolation_factor = 1 - ramp
        return interpolation * (1 - extrapolation_factor) + extrapolation * extrapolation_factor
    if kind == "longrope":
        short = s["short_factor"]
        ext = torch.tensor(short, dtype=torch.float32) if lib is torch else np.array(short, dtype=np.float64)
        return 1.0 / (ext * base ** (ar / dim))
    inv = 1.0 / (base ** (ar / dim))
    if kind == "linear":
        inv = inv / s["factor"]
    if kind == "llama3":
        factor, low_f, high_f, old = s["factor"], s["low_freq_factor"], s["high_freq_factor"], \
            s["original_max_position_embeddings"]
        low_wavelen, high_wavelen = old / low_f, old / high_f
        wavelen = 2 * math.pi / inv
        where = torch.where if lib is torch else np.where
        inv_llama = where(wavelen > low_wavelen, inv / factor, inv)
        smooth = (old / wavelen - low_f) / (high_f - low_f)
        smoothed = (1 - smooth) * inv_llama / factor + smooth * inv_llama
        medium = ~(wavelen < high_wavelen) * ~(wavelen > low_wavelen)
        inv = where(medium, smoothed, inv_llama)
    return inv


def cache(impl, kind, attn, cosine, dtype):
    theta, dim, maxpos, s = scaling(kind)
    tdtype = getattr(torch, dtype)
    if impl == "torch32":
        inv = inv_freq(torch, kind, theta, dim, maxpos, s)
        position_ids = torch.arange(ROWS)[None, :]
        freqs = (inv[None, :, None].float() @ position_ids[:, None, :].float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        values = (emb.cos() if cosine else emb.sin()) * attn
        return values[0].to(tdtype)
    inv = inv_freq(np, kind, theta, dim, maxpos, s)
    freqs = np.arange(ROWS, dtype=np.float64)[:, None] * inv[None, :]
    emb = np.concatenate([freqs, freqs], axis=-1)
    values = (np.cos(emb) if cosine else np.sin(emb)) * attn
    return torch.from_numpy(values).to(tdtype)


def config(kind, attn):
    theta, dim, maxpos, s = scaling(kind)
    rope = dict(s)
    rope["attention_factor"] = attn
    heads = 8
    c = {"model_type": "phi3" if kind == "longrope" else "llama", "hidden_size": heads * dim,
         "num_attention_heads": heads, "num_key_value_heads": heads, "num_hidden_layers": 2,
         "max_position_embeddings": maxpos, "rope_theta": theta, "rope_scaling": rope}
    if kind == "longrope":
        c["original_max_position_embeddings"] = s["original_max_position_embeddings"]
    return c


def write_safetensors(path, tensors):
    header, blobs, offset = {}, [], 0
    for name, t in tensors:
        raw = t.contiguous().view(torch.int16).numpy().astype("<i2").tobytes()
        header[name] = {"dtype": "BF16" if t.dtype == torch.bfloat16 else "F16", "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)


def main():
    os.makedirs(OUT, exist_ok=True)
    cases, tensors, index = [], [], 0
    for kind in ["yarn", "longrope", "llama3", "linear", "dynamic"]:
        for impl in IMPLS:
            for dtype in DTYPES:
                attn = FACTORS[index % len(FACTORS)]
                cosine = index % 2 == 0
                index += 1
                name = "%s-%s-%s-%s" % (kind, impl, dtype, "cos" if cosine else "sin")
                tensors.append((name, cache(impl, kind, attn, cosine, dtype)))
                cases.append({"tensor": name, "rope_type": kind, "impl": impl, "dtype": dtype,
                              "table": "rope-cos" if cosine else "rope-sin", "attention_factor": attn,
                              "reads_attention_factor": kind in ("yarn", "longrope"),
                              "config": config(kind, attn)})
    write_safetensors(os.path.join(OUT, "caches.safetensors"), tensors)
    with open(os.path.join(OUT, "cases.json"), "w") as f:
        json.dump({"torch": torch.__version__, "numpy": np.__version__, "rows": ROWS, "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
