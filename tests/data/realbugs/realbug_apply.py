"""Real bugs in how RoPE is applied: the pairing (layout), the partial rotary, the positions and
M-RoPE's and 2-D RoPE's axes. Each function follows the buggy and the fixed code it cites."""
import math

import numpy as np
import torch

from realbug_common import (bf16, config, ggml_rope_cache, half_table, hf_default_inv_freq,
                            interleaved_apply, mlx_fast_rope_angles, random_rows, rotate_half_apply)


def _pie_rope(x, theta, rotary_dim, pair_offset, exponent_dim):
    # pie driver/cuda/src/kernels/rope.cu rope_partial_bf16_kernel: pairs (dp, dp + pair_offset)
    # for dp < rotary_dim / 2 at freq = powf(theta, -2 dp / exponent_dim); bf16 in and out.
    out = np.array(x, dtype=np.float32, copy=True)
    dp = np.arange(rotary_dim // 2)
    freq = np.power(np.float32(theta), (-2.0 * dp / exponent_dim).astype(np.float32)).astype(np.float32)
    ang = np.outer(np.arange(x.shape[0], dtype=np.float32), freq).astype(np.float32)
    c, s = np.cos(ang), np.sin(ang)
    a, b = x[:, dp], x[:, dp + pair_offset]
    out[:, dp] = a * c - b * s
    out[:, dp + pair_offset] = b * c + a * s
    return bf16(out)


def pie_partial_rotary_proportional():
    """pie-project/pie#603 (fixes #602), driver/cuda/src/kernels/rope.cu rope_partial_bf16_kernel
    (and the Metal rope_neox_prop_mb): the Gemma-4 proportional form, freq theta^(-2i/head_dim)
    and pairs (i, i + head_dim/2), served every partial-rotary model; the fix takes the frequencies
    and the pair offset from the rotary width (theta^(-2i/rotary_dim), pairs (i, i + rotary_dim/2)),
    as transformers. Qwen3-Next / Qwen3.5: head_dim 256, partial_rotary_factor 0.25, theta 1e7."""
    cfg = config("Qwen3-Next-80B-A3B-Instruct.json")
    head_dim, theta = cfg["head_dim"], cfg["rope_theta"]
    rotary_dim = int(head_dim * cfg["partial_rotary_factor"])
    x = bf16(random_rows((64, head_dim), seed=603))
    return {"input": x,
            "buggy": _pie_rope(x, theta, rotary_dim, head_dim // 2, head_dim),
            "fixed": _pie_rope(x, theta, rotary_dim, rotary_dim // 2, rotary_dim)}


def coreai_gemma4_proportional_contiguous():
    """apple/coreai-models#66 (and NVIDIA-NeMo/Megatron-Bridge#4916, the same bug in Gemma 4 MoE):
    the composite RoPE's partial mode, RoPE(base**prf, dims=2*rope_angles), pairs dim i with
    i + dims/2 inside the first dims columns and passes the rest through, where transformers'
    proportional rope (_compute_proportional_rope_parameters: inv_freq of head_dim/2 entries, the
    first rope_angles = int(prf * head_dim // 2) at theta^(-2i/head_dim), the rest 0; rotate_half
    pairs i, i + head_dim/2) turns pairs across the whole head. The frequencies are the same; the
    pairing differs. Gemma 4's full-attention layers: global_head_dim 512, prf 0.25, theta 1e6."""
    rope = config("gemma-4-31B-it.json")["text_config"]
    head, prop = rope["global_head_dim"], rope["rope_parameters"]["full_attention"]
    prf, theta = prop["partial_rotary_factor"], prop["rope_theta"]
    angles_n = int(prf * head // 2)
    inv = (1.0 / np.power(np.float32(theta), np.arange(0, 2 * angles_n, 2, dtype=np.float32) / head)).astype(np.float32)
    ang = np.outer(np.arange(256, dtype=np.float32), inv).astype(np.float32)
    c, s = np.cos(ang), np.sin(ang)
    x = random_rows((256, head), seed=66)
    fixed, buggy = np.array(x, copy=True), np.array(x, copy=True)
    for out, offset in ((fixed, head // 2), (buggy, angles_n)):
        i = np.arange(angles_n)
        a, b = x[:, i], x[:, i + offset]
        out[:, i] = a * c - b * s
        out[:, i + offset] = b * c + a * s
    return {"input": x, "buggy": buggy, "fixed": fixed}


def candle_quantized_qwen_neox():
    """huggingface/candle#3411, candle-transformers/src/models/quantized_llama.rs
    LayerWeights::apply_rotary_emb: `candle_nn::rotary_emb::rope_i` (pairs 2i, 2i+1) for every GGUF
    architecture; the fix calls `rope` (pairs i, i + d/2) when general.architecture is NEOX-style
    (qwen2, ...), as llama.cpp's llama_model_rope_type. cos/sin from precomput_freqs_cis with the
    GGUF's rope.freq_base. Qwen2.5-7B: head_dim 128, theta 1e6; one head's query rows."""
    head_dim, freq_base = 128, np.float32(1000000.0)
    theta = np.array([np.float32(1.0) / freq_base ** np.float32(i / head_dim) for i in range(0, head_dim, 2)],
                     dtype=np.float32)
    idx_theta = np.outer(np.arange(64, dtype=np.float32), theta).astype(np.float32)
    cos, sin = np.cos(idx_theta), np.sin(idx_theta)
    x = random_rows((64, head_dim), seed=3411)
    return {"input": x, "buggy": interleaved_apply(x, cos, sin), "fixed": rotate_half_apply(x, cos, sin)}


def _mlx_yarn_freqs(dims, base, scaling_factor, orig, beta_fast, beta_slow):
    # mlx_lm/models/rope_utils.py YarnRoPE.__init__ (_freqs: the periods mx.fast.rope inverts)
    def correction_dim(num_rotations):
        return (dims * math.log(orig / (num_rotations * 2 * math.pi))) / (2 * math.log(base))
    low = max(math.floor(correction_dim(beta_fast)), 0)
    high = min(math.ceil(correction_dim(beta_slow)), dims - 1)
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(dims // 2, dtype=np.float32) - low) / (high - low), 0, 1).astype(np.float32)
    freq_extra = (base ** (np.arange(0, dims, 2, dtype=np.float32) / dims)).astype(np.float32)
    freq_inter = (scaling_factor * freq_extra).astype(np.float32)
    freq_mask = (1.0 - ramp).astype(np.float32)
    return ((freq_inter * freq_extra) / (freq_inter * freq_mask + freq_extra * (1 - freq_mask))).astype(np.float32)


def mlxlm_dsv32_indexer_layout():
    """ml-explore/mlx-lm#1431, mlx_lm/models/deepseek_v32.py Indexer: `traditional=True` (pairs
    2i, 2i+1) for the indexer's RoPE; DeepSeek-V3.2's indexer rotates rotate_half pairs (its MLA
    the interleaved ones), so the fix reads `traditional=args.indexer_rope_interleave` (False).
    The rows are the 64 rotary columns of one indexer query (YaRN: factor 40, original 4096,
    theta 10000, mscale = mscale_all_dim = 1, so the amplitude is 1)."""
    rope = config("DeepSeek-V3.2-Exp.json")["rope_scaling"]
    dims = 64
    freqs = _mlx_yarn_freqs(dims, 10000.0, rope["factor"], rope["original_max_position_embeddings"],
                            rope["beta_fast"], rope["beta_slow"])
    angles = mlx_fast_rope_angles(np.arange(64), dims, freqs=freqs)
    cos, sin = np.cos(angles), np.sin(angles)
    x = random_rows((64, dims), seed=1431)
    return {"input": x, "buggy": interleaved_apply(x, cos, sin), "fixed": rotate_half_apply(x, cos, sin)}


def llamacpp_plamo_neox():
    """ggml-org/llama.cpp#13260, src/llama-model.cpp llama_model_rope_type: LLM_ARCH_PLAMO returned
    LLAMA_ROPE_TYPE_NORM (pairs 2i, 2i+1) though its GGUF keeps HF's rotate_half q/k; the fix moves
    it to the LLAMA_ROPE_TYPE_NEOX group. The tensor is the cos factor GGML's rope gives each column
    of a 128-wide head (ggml_rope_cache_init, base 10000): repeated per pair (NORM) or per half."""
    cos, _ = ggml_rope_cache(np.arange(128), 128, 10000.0, 1.0)
    return {"buggy": np.repeat(cos, 2, axis=-1), "fixed": np.concatenate([cos, cos], axis=-1)}


def mlxvlm_qwen3omni_decode_positions():
    """Blaizzy/mlx-vlm#1993, mlx_vlm/models/qwen3_omni_moe/thinker.py: the thinker computed
    position_ids with get_rope_index (which restarts at 0 on every call) and passed them on every
    decode step, so each generated token turned at position 0; the fix drops position_ids and
    rope_deltas once the cache offset is > 0. Text-only prompt of 16 tokens, then 48 decode steps:
    the cos row each token was rotated with (t = h = w for text; theta 1e6, head_dim 128)."""
    inv_freq = hf_default_inv_freq(1000000.0, 128).numpy()
    buggy_pos = np.concatenate([np.arange(16), np.zeros(48, dtype=np.int64)])
    fixed_pos = np.arange(64)
    return {"buggy": half_table(np.outer(buggy_pos, inv_freq)), "fixed": half_table(np.outer(fixed_pos, inv_freq))}


def qwen2vl_rope_index(segments, merge=2):
    """transformers models/qwen2_vl/modeling_qwen2_vl.py get_rope_index for one prompt of
    ("text", n) and ("image", t, h, w) segments (grids in patches): returns [3, L] ids."""
    ids, st = [], 0
    for seg in segments:
        if seg[0] == "text":
            ids.append(np.tile(np.arange(seg[1]) + st, (3, 1)))
        else:
            t, h, w = seg[1], seg[2] // merge, seg[3] // merge
            t_index = np.repeat(np.arange(t), h * w)
            h_index = np.tile(np.repeat(np.arange(h), w), t)
            w_index = np.tile(np.arange(w), t * h)
            ids.append(np.stack([t_index, h_index, w_index]) + st)
        st = ids[-1].max() + 1
    return np.concatenate(ids, axis=1)


def mlxvlm_qwen2vl_interleaved_mrope():
    """Blaizzy/mlx-vlm#576, mlx_vlm/models/qwen2_vl/language.py Qwen2RotaryEmbedding: Qwen2-VL and
    Qwen2.5-VL used apply_interleaved_mrope (Qwen3-VL's THWTHW... layout: H at pairs 1, 4, ...,
    W at 2, 5, ... below 3 x section) where their checkpoints take chunked sections [16, 24, 24];
    the fix's apply_mrope overwrites contiguous slices. Prompt text:8, image 1x8x12, text:8."""
    section = config("Qwen2-VL-7B-Instruct.json")["rope_scaling"]["mrope_section"]
    pos = qwen2vl_rope_index([("text", 8), ("image", 1, 8, 12), ("text", 8)])
    inv_freq = (1.0 / (1000000.0 ** (np.arange(0, 128, 2).astype(np.float32) / 128))).astype(np.float32)
    freqs = np.einsum("ap,f->apf", pos.astype(np.float32), inv_freq).astype(np.float32)
    interleaved = freqs[0].copy()
    for dim, offset in enumerate((1, 2), start=1):
        idx = slice(offset, section[dim] * 3, 3)
        interleaved[..., idx] = freqs[dim, ..., idx]
    chunked = freqs[0].copy()
    offset = section[0]
    for dim, length in enumerate(section[1:], start=1):
        chunked[..., offset:offset + length] = freqs[dim, ..., offset:offset + length]
        offset += length
    return {"buggy": half_table(interleaved), "fixed": half_table(chunked)}


def candle_pixtral_positions():
    """huggingface/candle#2678, candle-transformers/src/models/pixtral/vision_model.rs: the patch
    rotary table holds a row per cell of the 64 x 64 maximum grid (row-major, 64 wide) and
    apply_rotary_emb_qkv used its first h*w rows for an h x w image; the fix index_selects the
    rows of position_ids_in_meshgrid (i * max_image_width + j). An 8 x 12 patch image; candle's
    cos buffer is [cells, head_dim / 2] (freqs_h on even, freqs_w on odd frequencies)."""
    dim, theta, side = 64, np.float32(10000.0), 64
    freqs = np.array([np.float32(1.0) / theta ** np.float32(i / dim) for i in range(0, dim, 2)], dtype=np.float32)
    freqs_h = np.outer(np.arange(side, dtype=np.float32), freqs[0::2]).astype(np.float32)
    freqs_w = np.outer(np.arange(side, dtype=np.float32), freqs[1::2]).astype(np.float32)
    table = np.concatenate([np.repeat(freqs_h[:, None, :], side, axis=1),
                            np.repeat(freqs_w[None, :, :], side, axis=0)], axis=-1).reshape(-1, dim // 2)
    cos = np.cos(table).astype(np.float32)
    h, w = 8, 12
    rows = (np.arange(h)[:, None] * side + np.arange(w)[None, :]).reshape(-1)
    return {"buggy": cos[: h * w], "fixed": cos[rows]}


def vllmomni_hunyuanimage3_rope_sections():
    """vllm-project/vllm-omni#1784 (issue #1782), vllm_omni/diffusion/models/hunyuan_image_3: vLLM's
    M-RoPE applied HunyuanImage 3.0's 2-D positions in contiguous sections (the first d/4 frequencies
    with y, the last d/4 with x) where the model's build_2d_rope (Tencent-Hunyuan/HunyuanImage-3.0
    hunyuan_image_3/modeling_hunyuan_image_3.py) interleaves them: theta = 1 / base^(arange(0, d, 2)
    / d) reshaped (1, d/4, 2) times (y, x), idx_theta.repeat(1, 2). An 8 x 8 image first in its
    sequence (L = 0): ids from beta_y = beta_x = (wh - h)/2 = 28; head_dim 128, base 10000."""
    n_elem, h, w, start = 128, 8, 8, 0
    theta = 1.0 / (10000 ** (torch.arange(0, n_elem, 2).float() / n_elem))
    beta_y, beta_x = start + (w * h - h) / 2, start + (w * h - w) / 2
    ys = torch.linspace(beta_y, beta_y + h, h + 1, dtype=torch.float32)[:h]
    xs = torch.linspace(beta_x, beta_x + w, w + 1, dtype=torch.float32)[:w]
    grid = torch.stack(torch.meshgrid(ys, xs, indexing="ij"), dim=0).reshape(2, -1).long()
    all_pos = torch.stack((grid[0], grid[1]), dim=1).unsqueeze(1)  # [L, 1, 2] (y, x)
    fixed = (all_pos * theta.reshape(1, n_elem // 4, 2)).reshape(h * w, n_elem // 2).repeat(1, 2)
    # vLLM's sections: pairs 0 .. d/4 - 1 turn with y, the rest with x, at the same frequencies.
    pos = torch.where(torch.arange(n_elem // 2) < n_elem // 4, grid[0][:, None], grid[1][:, None])
    buggy = (pos * theta[None, :]).repeat(1, 2)
    return {"buggy": torch.cos(buggy).numpy(), "fixed": torch.cos(fixed).numpy()}


def tf_gptneox_left_padding():
    """huggingface/transformers#22161, fixed by #22382 (v4.28), models/gpt_neox/modeling_gpt_neox.py:
    apply_rotary_pos_emb sliced `cos[..., offset : q.shape[-2] + offset, :]`, so in a left-padded
    row the first real token took position n_pad; the fix gathers cos at position_ids
    (attention_mask.cumsum(-1) - 1, pads filled with 1). Pythia-160m (rotary_ndims 16, base 10000),
    a row of 4 pads and 32 tokens: the cos rows of the 32 real tokens."""
    dim, pads, length = 16, 4, 36
    inv_freq = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
    t = torch.arange(length, dtype=inv_freq.dtype)
    freqs = torch.einsum("i,j->ij", t, inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    cos_cached = emb.cos()
    attention_mask = torch.cat([torch.zeros(pads, dtype=torch.long), torch.ones(length - pads, dtype=torch.long)])
    position_ids = attention_mask.long().cumsum(-1) - 1
    position_ids.masked_fill_(attention_mask == 0, 1)
    buggy = cos_cached[0:length][pads:]
    fixed = cos_cached[position_ids][pads:]
    return {"buggy": buggy.numpy(), "fixed": fixed.numpy()}

