"""Real bugs of the held-out round (issue 56's acceptance): RoPE bases and scalings, a YaRN formula,
partial rotary, M-RoPE video positions, ALiBi's sign and sinusoidal timestep embeddings. Each
function follows the buggy and the fixed code it cites (see make_realbug_fixtures.py)."""
import math

import numpy as np
import torch

from realbug_apply import qwen2vl_rope_index
from realbug_common import config, half_table, mlx_fast_rope_angles, random_rows


def _sdxl_timestep_embedding(timesteps, embedding_dim, downscale_freq_shift):
    """kohya-ss/sd-scripts library/sdxl_original_unet.py get_timestep_embedding, verbatim: the
    exponent -ln(10000) * i / (half_dim - downscale_freq_shift), then [cos | sin] ("flipped from
    Diffusers original ver because always flip_sin_to_cos=True"), scale 1."""
    half_dim = embedding_dim // 2
    exponent = -math.log(10000) * torch.arange(start=0, end=half_dim, dtype=torch.float32)
    exponent = exponent / (half_dim - downscale_freq_shift)
    emb = torch.exp(exponent)
    emb = timesteps[:, None].float() * emb[None, :]
    emb = 1 * emb
    return torch.cat([torch.cos(emb), torch.sin(emb)], dim=-1)


def kohya_sdxl_timestep_shift():
    """kohya-ss/sd-scripts#1187: SdxlUNet2DConditionModel.forward called
    get_timestep_embedding(timesteps, self.model_channels), whose downscale_freq_shift defaults to
    1, where SDXL (Stability-AI/generative-models sgm/modules/diffusionmodules/util.py
    timestep_embedding, and the diffusers UNet config's freq_shift 0) uses 0; the fix passes
    downscale_freq_shift=0. model_channels 320, timesteps 0..127."""
    t = torch.arange(128, dtype=torch.float32)
    return {"buggy": _sdxl_timestep_embedding(t, 320, 1).numpy(),
            "fixed": _sdxl_timestep_embedding(t, 320, 0).numpy()}


def attentiongym_alibi_sign():
    """meta-pytorch/attention-gym#86, attn_gym/mods/alibi.py generate_alibi_bias's alibi_mod:
    `bias = (q_idx - kv_idx) * scale` rewarded distance (a positive bias growing with it for every
    key the causal mask lets through); the fix is `(kv_idx - q_idx) * scale`, scale =
    exp2(-((h + 1) * 8 / H)). The scores alibi_mod makes of a zero score for H = 16 heads over 64
    queries x 64 keys, with the causal mask (attn_gym's causal_mask, q_idx >= kv_idx) as
    flex_attention applies it: -inf where the key is later than the query."""
    heads, length = 16, 64
    h = torch.arange(heads, dtype=torch.float32)[:, None, None]
    q_idx = torch.arange(length)[None, :, None]
    kv_idx = torch.arange(length)[None, None, :]
    scale = torch.exp2(-((h + 1) * 8.0 / heads))
    masked = (q_idx >= kv_idx).expand(heads, length, length)
    ninf = torch.tensor(float("-inf"))
    buggy = torch.where(masked, (q_idx - kv_idx) * scale, ninf)
    fixed = torch.where(masked, (kv_idx - q_idx) * scale, ninf)
    return {"buggy": buggy.numpy(), "fixed": fixed.numpy()}


def _candle_rope_cos(theta, dim=128, length=128):
    # candle-transformers RotaryEmbedding::new (yi.rs; mistral.rs the same with rope_theta):
    # inv_freq_i = 1f32 / theta.powf(i as f32 / dim as f32) for i = 0, 2, ..; freqs =
    # t.matmul(inv_freq) with t = 0..max_seq_len as f32; cos = freqs.cos() ([L, dim / 2]).
    inv_freq = np.array([np.float32(1.0) / np.float32(theta) ** np.float32(i / dim) for i in range(0, dim, 2)],
                        dtype=np.float32)
    freqs = np.outer(np.arange(length, dtype=np.float32), inv_freq).astype(np.float32)
    return np.cos(freqs).astype(np.float32)


def candle_yi_rope_theta():
    """huggingface/candle#3746, candle-transformers/src/models/yi.rs RotaryEmbedding::new: the
    inverse frequencies were `1f32 / 10000f32.powf(i as f32 / dim as f32)` although Config holds
    rope_theta 5_000_000 for both Yi sizes; the fix reads cfg.rope_theta as mistral.rs does. Yi-6B:
    head_dim 128, 128 positions of candle's cos buffer (one column per pair)."""
    return {"buggy": _candle_rope_cos(10000.0), "fixed": _candle_rope_cos(5000000.0)}


def _tvm_yarn_inv_freq(theta, factor, beta_fast, beta_slow, original, d_range, fixed):
    """apache/tvm python/tvm/relax/frontend/nn/llm/position_embedding.py rope_freq_yarn and
    yarn_find_correction_range/_dim, before (#18576's parent) and after #18576, in float32, for
    the columns d = 0 .. d_range/2 - 1 (the first of each rotate_half pair; the ramp is indexed by
    the column d). Returns the inverse frequency of each pair."""
    f32 = np.float32
    out = np.zeros(d_range // 2, dtype=f32)
    for d in range(d_range // 2):
        exponent = f32(d * 2 % d_range) / f32(d_range)
        freq_extra = f32(1) / f32(f32(theta) ** exponent)
        if fixed:
            freq_inter = f32(1) / f32(f32(factor) * f32(f32(theta) ** exponent))
            dim = d_range
        else:
            freq_inter = f32(1) / f32(f32(factor * theta) ** exponent)
            dim = d  # the buggy code passed the column index as the dimension

        def corr(rot):
            return dim * math.log(original / (rot * 2 * math.pi)) / (2 * math.log(theta))
        low, high = corr(beta_fast), corr(beta_slow)
        if not fixed:
            low, high = math.floor(low), math.ceil(high)
        low, high = max(low, 0), min(high, dim - 1)
        if low == high:
            high = high + 0.001
        mask = f32(1) - f32(max(min((d - low) / (high - low), 1.0), 0.0))
        out[d] = f32(freq_inter * (f32(1) - mask) + freq_extra * mask)
    return out


def tvm_yarn_factor_in_power():
    """apache/tvm#18576, rope_freq_yarn: freq_inter was 1 / (scaling_factor * theta)^(2d/D), the
    factor raised to the exponent with the base, and the correction range was found with the
    column index d as the dimension (so every pair but the first took freq_inter); the fix divides
    theta^(2d/D) by the factor, finds the range over d_range and drops floor/ceil (gpt-oss's
    truncate false). gpt-oss-20b: theta 150000, factor 32, head_dim 64, original 4096."""
    rope = config("gpt-oss-20b.json")["rope_scaling"]
    kwargs = dict(theta=150000.0, factor=rope["factor"], beta_fast=rope["beta_fast"], beta_slow=rope["beta_slow"],
                  original=rope["original_max_position_embeddings"], d_range=64)
    return {"buggy": _tvm_yarn_inv_freq(fixed=False, **kwargs), "fixed": _tvm_yarn_inv_freq(fixed=True, **kwargs)}


def _vllm_gptj_rope(x, rotary_dim, base, head_size):
    """vllm/model_executor/layers/rotary_embedding RotaryEmbedding (forward_native,
    is_neox_style=False): inv_freq = 1 / base^(arange(0, rotary_dim, 2) / rotary_dim), cache cos,
    sin of t * inv_freq; the first rotary_dim columns turned pair (2i, 2i + 1) (_apply_rotary_emb's
    GPT-J branch), the rest passed through."""
    inv_freq = 1.0 / (base ** (torch.arange(0, rotary_dim, 2, dtype=torch.float) / rotary_dim))
    t = torch.arange(x.shape[0], dtype=torch.float)
    freqs = torch.einsum("i,j -> ij", t, inv_freq)
    cos, sin = freqs.cos(), freqs.sin()
    q = torch.from_numpy(x)
    rot, passed = q[:, :rotary_dim], q[:, rotary_dim:head_size]
    x1, x2 = rot[..., ::2], rot[..., 1::2]
    o1 = x1 * cos - x2 * sin
    o2 = x2 * cos + x1 * sin
    rot = torch.stack((o1, o2), dim=-1).flatten(-2)
    return torch.cat((rot, passed), dim=-1).numpy()


def vllm_bailing_mla_partial_rotary():
    """vllm-project/vllm#41185, vllm/model_executor/models/bailing_moe_linear.py
    BailingMoeV25MLAAttention: the model's rope_parameters (partial_rotary_factor 0.5, meant for the
    linear-attention heads) went to get_rope with head_size qk_rope_head_dim 64, so the MLA rope
    rotated 32 of its 64 columns at exponents over 32; the fix drops partial_rotary_factor and
    rotates all 64 (is_neox_style False). 64 query rows of the rope head, base 10000."""
    x = random_rows((64, 64), seed=4118)
    return {"input": x, "buggy": _vllm_gptj_rope(x, 32, 10000.0, 64),
            "fixed": _vllm_gptj_rope(x, 64, 10000.0, 64)}


def qwen25vl_rope_index(segments, tokens_per_second, merge=2):
    """transformers models/qwen2_5_vl/modeling_qwen2_5_vl.py get_rope_index for ("text", n) and
    ("video", t, h, w, second_per_grid) segments: a video's t ids are
    (arange(t) * second_per_grid * tokens_per_second).long(). Returns [3, L] ids."""
    ids, st = [], 0
    for seg in segments:
        if seg[0] == "text":
            ids.append(np.tile(np.arange(seg[1]) + st, (3, 1)))
        else:
            t, h, w, spg = seg[1], seg[2] // merge, seg[3] // merge, seg[4]
            steps = (torch.arange(t).view(-1, 1).expand(-1, h * w) * spg * tokens_per_second).long().flatten().numpy()
            h_index = np.tile(np.repeat(np.arange(h), w), t)
            w_index = np.tile(np.arange(w), t * h)
            ids.append(np.stack([steps, h_index, w_index]) + st)
        st = ids[-1].max() + 1
    return np.concatenate(ids, axis=1)


def _mrope_cos(pos, section, theta=1000000.0, dim=128):
    # transformers Qwen2_5_VLRotaryEmbedding (inv_freq @ position_ids per axis) and
    # apply_multimodal_rotary_pos_emb: the chunks of mrope_section * 2 taken from t, h, w in turn.
    inv_freq = (1.0 / (theta ** (np.arange(0, dim, 2).astype(np.float32) / dim))).astype(np.float32)
    freqs = np.einsum("ap,f->apf", pos.astype(np.float32), inv_freq).astype(np.float32)
    chunked = freqs[0].copy()
    offset = section[0]
    for axis, length in enumerate(section[1:], start=1):
        chunked[..., offset:offset + length] = freqs[axis, ..., offset:offset + length]
        offset += length
    return half_table(chunked)


def sglang_qwen25vl_video_seconds():
    """sgl-project/sglang#3682 (issue #3674), MRotaryEmbedding.get_input_positions: Qwen2.5-VL's
    video t ids were Qwen2-VL's frame index, second_per_grid_ts left out; the fix passes it in and
    multiplies, as transformers' get_rope_index does: t = frame * second_per_grid * tokens_per_second
    (2 for Qwen2.5-VL-7B). Prompt text:8, a video of grid 4x16x16 at second_per_grid 1 (temporal
    patch 2 at 2 fps), text:8; the M-RoPE cos table, sections [16, 24, 24]."""
    cfg = config("Qwen2.5-VL-7B-Instruct.json")
    section = cfg["rope_scaling"]["mrope_section"]
    tps = cfg["vision_config"]["tokens_per_second"]
    segments = [("text", 8), ("video", 4, 16, 16, 1.0), ("text", 8)]
    buggy_ids = qwen25vl_rope_index(segments, tokens_per_second=1.0)  # the frame index, as Qwen2-VL's
    fixed_ids = qwen25vl_rope_index(segments, tokens_per_second=tps)
    return {"buggy": _mrope_cos(buggy_ids, section), "fixed": _mrope_cos(fixed_ids, section)}


def _megatron_yarn_cos(length, dim, base, factor, mscale, mscale_all_dim, original=4096, beta_fast=32.0, beta_slow=1.0):
    """NVIDIA/Megatron-LM megatron/core/models/common/embeddings/yarn_rotary_pos_embedding.py
    YarnRotaryEmbedding (inv_freq_extra/inter, _yarn_find_correction_range with round_to_int,
    _yarn_linear_ramp_mask, _yarn_get_concentration_factor) and _set_cos_sin_cache's
    emb.cos() * _mscale, emb = cat((freqs, freqs))."""
    ar = torch.arange(0, dim, 2, dtype=torch.float32) / dim
    inv_freq_extra = 1.0 / (base ** ar)
    inv_freq_inter = 1.0 / (factor * base ** ar)

    def corr(rot):
        return (dim * math.log(original / (rot * 2 * math.pi))) / (2 * math.log(base))
    low, high = max(math.floor(corr(beta_fast)), 0), min(math.ceil(corr(beta_slow)), dim - 1)
    if low == high:
        high += 0.001
    ramp = torch.clamp((torch.arange(dim // 2, dtype=torch.float32) - low) / (high - low), 0, 1)
    inv_freq_mask = 1.0 - ramp
    inv_freq = inv_freq_inter * (1 - inv_freq_mask) + inv_freq_extra * inv_freq_mask
    freqs = torch.outer(torch.arange(length, dtype=torch.float32), inv_freq)

    def get_mscale(scale, m=1.0):
        return 1.0 if scale <= 1 else 0.1 * m * math.log(scale) + 1.0
    concentration = float(get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim))
    emb = torch.cat((freqs, freqs), dim=-1)
    return (emb.cos() * concentration).numpy()


def megatronbridge_mla_default_yarn():
    """NVIDIA-NeMo/Megatron-Bridge#2791, src/megatron/bridge/models/conversion/model_bridge.py
    hf_config_to_provider_kwargs: Moonlight's rope_scaling {"rope_type": "default"} is a non-empty
    dict of another type than yarn, so no branch overrode MLATransformerConfig's defaults
    (rotary_scaling_factor 40, mscale 1.0, mscale_all_dim 0.0) and its MLA rope ran YaRN x40 with
    a concentration 1 + 0.1 ln 40; the fix overrides rotary_scaling_factor=1.0, mscale_all_dim=1.0
    for every MLA provider without yarn. Moonlight: rope_theta 50000, qk_rope_head_dim 64."""
    kwargs = dict(length=128, dim=64, base=50000.0)
    return {"buggy": _megatron_yarn_cos(factor=40.0, mscale=1.0, mscale_all_dim=0.0, **kwargs),
            "fixed": _megatron_yarn_cos(factor=1.0, mscale=1.0, mscale_all_dim=1.0, **kwargs)}


def brianpulfer_ddpm_sinusoidal():
    """BrianPulfer/PapersReimplementations#10 (issue #9), the DDPM notebook's sinusoidal_embedding:
    the buggy code took the angle table i / 10000^(2j/d), put sin on the rows arange(0, n, 2) and
    then cos(embedding[sin_mask]) on the rows 1 - sin_mask (1, -1, -3, ..: negative indices, the
    odd rows from the end), cos of the sines; the fix puts sin(t * wk[::2]) on the even columns and
    cos on the odd with wk = 1 / 10000^(2j/d) for j = 0..d-1, so pair k turns at 10000^(-4k/d).
    n_steps 1000, time_emb_dim 100 (the notebook's)."""
    n, d = 1000, 100
    embedding = torch.tensor([[i / 10_000 ** (2 * j / d) for j in range(d)] for i in range(n)])
    sin_mask = torch.arange(0, n, 2)
    embedding[sin_mask] = torch.sin(embedding[sin_mask])
    embedding[1 - sin_mask] = torch.cos(embedding[sin_mask])
    buggy = embedding.clone()
    embedding = torch.zeros(n, d)
    wk = torch.tensor([1 / 10_000 ** (2 * j / d) for j in range(d)])
    wk = wk.reshape((1, d))
    t = torch.arange(n).reshape((n, 1))
    embedding[:, ::2] = torch.sin(t * wk[:, ::2])
    embedding[:, 1::2] = torch.cos(t * wk[:, ::2])
    return {"buggy": buggy.numpy(), "fixed": embedding.numpy()}


def airllm_mlx_rope_theta():
    """lyogavin/airllm#369 (issue #368), air_llm/airllm/airllm_llama_mlx.py
    get_model_args_from_config: every field but rope_theta was copied, so sanitize_config's
    10000 went to nn.RoPE (traditional False) for Llama 3 (rope_theta 500000); the fix copies
    config.rope_theta. Llama-3-8B: head_dim 128, 128 positions of mx.fast.rope's cos."""
    positions = np.arange(128)
    buggy = mlx_fast_rope_angles(positions, 128, base=10000.0)
    fixed = mlx_fast_rope_angles(positions, 128, base=500000.0)
    return {"buggy": half_table(buggy), "fixed": half_table(fixed)}


def _sglang_yarn_cos(length, rotary_dim, base, factor, original, beta_fast, beta_slow, mscale):
    """sgl-project/sglang python/sglang/srt/layers/rotary_embedding.py YaRNScalingRotaryEmbedding
    (after vLLM's): _compute_inv_freq (pos_freqs = base^(arange(0, d, 2) / d), the floor/ceil
    correction range, 1 - _yarn_linear_ramp_mask) and _compute_cos_sin_cache's cos = freqs.cos() *
    self.mscale. Returns the cache's cos half, [L, rotary_dim / 2]."""
    pos_freqs = base ** (torch.arange(0, rotary_dim, 2, dtype=torch.float) / rotary_dim)
    inv_freq_extrapolation = 1.0 / pos_freqs
    inv_freq_interpolation = 1.0 / (factor * pos_freqs)

    def corr(rot):
        return (rotary_dim * math.log(original / (rot * 2 * math.pi))) / (2 * math.log(base))
    low, high = max(math.floor(corr(beta_fast)), 0), min(math.ceil(corr(beta_slow)), rotary_dim - 1)
    if low == high:
        high += 0.001
    ramp = torch.clamp((torch.arange(rotary_dim // 2, dtype=torch.float32) - low) / (high - low), 0, 1)
    inv_freq_mask = (1 - ramp) * 1.0
    inv_freq = inv_freq_interpolation * (1 - inv_freq_mask) + inv_freq_extrapolation * inv_freq_mask
    t = torch.arange(length, dtype=torch.float32)
    freqs = torch.einsum("i,j -> ij", t, inv_freq)
    return (freqs.cos() * mscale).numpy()


def sglang_ministral3_yarn_mscale():
    """sgl-project/sglang#22711: factory.py passed no mscale / mscale_all_dim to
    YaRNScalingRotaryEmbedding, whose mscale was yarn_get_mscale(factor) * attn_factor =
    0.1 ln(factor) + 1 whatever the config said; the fix computes yarn_get_mscale(factor, mscale) /
    yarn_get_mscale(factor, mscale_all_dim), 1.0 for Ministral 3 (mscale = mscale_all_dim = 1), as
    transformers does. Devstral-Small-2 (Ministral 3): factor 48, theta 1e8, head_dim 128."""
    rope = config("Devstral-Small-2-24B-Instruct.json")["text_config"]["rope_parameters"]
    factor = rope["factor"]
    kwargs = dict(length=128, rotary_dim=128, base=rope["rope_theta"], factor=factor,
                  original=rope["original_max_position_embeddings"], beta_fast=rope["beta_fast"],
                  beta_slow=rope["beta_slow"])

    def get_mscale(scale, m=1.0):
        return 1.0 if scale <= 1 else 0.1 * m * math.log(scale) + 1.0
    fixed_mscale = get_mscale(factor, rope["mscale"]) / get_mscale(factor, rope["mscale_all_dim"])
    return {"buggy": _sglang_yarn_cos(mscale=get_mscale(factor), **kwargs),
            "fixed": _sglang_yarn_cos(mscale=fixed_mscale, **kwargs)}
