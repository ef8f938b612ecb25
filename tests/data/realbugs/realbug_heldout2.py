"""Real bugs of the second held-out round (issue 56's acceptance): keras-hub's RoPE scaling, cache
start and YaRN truncation, Falcon's ALiBi at a decode step and against the scaled scores, a
DeepSeek YaRN attention factor, Llama 3 scaling left out (mlxcel, tiny-vllm), a partial rotary
lost on maxtext's M-RoPE path and speechbrain's relative sinusoid. Each function follows the buggy
and the fixed code it cites (see make_realbug_fixtures.py)."""
import json
import math
import os

import numpy as np
import torch

from realbug_heldout import _sglang_yarn_cos
from realbug_common import config, get_slopes, half_table, mlx_fast_rope_angles, random_rows, rotate_half_apply


def json_rope(name):
    """The rope_scaling of a config in tests/data/realbugs/configs (its source in `_source`)."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "configs", name), encoding="utf-8") as handle:
        return json.load(handle)["rope_scaling"]


def _keras_rope_cos(length, rotary_dim, max_wavelength, scaling_factor, fixed, start_index=0):
    """keras-team/keras-hub keras_hub/src/layers/modeling/rotary_embedding.py
    RotaryEmbedding._compute_cos_sin_embedding and _get_inverse_freq, in float32: before #1605,
    freq_range = arange(0, d, 2) / scaling_factor and inverse_freq = 1 / max_wavelength **
    (freq_range / d), positions arange(L) + start_index; after, inverse_freq without the factor and
    positions divided by it. embedding = concatenate((freq, freq)); returns cos(embedding)."""
    f32 = np.float32
    freq_range = np.arange(0, rotary_dim, 2, dtype=f32)
    if not fixed:
        freq_range = (freq_range / f32(scaling_factor)).astype(f32)
    inverse_freq = (f32(1.0) / (f32(max_wavelength) ** (freq_range / f32(rotary_dim)))).astype(f32)
    positions = (np.arange(length, dtype=f32) + f32(start_index)).astype(f32)
    if fixed:
        positions = (positions / f32(scaling_factor)).astype(f32)
    return half_table(np.outer(positions, inverse_freq).astype(f32))


def keras_hub_rope_scaling_exponent():
    """keras-team/keras-hub#1605: RotaryEmbedding divided the exponent's numerator by
    scaling_factor (every pair at max_wavelength^(-2i/(d s)), a larger base) where linear scaling
    (kaiokendev's position interpolation, transformers' linear rope_type) divides the positions;
    the fix moves the factor to the positions. A LlamaBackbone with rope_scaling_factor 4 (SuperHOT's
    linear factor), head_dim 128, 128 positions of the cos table."""
    return {"buggy": _keras_rope_cos(128, 128, 10000.0, 4.0, fixed=False),
            "fixed": _keras_rope_cos(128, 128, 10000.0, 4.0, fixed=True)}


def keras_hub_llama_start_index():
    """keras-team/keras-hub#1544: LlamaAttention.call applied self.rotary_embedding_layer(query)
    without start_index, so every token of a cached generate step was turned as if at position 0;
    the fix passes start_index = cache_update_index. Llama 2 7B (head_dim 128, 10000), 16 tokens
    decoded one by one after a prompt of 48: the cos row each step used."""
    rows_b, rows_f = [], []
    for step in range(48, 64):
        rows_b.append(_keras_rope_cos(1, 128, 10000.0, 1.0, fixed=True, start_index=0)[0])
        rows_f.append(_keras_rope_cos(1, 128, 10000.0, 1.0, fixed=True, start_index=step)[0])
    return {"buggy": np.stack(rows_b), "fixed": np.stack(rows_f)}


def _hf_yarn_cos(length, dim, base, factor, original, truncate, attention_factor, beta_fast=32, beta_slow=1):
    """transformers modeling_rope_utils._compute_yarn_parameters (truncate as given: keras-hub's
    RotaryEmbedding before #2981 took False by default, transformers True) and the cos table
    emb.cos() * attention_factor, emb = cat(freqs, freqs)."""
    pos_freqs = base ** (torch.arange(0, dim, 2).to(dtype=torch.float) / dim)
    inv_freq_extrapolation = 1.0 / pos_freqs
    inv_freq_interpolation = 1.0 / (factor * pos_freqs)

    def corr(rot):
        return (dim * math.log(original / (rot * 2 * math.pi))) / (2 * math.log(base))
    low, high = corr(beta_fast), corr(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001
    ramp = torch.clamp((torch.arange(dim // 2, dtype=torch.float32) - low) / (high - low), 0, 1)
    extrapolation_factor = 1 - ramp
    inv_freq = inv_freq_interpolation * (1 - extrapolation_factor) + inv_freq_extrapolation * extrapolation_factor
    freqs = torch.outer(torch.arange(length, dtype=torch.float32), inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    return (emb.cos() * attention_factor).numpy()


def keras_hub_yarn_truncate():
    """keras-team/keras-hub#2981: RotaryEmbedding's YaRN defaulted truncate to False (the ramp's
    edges kept fractional) where transformers reads rope_parameters.get("truncate", True) and
    rounds them; the fix defaults it to True. Qwen3-8B with Qwen's documented YaRN (factor 4,
    original_max_position_embeddings 32768, theta 1e6, head_dim 128), 256 positions, attention
    factor 0.1 ln 4 + 1 in both."""
    kwargs = dict(length=256, dim=128, base=1000000.0, factor=4.0, original=32768,
                  attention_factor=0.1 * math.log(4.0) + 1.0)
    return {"buggy": _hf_yarn_cos(truncate=False, **kwargs), "fixed": _hf_yarn_cos(truncate=True, **kwargs)}


def _falcon_alibi(heads, mask):
    """keras-hub keras_hub/src/models/falcon/falcon_attention.py _build_alibi_tensor (BLOOM's
    build_alibi_tensor): slopes get_slopes(heads); arange_tensor = (cumsum(mask) - 1) * mask;
    alibi = slopes[:, None] * arange_tensor, [heads, 1, len(mask)]."""
    slopes = torch.tensor(get_slopes(heads), dtype=torch.float32)
    mask = torch.as_tensor(mask, dtype=torch.float32)
    arange_tensor = ((torch.cumsum(mask, dim=-1) - 1) * mask)[None, None, :]
    return (slopes[:, None, None] * arange_tensor).numpy()


def keras_hub_falcon_alibi_decode():
    """keras-team/keras-hub#2977 (issue #2861): FalconAttention built ALiBi from the query window's
    mask, so a one-token decode step with a cache got cumsum(ones(1)) - 1 = 0, a zero bias
    broadcast over the cache: generate() ran without ALiBi; the fix builds it over the cache
    length. Falcon-RW-1B (32 heads), the step after 63 tokens: the bias over the 64 keys."""
    heads, cache = 32, 64
    buggy = np.broadcast_to(_falcon_alibi(heads, np.ones(1)), (heads, 1, cache)).copy()
    return {"buggy": buggy, "fixed": _falcon_alibi(heads, np.ones(cache))}


def trtmc_falcon_rw_alibi_scale():
    """NVIDIA/TensorRT-Model-Connect#32 (after #11): the TRT attention scaled QK by 1/sqrt(head_dim)
    and then added the ALiBi mask, where HF Falcon adds ALiBi to the raw QK and scales the sum
    ((QK + alibi) / sqrt(d)): ALiBi sqrt(d) = 8 times too large; the fix scales the bias by
    1/sqrt(head_dim) for Falcon. Falcon-RW-1B (32 heads, head_dim 64), 64 keys: the bias as a term
    of the raw scores QK (BLOOM's m j form, [H, 1, L])."""
    fixed = _falcon_alibi(32, np.ones(64))
    return {"buggy": (fixed * np.float32(math.sqrt(64))).astype(np.float32), "fixed": fixed}


def imp_deepseek_v2_lite_yarn_mscale():
    """kekzl/imp#880: the MLA rope's cos/sin were multiplied by yarn_get_mscale(factor,
    mscale_all_dim) = 0.1 * 0.707 * ln 40 + 1 = 1.2608 where transformers' DeepSeek-V2 YaRN takes
    yarn_get_mscale(factor, mscale) / yarn_get_mscale(factor, mscale_all_dim) = 1 (the two are
    equal in DeepSeek-V2-Lite); the fix derives the rope factor from the ratio. qk_rope_head_dim
    64, theta 10000, factor 40, original 4096, 128 positions of the cos cache."""
    rope = json_rope("DeepSeek-V2-Lite.json")

    def get_mscale(scale, m):
        return 1.0 if scale <= 1 else 0.1 * m * math.log(scale) + 1.0
    kwargs = dict(length=128, dim=64, base=10000.0, factor=rope["factor"],
                  original=rope["original_max_position_embeddings"], truncate=True)
    buggy = get_mscale(rope["factor"], rope["mscale_all_dim"])
    fixed = get_mscale(rope["factor"], rope["mscale"]) / get_mscale(rope["factor"], rope["mscale_all_dim"])
    return {"buggy": _hf_yarn_cos(attention_factor=buggy, **kwargs), "fixed": _hf_yarn_cos(attention_factor=fixed, **kwargs)}


def _mlx_llama3_freqs(dims, base, factor, low_freq_factor, high_freq_factor, old_context_len):
    """ml-explore/mlx-lm mlx_lm/models/rope_utils.py Llama3RoPE.__init__ (the form mlxcel#1385
    follows): freqs = base ** (arange(0, dims, 2) / dims) (periods), wavelens = 2 pi freqs, the
    low band times factor, the middle band smoothed; mx.fast.rope(freqs=...) turns by 1 / freqs."""
    f32 = np.float32
    freqs = (f32(base) ** (np.arange(0, dims, 2, dtype=f32) / f32(dims))).astype(f32)
    low_freq_wavelen = old_context_len / low_freq_factor
    high_freq_wavelen = old_context_len / high_freq_factor
    wavelens = (f32(2 * math.pi) * freqs).astype(f32)
    freqs = np.where(wavelens > low_freq_wavelen, freqs * f32(factor), freqs).astype(f32)
    is_medium = (wavelens > high_freq_wavelen) & (wavelens < low_freq_wavelen)
    smooth = ((f32(old_context_len) / wavelens - f32(low_freq_factor)) / f32(high_freq_factor - low_freq_factor)).astype(f32)
    smooth_freqs = (freqs / ((f32(1) - smooth) / f32(factor) + smooth)).astype(f32)
    return np.where(is_medium, smooth_freqs, freqs).astype(f32)


def mlxcel_llama3_scaling_ignored():
    """lablup/mlxcel#1355, fixed by #1385: the shared Llama attention parsed rope_scaling (under the
    key `type`, not `rope_type`) and never read it, so Llama 3.1 turned at plain base^(-2i/d); the
    fix computes the llama3 frequency table once per model and passes it to every RoPE call (as
    mlx-lm's Llama3RoPE). Llama-3.1-8B: head_dim 128, theta 500000, factor 8, 256 positions of
    mx.fast.rope's cos (traditional False)."""
    rope = config("Meta-Llama-3.1-8B.json")["rope_scaling"]
    positions = np.arange(256)
    freqs = _mlx_llama3_freqs(128, 500000.0, rope["factor"], rope["low_freq_factor"], rope["high_freq_factor"],
                              rope["original_max_position_embeddings"])
    return {"buggy": half_table(mlx_fast_rope_angles(positions, 128, base=500000.0)),
            "fixed": half_table(mlx_fast_rope_angles(positions, 128, freqs=freqs))}


def tinyvllm_llama32_scaling():
    """jmaczan/tiny-vllm#1: the RoPE kernels took inv_freq = 1 / 500000^(2i/64) for Llama 3.2 1B
    Instruct, whose config declares rope_type llama3 (factor 32, low 1, high 4, original 8192); the
    fix applies the three-band scaling (pairs 0-14 kept, 15-17 smoothed, 18-31 divided by 32) as a
    constant table. The 32 inverse frequencies the kernel reads."""
    rope = config("Llama-3.2-1B.json")["rope_scaling"]
    f32 = np.float32
    inv = (f32(1.0) / (f32(500000.0) ** (np.arange(0, 64, 2, dtype=f32) / f32(64)))).astype(f32)
    factor, low, high, old = rope["factor"], rope["low_freq_factor"], rope["high_freq_factor"], rope["original_max_position_embeddings"]
    wavelen = 2 * math.pi / inv.astype(np.float64)
    smooth = (old / wavelen - low) / (high - low)
    fixed = np.where(wavelen < old / high, inv, np.where(wavelen > old / low, inv / factor,
                                                          (1 - smooth) * inv / factor + smooth * inv))
    return {"buggy": inv, "fixed": fixed.astype(f32)}


def maxtext_qwen35_mrope_partial_rotary():
    """AI-Hypercomputer/maxtext#4616 (fix #4742, open when collected): Attention.init_rotary_embedding
    routed every use_mrope layer to Qwen3OmniMoeThinkerTextRotaryEmbedding with embedding_dims =
    head_dim, dropping partial_rotary_factor 0.25: Qwen3.5's heads of 256 turned in full at
    theta^(-2i/256) instead of the first 64 at theta^(-2i/64) (the rest passed through). Text
    tokens (t = h = w ids, so the sections do not matter), theta 1e7, rotate_half, 64 rows."""
    x = random_rows((64, 256), seed=4616)
    theta, positions = 10000000.0, np.arange(64, dtype=np.float32)

    def turned(rotary_dim):
        inv = (1.0 / (theta ** (np.arange(0, rotary_dim, 2, dtype=np.float32) / rotary_dim))).astype(np.float32)
        ang = np.outer(positions, inv).astype(np.float32)
        out = rotate_half_apply(x[:, :rotary_dim], np.cos(ang), np.sin(ang))
        return np.concatenate([out, x[:, rotary_dim:]], axis=-1).astype(np.float32)
    return {"input": x, "buggy": turned(256), "fixed": turned(64)}


def mosaicml_mpt_alibi_slice():
    """mosaicml/examples#259: MPT's attention bias, built once over max_seq_len as
    build_alibi_bias's arange(1 - L, 1) * slopes (slopes 2^(-8k/H) at alibi_bias_max 8), was cut to
    its first s_k keys, m (j - (L - 1)), where the keys of a sequence of s_k end at offset 0; the
    fix takes the last s_k: `attn_bias = attn_bias[:, :, :, -s_k:]`. MPT-7B: 32 heads, max_seq_len
    2048, a sequence of 64 keys: the bias [H, 1, s_k]."""
    heads, max_len, s_k = 32, 2048, 64
    alibi = torch.arange(1 - max_len, 1, dtype=torch.int32).view(1, 1, max_len)
    m = torch.arange(1, heads + 1, dtype=torch.float32) * 8 / heads
    bias = alibi * (1.0 / torch.pow(2, m)).view(heads, 1, 1)
    return {"buggy": bias[:, :, :s_k].numpy(), "fixed": bias[:, :, -s_k:].numpy()}


def aneforge_llama31_rope_scaling():
    """sbryngelson/ANEForge#58: rope_tables computed RoPE from rope_theta alone, the HF
    rope_scaling block (llama3, factor 8) ignored; the fix adds _llama3_rope_scale(inv, scaling),
    transformers' _compute_llama3_parameters, before the tables. Llama-3.1-8B (head_dim 128, theta
    500000), the cos table of 256 positions, one column per pair."""
    rope = config("Meta-Llama-3.1-8B.json")["rope_scaling"]
    inv = (1.0 / (500000.0 ** (np.arange(0, 128, 2, dtype=np.float64) / 128))).astype(np.float32)
    factor, low, high, old = rope["factor"], rope["low_freq_factor"], rope["high_freq_factor"], rope["original_max_position_embeddings"]
    wavelen = 2 * math.pi / inv.astype(np.float64)
    smooth = (old / wavelen - low) / (high - low)
    scaled = np.where(wavelen > old / low, inv / factor, inv)
    medium = (wavelen <= old / low) & (wavelen >= old / high)
    scaled = np.where(medium, (1 - smooth) * scaled / factor + smooth * scaled, scaled).astype(np.float32)
    t = np.arange(256, dtype=np.float32)
    return {"buggy": np.cos(np.outer(t, inv)).astype(np.float32), "fixed": np.cos(np.outer(t, scaled)).astype(np.float32)}


def vllm_ministral3_yarn_mscale():
    """vllm-project/vllm#48623 (issue #48621, closed unmerged): YaRNScalingRotaryEmbedding's
    mscale was yarn_get_mscale(factor) * attn_factor, mscale and mscale_all_dim ignored: 1.2773 at
    factor 16 where transformers' attention factor is get_mscale(16, 1) / get_mscale(16, 1) = 1;
    the fix takes the ratio. Ministral 3 (factor 16, original 16384, theta 1e6, mscale and
    mscale_all_dim 1: transformers' models/ministral3/configuration_ministral3.py,
    Ministral3Config.__post_init__'s default rope_parameters; head_dim 128), 128 positions of the
    cache's cos half."""
    kwargs = dict(length=128, rotary_dim=128, base=1000000.0, factor=16.0, original=16384, beta_fast=32.0, beta_slow=1.0)
    return {"buggy": _sglang_yarn_cos(mscale=0.1 * math.log(16.0) + 1.0, **kwargs), "fixed": _sglang_yarn_cos(mscale=1.0, **kwargs)}
