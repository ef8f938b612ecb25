"""Real bugs in RoPE frequencies, scaling and precision: each function regenerates the buggy and the
fixed tensor line by line after the code it cites (see make_realbug_fixtures.py and CORPUS.md)."""
import math

import numpy as np
import torch

from realbug_common import config, ggml_rope_cache, half_table, hf_default_inv_freq, mlx_fast_rope_angles


def tf_llama31_inv_freq():
    """huggingface/transformers#32330, src/transformers/modeling_rope_utils.py
    _compute_llama3_parameters (v4.43.0): the function scaled a copy and returned the unscaled
    inv_freq (`return inv_freq, attention_factor`); the fix returns inv_freq_llama."""
    rope = config("Meta-Llama-3.1-8B.json")["rope_scaling"]
    inv_freq = hf_default_inv_freq(500000.0, 128)
    factor = rope["factor"]
    low_freq_factor, high_freq_factor = rope["low_freq_factor"], rope["high_freq_factor"]
    old_context_len = rope["original_max_position_embeddings"]
    low_freq_wavelen = old_context_len / low_freq_factor
    high_freq_wavelen = old_context_len / high_freq_factor
    wavelen = 2 * math.pi / inv_freq
    inv_freq_llama = torch.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
    smooth_factor = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    smoothed_inv_freq = (1 - smooth_factor) * inv_freq_llama / factor + smooth_factor * inv_freq_llama
    is_medium_freq = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)
    inv_freq_llama = torch.where(is_medium_freq, smoothed_inv_freq, inv_freq_llama)
    return {"buggy": inv_freq.numpy(), "fixed": inv_freq_llama.numpy()}


def tf_dynamic_ntk_no_reset():
    """huggingface/transformers#46624, modeling_rope_utils.py dynamic_frequency_update: after a
    sequence of 8192 tokens the growth branch stores the dynamic inv_freq, but the cached length
    is written to `None_max_seq_len_cached`, so the reset branch never runs for the next, short
    (128-token) forward. _compute_dynamic_ntk_parameters: base * ((factor * seq_len / mpe) -
    (factor - 1)) ** (dim / (dim - 2)). Llama-2-7b with rope_scaling dynamic, factor 2."""
    dim, base, mpe, factor = 128, 10000.0, 4096, 2.0
    seq_len = 8192
    grown_base = base * ((factor * seq_len / mpe) - (factor - 1)) ** (dim / (dim - 2))
    grown = 1.0 / (grown_base ** (torch.arange(0, dim, 2, dtype=torch.int64).to(dtype=torch.float) / dim))
    original = hf_default_inv_freq(base, dim)
    return {"buggy": grown.numpy(), "fixed": original.numpy()}


def mlxlm_internlm2_dynamic_scale():
    """ml-explore/mlx-lm#1606, mlx_lm/models/internlm2.py: `rope_scale = 1 / factor if linear else
    2.0` was passed as DynamicNTKScalingRoPE's `scale`, i.e. mx.fast.rope(..., scale=2.0): every
    position doubled. The fix's rope_utils.DynamicNTKScalingRoPE keeps scale=1.0 and recomputes the
    base only beyond max_position_embeddings (32768). InternLM2.5-7B: theta 1e6, head_dim 128."""
    positions = np.arange(128)
    dims, base, mpe, factor = 128, 1000000.0, 32768, 2.0
    buggy = mlx_fast_rope_angles(positions, dims, base=base, scale=2.0)
    seq_len = max(len(positions), mpe)
    fixed_base = base * ((factor * seq_len / mpe) - (factor - 1)) ** (dims / (dims - 2))
    fixed = mlx_fast_rope_angles(positions, dims, base=fixed_base, scale=1.0)
    return {"buggy": half_table(buggy), "fixed": half_table(fixed)}


def _torchtune_phi3_cos(base, dim=96, max_seq_len=128):
    # torchtune/models/phi3/_position_embeddings.py Phi3RotaryPositionalEmbeddings._rope_init and
    # build_rope_cache; returns cache[:, :dim] (the cos half of cat([freqs.cos(), freqs.sin()])).
    theta = 1.0 / (base ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    seq_idx = torch.arange(max_seq_len, dtype=theta.dtype)
    idx_theta = torch.einsum("i, j -> ij", seq_idx, theta).float()
    freqs = torch.cat([idx_theta, idx_theta], dim=-1)
    cache = torch.cat([freqs.cos(), freqs.sin()], dim=-1)
    return cache[:, :dim].numpy()


def torchtune_lora_phi3_rope_base():
    """pytorch/torchtune#997, torchtune/models/phi3/_component_builders.py lora_phi3: the default
    `rope_base: float = 500000.0` (Llama 3's) where phi3 and Phi-3-mini use 10_000; lora_phi3_mini
    passes no rope_base, so every LoRA Phi-3 rotated at base 500000."""
    return {"buggy": _torchtune_phi3_cos(500000.0), "fixed": _torchtune_phi3_cos(10_000)}


def mlxvlm_gemma3_global_linear():
    """Blaizzy/mlx-vlm#1927 (commit ea2456d1), mlx_vlm/models/gemma3/language.py Attention: the
    global layers were nn.RoPE(head_dim, base=rope_global_base_freq) with no scale; the fix's
    initialize_rope(scaling_config=None if sliding else config.rope_scaling) gives them
    rope_utils' linear branch, nn.RoPE(..., scale=1 / factor). Gemma 3 4B: theta 1e6, factor 8."""
    cfg = config("gemma-3-4b-it.json")
    positions = np.arange(64)
    buggy = mlx_fast_rope_angles(positions, 256, base=cfg["rope_theta"], scale=1.0)
    fixed = mlx_fast_rope_angles(positions, 256, base=cfg["rope_theta"], scale=1 / cfg["rope_scaling"]["factor"])
    return {"buggy": half_table(buggy), "fixed": half_table(fixed)}


def ollama_gemma3_sliding_scaled():
    """ollama/ollama#13452 (after #13445), model/models/gemma3/model_text.go: every layer called
    nn.RoPE(ctx, states, positions, attnKeyLen, base, 1./o.ropeScale, rope.WithTypeNeoX()) with
    the GGUF's rope.scaling.factor (8 on the 4B), so the sliding layers (local base 10000) were
    scaled too; ropeValuesForLayer now returns (ropeLocalBase, 1.0) for them. GGML NEOX rope."""
    positions = np.arange(64)
    cos_b, _ = ggml_rope_cache(positions, 256, 10000.0, 1.0 / 8.0)
    cos_f, _ = ggml_rope_cache(positions, 256, 10000.0, 1.0)
    return {"buggy": np.concatenate([cos_b, cos_b], -1), "fixed": np.concatenate([cos_f, cos_f], -1)}


def candle_qwen3_bf16_freqs():
    """huggingface/candle#3005, candle-transformers/src/models/qwen3.rs Qwen3RotaryEmbedding::new:
    inv_freq and the positions t were cast to the model dtype (bf16 on CUDA) before
    `t.matmul(&inv_freq)` and sin/cos; the fix keeps both F32 and casts sin/cos to the dtype.
    Candle's cos buffer is [max_seq_len, head_dim / 2] (one column per pair). Qwen3: theta 1e6."""
    dim, theta, length = 128, 1000000.0, 288
    # `1f32 / cfg.rope_theta.powf(i as f64 / dim as f64) as f32`: the power in f64, cast, an f32 divide
    inv_freq = np.array([np.float32(1.0) / np.float32(theta ** (i / dim)) for i in range(0, dim, 2)], dtype=np.float32)
    t = torch.arange(length, dtype=torch.float32).reshape(length, 1)
    inv = torch.from_numpy(inv_freq).reshape(1, -1)
    buggy = (t.to(torch.bfloat16).matmul(inv.to(torch.bfloat16))).cos()
    fixed = t.matmul(inv).cos().to(torch.bfloat16)
    return {"buggy": buggy.float().numpy(), "fixed": fixed.float().numpy()}


def tf_llama_autocast_bf16():
    """huggingface/transformers#29285, models/llama/modeling_llama.py LlamaRotaryEmbedding.forward
    (v4.38): `freqs = (inv_freq_expanded @ position_ids_expanded)` ran under the caller's bf16
    autocast; the fix wraps it in torch.autocast(device_type, enabled=False) ("Force float32 since
    bfloat16 loses precision on long contexts") and returns cos.to(dtype=x.dtype). Llama-2-7b."""
    length = 288
    inv_freq = hf_default_inv_freq(10000.0, 128)
    position_ids = torch.arange(length).reshape(1, length)
    inv_freq_expanded = inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
    position_ids_expanded = position_ids[:, None, :].float()
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        freqs = (inv_freq_expanded @ position_ids_expanded).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        buggy = emb.cos().to(dtype=torch.bfloat16)
    with torch.autocast(device_type="cpu", enabled=False):
        freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        fixed = emb.cos().to(dtype=torch.bfloat16)
    return {"buggy": buggy[0].float().numpy(), "fixed": fixed[0].float().numpy()}


def ollama_ministral3_yarn_attn_factor():
    """ollama/ollama#13432, model/models/mistral3/model_text.go applyRotaryPositionEmbeddings:
    rope.WithAttentionFactor(getMscale(f, mscale) / getMscale(f, mscale_all_dim)) = 1.0, which
    ggml's rope_yarn multiplies by 1 + 0.1 ln(f) again; the fix passes 1 / (0.1 ln f + 1) so the
    product is HF's attention factor 1.0. GGML NORM rope (pairs 2i, 2i+1). Devstral Small 2."""
    rope = config("Devstral-Small-2-24B-Instruct.json")["text_config"]["rope_parameters"]
    factor = rope["factor"]
    kwargs = dict(n_dims=128, freq_base=rope["rope_theta"], freq_scale=1.0 / factor, ext_factor=1.0,
                  n_ctx_orig=rope["original_max_position_embeddings"], beta_fast=rope["beta_fast"],
                  beta_slow=rope["beta_slow"])
    positions = np.arange(128)
    cos_b, _ = ggml_rope_cache(positions, attn_factor=1.0, **kwargs)
    cos_f, _ = ggml_rope_cache(positions, attn_factor=np.float32(1.0 / (0.1 * math.log(factor) + 1.0)), **kwargs)
    return {"buggy": np.repeat(cos_b, 2, axis=-1), "fixed": np.repeat(cos_f, 2, axis=-1)}


def _phi3_longrope():
    cfg = config("Phi-3-mini-128k-instruct.json")
    return cfg, cfg["rope_scaling"]


def mlxlm_suscaled_long_factors():
    """ml-explore/mlx-lm#660, mlx_lm/models/rope_utils.py SuScaledRoPE: `self._freqs =
    mx.array(long_factor) * freqs` for every sequence; the fix keeps _short_freqs and _long_freqs
    and uses the long ones only `if seq_len > self.original_max_position_embeddings`. Its scale
    multiplies x[..., :dims] before mx.fast.rope, so the table here is scale * cos. Phi-3-mini-128k,
    a 192-token forward (short factors)."""
    cfg, rope = _phi3_longrope()
    dims, base, orig = 96, cfg["rope_theta"], cfg["original_max_position_embeddings"]
    freqs = base ** (np.arange(0, dims, 2, dtype=np.float32) / dims)
    factor = cfg["max_position_embeddings"] / orig
    scale = math.sqrt(1 + math.log(factor) / math.log(orig))
    positions = np.arange(192)
    out = {}
    for name, key in (("buggy", "long_factor"), ("fixed", "short_factor")):
        angles = mlx_fast_rope_angles(positions, dims, freqs=np.array(rope[key], dtype=np.float32) * freqs)
        out[name] = (np.float32(scale) * half_table(angles)).astype(np.float32)
    return out


def unsloth_longrope_boundary():
    """unslothai/unsloth#10681, unsloth/models/llama.py LongRopeRotaryEmbedding.forward and
    get_cached: `if seq_len is not None and seq_len < self.original_max_position_embeddings`
    takes the long cache at exactly 4096 tokens; transformers switches only when seq_len > 4096
    (the fix: `<=`). The tensor is the inv_freq the 4096-token forward's cache is built from:
    long_inv_freq = 1.0 / (long_factor * base**inv_freq_shape) against short_inv_freq."""
    cfg, rope = _phi3_longrope()
    dim, base = 96, cfg["rope_theta"]
    inv_freq_shape = torch.arange(0, dim, 2, dtype=torch.int64, device="cpu").float() / dim
    short_factor = torch.tensor(rope["short_factor"], device="cpu", dtype=torch.float32)
    long_factor = torch.tensor(rope["long_factor"], device="cpu", dtype=torch.float32)
    short_inv_freq = 1.0 / (short_factor * base**inv_freq_shape)
    long_inv_freq = 1.0 / (long_factor * base**inv_freq_shape)
    return {"buggy": long_inv_freq.numpy(), "fixed": short_inv_freq.numpy()}


def _vllm_dynamic_cache(base, rotary_dim, scale_term, rows):
    # vllm/model_executor/layers/rotary_embedding/dynamic_ntk_scaling_rope.py _compute_cos_sin_cache
    base = base * scale_term ** (rotary_dim / (rotary_dim - 2))
    inv_freq = 1.0 / (base ** (torch.arange(0, rotary_dim, 2, dtype=torch.float) / rotary_dim))
    t = torch.arange(rows, dtype=torch.float)
    freqs = torch.einsum("i,j -> ij", t, inv_freq)
    return torch.cat((freqs.cos(), freqs.sin()), dim=-1).numpy()


def vllm_dynamic_ntk_constant_base():
    """vllm-project/vllm#41236, fixed by #41277, dynamic_ntk_scaling_rope.py: with
    max_len = max_position_embeddings * scaling_factor the term (scaling_factor * max_len /
    max_position_embeddings) - (scaling_factor - 1) is factor**2 - factor + 1 = 3 whatever the
    served length; the fix uses scaling_factor * max_position_embeddings / max_trained_positions
    - (scaling_factor - 1). nomic-embed-text: base 1000, rotary 64, factor 2, trained 2048, served
    8192. The tensor is vLLM's cos_sin_cache (cos | sin halves), its first 128 rows."""
    factor, trained, served = 2.0, 2048, 8192
    buggy = _vllm_dynamic_cache(1000.0, 64, (factor * (trained * factor) / trained) - (factor - 1), 128)
    fixed = _vllm_dynamic_cache(1000.0, 64, (factor * served / trained) - (factor - 1), 128)
    return {"buggy": buggy, "fixed": fixed}


def sglangjax_inv_freq_bf16():
    """sgl-project/sglang-jax#1472, fixed by #1473, python/sgl_jax/srt/layers/embeddings.py
    RotaryEmbedding.__call__: `inv_freq = jnp.asarray(self._inv_freq_np, dtype=self.dtype)` cast the
    float32 inverse frequencies to the model dtype (bfloat16) before `einsum("n,d->nd", positions,
    inv_freq)`; the fix computes the phase from the float32 vector. _inv_freq_np = 1.0 / (base **
    (np.arange(0, rotary_dim, 2, dtype=np.float32) / rotary_dim)). Qwen3-8B: theta 1e6, head_dim 128.
    The vector the einsum reads, saved as float32 (numpy has no bfloat16)."""
    base, rotary_dim = 1000000, 128
    inv_freq_np = 1.0 / (base ** (np.arange(0, rotary_dim, 2, dtype=np.float32) / rotary_dim))
    inv_freq_np = inv_freq_np.astype(np.float32)
    buggy = torch.from_numpy(inv_freq_np).to(torch.bfloat16).float().numpy()
    return {"buggy": buggy, "fixed": inv_freq_np}
