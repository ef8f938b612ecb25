#!/usr/bin/python3
"""Writes the tensors of tests/data/decodebias with torch itself (run by hand, not by the tests): what
engineers dump at a decode step or from a complex rotary cache, each the reference code's own output.

T5's position_bias at a step with a cache (huggingface/transformers, src/transformers/models/t5/
modeling_t5.py, T5Attention.forward): compute_bias(real_seq_length, key_length) (older versions) or
compute_bias(real_seq_length, key_length, cache_position=cache_position) (newer ones, context_position
= cache_position[:, None]), then position_bias[:, :, -seq_length:, :]: one query row per head at a
decode step, [1, H, 1, L], its query at position L - 1 over keys 0 .. L - 1; a chunk of q queries
[1, H, q, L] at L - q .. L - 1. _relative_position_bucket is transformers' line for line.

SAM 2's axial rotary cache (facebookresearch/sam2, sam2/modeling/position_encoding.py, init_t_xy and
compute_axial_cis): freqs_cis complex [end_x * end_y, dim / 2] = cat(polar(1, t_x w), polar(1, t_y w)),
dumped as torch.view_as_real(freqs_cis) [N, dim / 2, 2]. Meta Llama's precompute_freqs_cis
(meta-llama/llama, llama/model.py) dumped the same way.

Usage: /usr/bin/python3 tests/data/decodebias/make_decode_fixtures.py   (python3-torch, numpy)
The output is deterministic (fixed seeds); the files are committed."""
import math
import os

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def _relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    # transformers T5Attention._relative_position_bucket
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(
        relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1)
    )
    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets


def compute_bias(weight, query_length, key_length, bidirectional, cache_position=None):
    # transformers T5Attention.compute_bias (weight: relative_attention_bias, an Embedding(32, H))
    if cache_position is None:
        context_position = torch.arange(query_length, dtype=torch.long)[:, None]
    else:
        context_position = cache_position[:, None]
    memory_position = torch.arange(key_length, dtype=torch.long)[None, :]
    relative_position = memory_position - context_position
    relative_position_bucket = _relative_position_bucket(relative_position, bidirectional=bidirectional)
    values = weight(relative_position_bucket)  # (query_length, key_length, num_heads)
    return values.permute([2, 0, 1]).unsqueeze(0)  # (1, num_heads, query_length, key_length)


def t5_step(weight, seq_length, key_length, bidirectional):
    # T5Attention.forward with a cache: the older form and the newer cache_position form, both sliced
    # to the last seq_length query rows; they agree.
    with torch.no_grad():
        old = compute_bias(weight, key_length, key_length, bidirectional)[:, :, -seq_length:, :]
        cache_position = torch.arange(key_length - seq_length, key_length)
        new = compute_bias(weight, key_length, key_length, bidirectional, cache_position)[:, :, -seq_length:, :]
    assert torch.equal(old, new)
    return new


def init_t_xy(end_x, end_y, swapped=False):
    # sam2 init_t_xy; `swapped`: t_x and t_y exchanged (a patch's row on the column's pairs)
    t = torch.arange(end_x * end_y, dtype=torch.float32)
    t_x = (t % end_x).float()
    t_y = torch.div(t, end_x, rounding_mode="floor").float()
    return (t_y, t_x) if swapped else (t_x, t_y)


def compute_axial_cis(dim, end_x, end_y, theta=10000.0, swapped=False):
    # sam2 compute_axial_cis
    freqs_x = 1.0 / (theta ** (torch.arange(0, dim, 4)[: (dim // 4)].float() / dim))
    freqs_y = 1.0 / (theta ** (torch.arange(0, dim, 4)[: (dim // 4)].float() / dim))
    t_x, t_y = init_t_xy(end_x, end_y, swapped)
    freqs_x = torch.outer(t_x, freqs_x)
    freqs_y = torch.outer(t_y, freqs_y)
    freqs_cis_x = torch.polar(torch.ones_like(freqs_x), freqs_x)
    freqs_cis_y = torch.polar(torch.ones_like(freqs_y), freqs_y)
    return torch.cat([freqs_cis_x, freqs_cis_y], dim=-1)


def precompute_freqs_cis(dim, end, theta=10000.0):
    # meta-llama/llama llama/model.py precompute_freqs_cis
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


def save(name, tensor):
    array = tensor.detach().numpy().astype(np.float32)
    np.save(os.path.join(HERE, name + ".npy"), array)
    print(name, array.shape)


def main():
    torch.manual_seed(47)
    heads, length = 8, 64
    weight = torch.nn.Embedding(32, heads)
    decoder = t5_step(weight, 1, length, bidirectional=False)
    save("t5-decoder-step", decoder)
    save("t5-encoder-step", t5_step(weight, 1, length, bidirectional=True))
    save("t5-decoder-chunk", t5_step(weight, 4, length, bidirectional=False))
    # A mistake of the same shape (the encoder's row, bucketed bidirectionally, is another where the
    # decoder's is declared): one cell off its bucket's value.
    broken = decoder.clone()
    broken[0, 3, 0, 20] += 0.5
    save("t5-decoder-step-broken", broken)
    # SAM 2's axial cache of a 64-wide head over a 16 x 16 grid (its memory attention's RoPEAttention
    # takes feat_sizes 64 x 64 and head_dim 256: the same function at a smaller size), and Llama's of a
    # 128-wide head over 128 positions, each as view_as_real; the mistakes: t_x and t_y exchanged, and
    # Llama 3's theta 500000 where 10000 is declared.
    save("sam2-axial-cis", torch.view_as_real(compute_axial_cis(64, 16, 16)))
    save("sam2-axial-cis-swapped", torch.view_as_real(compute_axial_cis(64, 16, 16, swapped=True)))
    save("llama-freqs-cis", torch.view_as_real(precompute_freqs_cis(128, 128)))
    save("llama-freqs-cis-theta", torch.view_as_real(precompute_freqs_cis(128, 128, theta=500000.0)))

if __name__ == "__main__":
    main()
