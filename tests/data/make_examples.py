#!/usr/bin/python3
"""Writes the example files of docs/examples, which the README's commands read, with numpy in
float64 after the reference code's formulas (run by hand, not by the tests; tst_readme runs the
README's commands on them and expects the exit codes the README gives):

- cos.npy: Llama 3.1 8B's RoPE cos table (64 positions x head_dim 128) as a port computed it that
  read rope_theta but dropped rope_scaling: HF's default inv_freq = 1 / theta^(2i/d), where
  _compute_llama3_parameters (transformers, modeling_rope_utils.py) divides the low frequencies.
- reference_dump.npy and port.npy: the paper's sinusoid (d 32, 64 positions, interleaved) as
  PyTorch's PositionalEncoding computes it, and a port whose angle is p / w_i (the division
  turned round, annotated-transformer#131).
- q.npy, q_rotated.npy: a query (32 positions x head_dim 64, normal) before and after
  apply_rotary_pos_emb (modeling_llama.py: q * cos + rotate_half(q) * sin) at theta 10000.
- q-neox.npy, q-neox_rotated.npy: the same for GPT-NeoX-20B's partial rotary (head 96,
  rotary_pct 0.25: the first 24 columns turned, the rest passed; modeling_gpt_neox.py).
- q-qwen2vl.npy, q-qwen2vl_rotated.npy: Qwen2-VL-7B's M-RoPE (head 128, mrope_section 16, 24, 24,
  theta 10^6) of the prompt text:5,image:1x4x6,text:3: get_rope_index's (t, h, w) ids
  (transformers 4.x, modeling_qwen2_vl.py: an image of grid 1 x 4 x 6 patches, merged 2 x 2, is
  1 x 2 x 3 tokens after its text, and the text after it starts at the largest id + 1), each pair
  turned by the id of its axis (apply_multimodal_rotary_pos_emb).
- wpe.safetensors: a small learned position table (64 positions x 48 columns, tensor
  "wpe.weight", as GPT-2's is named): smooth random curves of the position with a little noise,
  a stand-in for a model's trained table, which is too large to ship.
Usage: /usr/bin/python3 tests/data/make_examples.py
"""
import json
import os
import struct

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "..", "..", "docs", "examples")
rng = np.random.default_rng(60)


def save(name, array):
    np.save(os.path.join(out, name), np.ascontiguousarray(array, dtype="<f4"), allow_pickle=False)


def rotate_half(x):
    h = x.shape[-1] // 2
    return np.concatenate([-x[..., h:], x[..., :h]], axis=-1)


def inv_freq(theta, dim):
    return 1.0 / theta ** (np.arange(0, dim, 2, dtype=np.float64) / dim)


# Llama 3.1 without its rope_scaling.
positions = np.arange(64, dtype=np.float64)
freqs = np.outer(positions, inv_freq(500000.0, 128))
save("cos.npy", np.cos(np.concatenate([freqs, freqs], axis=-1)))

# The paper's sinusoid, and the port that divides by the frequency.
d = 32
w = np.exp(-np.arange(0, d, 2, dtype=np.float64) * np.log(10000.0) / d)
reference = np.zeros((64, d))
reference[:, 0::2] = np.sin(np.outer(positions, w))
reference[:, 1::2] = np.cos(np.outer(positions, w))
port = np.zeros((64, d))
port[:, 0::2] = np.sin(np.outer(positions, 1.0 / w))
port[:, 1::2] = np.cos(np.outer(positions, 1.0 / w))
save("reference_dump.npy", reference)
save("port.npy", port)

# A query before and after RoPE, whole and partial.
q = rng.standard_normal((32, 64)).astype(np.float32).astype(np.float64)
angles = np.outer(np.arange(32, dtype=np.float64), inv_freq(10000.0, 64))
cos, sin = np.cos(np.concatenate([angles] * 2, -1)), np.sin(np.concatenate([angles] * 2, -1))
save("q.npy", q)
save("q_rotated.npy", q * cos + rotate_half(q) * sin)

q = rng.standard_normal((32, 96)).astype(np.float32).astype(np.float64)
angles = np.outer(np.arange(32, dtype=np.float64), inv_freq(10000.0, 24))
cos, sin = np.cos(np.concatenate([angles] * 2, -1)), np.sin(np.concatenate([angles] * 2, -1))
turned = q[:, :24] * cos + rotate_half(q[:, :24]) * sin
save("q-neox.npy", q)
save("q-neox_rotated.npy", np.concatenate([turned, q[:, 24:]], axis=-1))

# Qwen2-VL: the ids of text:5, image:1x4x6 (merged 2 x 2: 1 x 2 x 3 tokens), text:3.
ids = [(p, p, p) for p in range(5)]
for h in range(2):
    for w_ in range(3):
        ids.append((5, 5 + h, 5 + w_))
start = max(max(t) for t in ids) + 1
ids += [(start + p,) * 3 for p in range(3)]
ids = np.array(ids, dtype=np.float64)  # tokens x (t, h, w)
section = [16, 24, 24]
axis = np.repeat([0, 1, 2], section)  # the axis of each of the 64 pairs
angles = ids[:, axis] * inv_freq(1000000.0, 128)[None, :]
cos, sin = np.cos(np.concatenate([angles] * 2, -1)), np.sin(np.concatenate([angles] * 2, -1))
q = rng.standard_normal((len(ids), 128)).astype(np.float32).astype(np.float64)
save("q-qwen2vl.npy", q)
save("q-qwen2vl_rotated.npy", q * cos + rotate_half(q) * sin)

# A learned-looking table, as a .safetensors file with GPT-2's tensor name.
rows, cols = 64, 48
t = np.linspace(0.0, 1.0, rows)[:, None]
table = np.zeros((rows, cols))
for k in range(1, 5):
    table += rng.standard_normal(cols)[None, :] * np.sin(np.pi * k * t + rng.uniform(0, np.pi, cols)[None, :]) / k
table = 0.1 * table + 0.01 * rng.standard_normal((rows, cols))
data = table.astype("<f4").tobytes()
header = json.dumps({"wpe.weight": {"dtype": "F32", "shape": [rows, cols], "data_offsets": [0, len(data)]}},
                    separators=(",", ":")).encode()
header += b" " * (-len(header) % 8)
with open(os.path.join(out, "wpe.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(header)) + header + data)
