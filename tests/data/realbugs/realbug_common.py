"""Helpers shared by the real-bug fixture modules (see make_realbug_fixtures.py).

Every helper follows one published computation and names it; the bug modules call them with the
parameters of the buggy and of the fixed code."""
import json
import math
import os

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = os.path.normpath(os.path.join(HERE, "..", "configs"))


def config(name):
    """A model config copied into tests/data/configs (its source in that folder's README.md)."""
    with open(os.path.join(CONFIGS, name), encoding="utf-8") as handle:
        return json.load(handle)


def bf16(array):
    """Rounds float32 values to bfloat16 (round to nearest even, as torch's .to(torch.bfloat16))
    and returns them as float32: the values a bf16 tensor holds, exactly."""
    return torch.as_tensor(np.asarray(array, dtype=np.float32)).to(torch.bfloat16).float().numpy()


def hf_default_inv_freq(base, dim):
    """transformers modeling_rope_utils._compute_default_rope_parameters:
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))"""
    return 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))


def half_table(angles, fn=np.cos):
    """HF's cos (or sin) table of rotate_half: emb = torch.cat((freqs, freqs), dim=-1); emb.cos().
    angles: [L, r/2] float32."""
    angles = np.asarray(angles, dtype=np.float32)
    return fn(np.concatenate([angles, angles], axis=-1)).astype(np.float32)


def interleaved_table(angles, fn=np.cos):
    """The cos (or sin) factor of each column when pairs are (2i, 2i+1) (GPT-J, Meta's reference,
    GGML's NORM mode): angle i repeated at columns 2i and 2i+1."""
    angles = np.asarray(angles, dtype=np.float32)
    return fn(np.repeat(angles, 2, axis=-1)).astype(np.float32)


def mlx_fast_rope_angles(positions, dims, base=None, scale=1.0, freqs=None):
    """mlx.core.fast.rope's angles (mlx/backend/metal/kernels/rope.metal, mlx/fast.cpp), in float32:
    inv_freq_i = base^(-2i/dims) (or 1 / freqs_i when freqs is given), angle = (scale * p) * inv_freq_i."""
    if freqs is None:
        exponent = np.arange(0, dims, 2, dtype=np.float32) / np.float32(dims)
        inv_freq = np.exp(-exponent * np.float32(math.log(base))).astype(np.float32)
    else:
        inv_freq = (np.float32(1.0) / np.asarray(freqs, dtype=np.float32)).astype(np.float32)
    scaled = (np.float32(scale) * np.asarray(positions, dtype=np.float32)).astype(np.float32)
    return np.outer(scaled, inv_freq).astype(np.float32)


def ggml_rope_cache(positions, n_dims, freq_base, freq_scale, ext_factor=0.0, attn_factor=1.0,
                    n_ctx_orig=0, beta_fast=32.0, beta_slow=1.0):
    """ggml's rope cache, ggml/src/ggml-cpu/ops.cpp ggml_rope_cache_init + rope_yarn (and
    ggml_rope_yarn_corr_dims), in float32: theta starts at p and is multiplied by
    theta_scale = powf(freq_base, -2.0f/n_dims) pair by pair; rope_yarn mixes interpolation and
    extrapolation by the ramp and multiplies mscale by 1 + 0.1 ln(1/freq_scale) when ext_factor != 0.
    Returns (cos, sin) [L, n_dims/2]: the factors of pair i (cos_theta, sin_theta of rope_yarn)."""
    f32 = np.float32
    theta_scale = f32(f32(freq_base) ** f32(-2.0 / n_dims))
    corr = (0.0, 0.0)
    if ext_factor != 0.0:
        def corr_dim(n_rot):
            return n_dims * math.log(n_ctx_orig / (n_rot * 2 * math.pi)) / (2 * math.log(freq_base))
        corr = (max(0.0, math.floor(corr_dim(beta_fast))), min(n_dims - 1.0, math.ceil(corr_dim(beta_slow))))
    cos = np.zeros((len(positions), n_dims // 2), dtype=f32)
    sin = np.zeros_like(cos)
    for row, p in enumerate(positions):
        theta = f32(p)
        for i0 in range(0, n_dims, 2):
            theta_interp = f32(f32(freq_scale) * theta)
            value = theta_interp
            mscale = f32(attn_factor)
            if ext_factor != 0.0:
                y = (i0 // 2 - corr[0]) / max(0.001, corr[1] - corr[0])
                ramp_mix = f32((1 - min(1.0, max(0.0, y))) * ext_factor)
                value = f32(theta_interp * (f32(1) - ramp_mix) + theta * ramp_mix)
                mscale = f32(mscale * f32(1.0 + 0.1 * math.log(1.0 / freq_scale)))
            cos[row, i0 // 2] = f32(math.cos(value)) * mscale
            sin[row, i0 // 2] = f32(math.sin(value)) * mscale
            theta = f32(theta * theta_scale)
    return cos, sin


def rotate_half_apply(x, cos_half, sin_half):
    """transformers apply_rotary_pos_emb: q * cos + rotate_half(q) * sin, rotate_half(x) =
    cat(-x2, x1) with x1, x2 the halves; cos_half, sin_half [L, r/2] (the table's first half)."""
    r2 = cos_half.shape[-1]
    x1, x2 = x[:, :r2], x[:, r2:2 * r2]
    return np.concatenate([x1 * cos_half - x2 * sin_half, x2 * cos_half + x1 * sin_half], axis=-1)


def interleaved_apply(x, cos_half, sin_half):
    """rotate_every_two (GPT-J), candle_nn::rotary_emb::rope_i, GGML NORM: pairs (2i, 2i + 1)."""
    out = np.array(x, dtype=np.float32, copy=True)
    x0, x1 = x[:, 0::2], x[:, 1::2]
    out[:, 0::2] = x0 * cos_half - x1 * sin_half
    out[:, 1::2] = x0 * sin_half + x1 * cos_half
    return out.astype(np.float32)


def get_slopes(n):
    """ALiBi's slopes, ofirpress/attention_with_linear_biases fairseq/models/transformer.py
    get_slopes (copied verbatim by BLOOM, Megatron-DeepSpeed and MLX's fix)."""
    def get_slopes_power_of_2(n):
        start = 2 ** (-2 ** -(math.log2(n) - 3))
        ratio = start
        return [start * ratio ** i for i in range(n)]
    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest_power_of_2 = 2 ** math.floor(math.log2(n))
    return get_slopes_power_of_2(closest_power_of_2) + get_slopes(2 * closest_power_of_2)[0::2][: n - closest_power_of_2]


def random_rows(shape, seed, dtype=np.float32):
    """Reproducible query rows for --apply fixtures (standard normal, float32)."""
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)
