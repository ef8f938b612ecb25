"""Real bugs in attention biases (ALiBi, T5 buckets) and in sinusoidal tables (diffusers' timestep
embedding, RT-DETR's 2-D sin-cos). Each function follows the buggy and the fixed code it cites."""
import math

import numpy as np
import torch

from realbug_common import get_slopes


def mlx_alibi_non_power_of_two():
    """ml-explore/mlx#3071, python/mlx/nn/layers/positional_encoding.py ALiBi.create_alibi_slope:
    `x = (2**8) ** (1 / num_heads); out = mx.power(x, -mx.arange(1, num_heads + 1))`, the paper's
    geometric slopes that get_slopes gives only for a power of 2; the fix is get_slopes. The tensor
    is create_alibi_matrix's output [1, H, Lq, Lk] = -|i - j| * slope, 12 heads (Jina-BERT-v2-base's
    count), 32 positions."""
    heads, length = 12, 32
    x1 = np.arange(0, length)
    x2 = np.arange(0, length)
    distance = -np.abs(x1[:, None] - x2[None, :])[None, None].astype(np.float32)
    x = (2 ** 8) ** (1 / heads)
    buggy_slopes = np.power(np.float32(x), -np.arange(1, heads + 1, dtype=np.float32)).astype(np.float32)
    fixed_slopes = np.array(get_slopes(heads), dtype=np.float32)
    return {"buggy": (distance * buggy_slopes[None, :, None, None]).astype(np.float32),
            "fixed": (distance * fixed_slopes[None, :, None, None]).astype(np.float32)}


def megatron_alibi_tensor_parallel():
    """bigscience-workshop/Megatron-DeepSpeed#227, fixed by #244, megatron/model/transformer.py
    ParallelTransformerLayer._build_alibi_tensor: the bias of all num_attention_heads was built on
    every tensor-parallel rank and each rank's attention took `alibi[:b * np]`, the first np heads'
    slopes; the fix selects `alibi.reshape((tp_world_size, -1, *alibi.shape[1:]))[tp_index]`. 16
    heads, TP 2, batch 1, 64 positions: the ranks' biases concatenated in head order
    [H, 1, L] = slope * key position (BLOOM's form)."""
    heads, length, tp = 16, 64, 2
    slopes = torch.Tensor(get_slopes(heads))
    alibi = slopes.unsqueeze(1).unsqueeze(1) * torch.arange(length).unsqueeze(0).unsqueeze(0).expand(heads, -1, -1)
    local = heads // tp
    buggy = torch.cat([alibi[:local] for _ in range(tp)], dim=0)
    fixed = torch.cat([alibi.reshape((tp, -1, *alibi.shape[1:]))[r] for r in range(tp)], dim=0)
    return {"buggy": buggy.numpy(), "fixed": fixed.numpy()}


def _candle_t5_buckets(length, num_buckets_all=32, max_distance=128, clamp_before=True, log_buckets=True):
    # candle-transformers/src/models/t5.rs T5Attention::forward, relative_position (bidirectional)
    num_buckets = num_buckets_all // 2
    max_exact = num_buckets // 2
    out = np.zeros((length, length), dtype=np.int32)
    for i in range(length):
        for j in range(length):
            if not log_buckets:
                out[i, j] = j - i + num_buckets if i < j else i - j
                continue
            if i < j:
                if j - i < max_exact:
                    out[i, j] = j - i + num_buckets
                else:
                    b = np.float32(math.log(np.float32((j - i) / max_exact))) / np.float32(math.log(max_distance / max_exact))
                    b = int(np.float32(b * (num_buckets - max_exact)))
                    out[i, j] = min(max_exact + num_buckets + b, num_buckets_all - 1)
            elif i - j < max_exact:
                out[i, j] = i - j
            else:
                b = np.float32(math.log(np.float32((i - j) / max_exact))) / np.float32(math.log(max_distance / max_exact))
                b = int(np.float32(b * (num_buckets - max_exact)))
                out[i, j] = min(max_exact + b, num_buckets - 1) if clamp_before else max_exact + b
    return out


def candle_t5_bucket_unclamped():
    """huggingface/candle#1312, candle-transformers/src/models/t5.rs: for a key before the query the
    log bucket `max_exact + b as u32` had no `u32::min(..., num_buckets - 1)`, so distances past
    max_distance 128 spilled into the after-the-query half; the fix adds the min, as transformers'
    _relative_position_bucket. t5-base: 32 buckets, max_distance 128; 144 positions."""
    return {"buggy": _candle_t5_buckets(144, clamp_before=False), "fixed": _candle_t5_buckets(144)}


def candle_t5_exact_buckets():
    """huggingface/candle#727 ("Proper log buckets for t5"), candle-transformers/src/models/t5.rs
    (and musicgen's t5_model.rs): the bucket was the exact distance, `if i < j { j - i + num_buckets }
    else { i - j }`, no max_exact and no log buckets; the fix computes the log buckets past
    max_exact = 8. t5-base, 16 positions (where the exact map still indexes the 32-row table)."""
    return {"buggy": _candle_t5_buckets(16, log_buckets=False), "fixed": _candle_t5_buckets(16)}


def _deberta_log_bucket(relative_pos, bucket_size=256, max_position=512):
    # transformers models/deberta_v2/modeling_deberta_v2.py make_log_bucket_position
    sign = torch.sign(relative_pos)
    mid = bucket_size // 2
    abs_pos = torch.where((relative_pos < mid) & (relative_pos > -mid), torch.tensor(mid - 1).type_as(relative_pos),
                          torch.abs(relative_pos))
    log_pos = torch.ceil(torch.log(abs_pos / mid) / torch.log(torch.tensor((max_position - 1) / mid)) * (mid - 1)) + mid
    return torch.where(abs_pos <= mid, relative_pos.type_as(log_pos), log_pos * sign)


def nntrainer_deberta_p2c_transpose():
    """nntrainer/nntrainer#3982: the DeBERTa-v2 position-to-content index was
    clamp(-bucket(q - k) + att_span), where the reference's p2c attention (transformers
    DisentangledSelfAttention.disentangled_attention_bias, its gather transposed) reads the same
    bucket(q - k) as c2p; the fix removed the negation: the signed bucket map negated. The dump is
    the signed bucket build_relative_position gives (make_log_bucket_position of query - key, 256
    buckets, 512 positions) before the att_span shift; 300 positions."""
    n = 300
    relative = torch.arange(n)[:, None] - torch.arange(n)[None, :]
    fixed = _deberta_log_bucket(relative).to(torch.int64)
    return {"buggy": (-fixed).numpy(), "fixed": fixed.numpy()}


def get_timestep_embedding(timesteps, embedding_dim, flip_sin_to_cos=False, downscale_freq_shift=1,
                           scale=1, max_period=10000):
    """diffusers src/diffusers/models/embeddings.py get_timestep_embedding, verbatim."""
    half_dim = embedding_dim // 2
    exponent = -math.log(max_period) * torch.arange(start=0, end=half_dim, dtype=torch.float32)
    exponent = exponent / (half_dim - downscale_freq_shift)
    emb = torch.exp(exponent)
    emb = timesteps[:, None].float() * emb[None, :]
    emb = scale * emb
    emb = torch.cat([torch.sin(emb), torch.cos(emb)], dim=-1)
    if flip_sin_to_cos:
        emb = torch.cat([emb[:, half_dim:], emb[:, :half_dim]], dim=-1)
    return emb


def diffusers_prx_freq_shift():
    """huggingface/diffusers#12791, src/diffusers/models/transformers/transformer_prx.py
    PRXTransformer2DModel._compute_timestep_embedding: get_timestep_embedding(embedding_dim=256,
    max_period=time_max_period (10000), scale=time_factor (1000), flip_sin_to_cos=True) took the
    default downscale_freq_shift=1 (exponent / (half_dim - 1)); Photoroom's code, and the fix, use
    0. Timesteps t = k / 1000 for k = 0..95, as the flow pipeline passes them in [0, 1]."""
    t = torch.arange(96, dtype=torch.float32) / 1000.0
    kwargs = dict(embedding_dim=256, max_period=10000, scale=1000.0, flip_sin_to_cos=True)
    return {"buggy": get_timestep_embedding(t, downscale_freq_shift=1, **kwargs).numpy(),
            "fixed": get_timestep_embedding(t, downscale_freq_shift=0.0, **kwargs).numpy()}


def flashinfer_wan_timestep_order():
    """flashinfer-ai/flashinfer#3819, examples/pytorch/wan/transformer_wan_flashinfer.py
    Timesteps.forward: `emb = torch.cat([emb.cos(), emb.sin()], dim=-1)` before the
    flip_sin_to_cos flip, so the flip produced [sin, cos]; the fix concatenates [sin, cos] first,
    as diffusers' get_timestep_embedding, giving Wan's [cos, sin]. freq_dim 256, shift 0,
    timesteps 0..95."""
    timesteps = torch.arange(96, dtype=torch.float32)
    half_dim = 128
    exponent = -math.log(10000) * torch.arange(0, half_dim, dtype=torch.float32)
    exponent = exponent / (half_dim - 0)
    emb = timesteps[:, None].float() * exponent[None, :].exp()
    out = {}
    for name, first, second in (("buggy", emb.cos(), emb.sin()), ("fixed", emb.sin(), emb.cos())):
        cat = torch.cat([first, second], dim=-1)
        out[name] = torch.cat([cat[:, half_dim:], cat[:, :half_dim]], dim=-1).numpy()
    return out


def _rtdetr_2d(width, height, embed_dim, indexing, h_first, temperature=10000.0):
    # transformers models/rt_detr/modeling_rt_detr.py RTDetrHybridEncoder.build_2d_sincos_position_embedding
    grid_w = torch.arange(int(width)).to(torch.float32)
    grid_h = torch.arange(int(height)).to(torch.float32)
    grid_w, grid_h = torch.meshgrid(grid_w, grid_h, indexing=indexing)
    pos_dim = embed_dim // 4
    omega = torch.arange(pos_dim).to(torch.float32) / pos_dim
    omega = 1.0 / (temperature**omega)
    out_w = grid_w.flatten()[..., None] @ omega[None]
    out_h = grid_h.flatten()[..., None] @ omega[None]
    if h_first:
        return torch.concat([out_h.sin(), out_h.cos(), out_w.sin(), out_w.cos()], dim=1).numpy()
    return torch.concat([out_w.sin(), out_w.cos(), out_h.sin(), out_h.cos()], dim=1).numpy()


def tf_rtdetr_non_square():
    """huggingface/transformers#41380, RTDetrHybridEncoder.build_2d_sincos_position_embedding:
    `torch.meshgrid(grid_w, grid_h, indexing="ij")` flattened width-major while the feature map
    flattens [B, C, H, W] row by row, so a non-square map's rows got wrong (h, w) (the first four
    pixels of a 4-wide, 3-high map took x = 0, 0, 0, 1); the fix meshes with indexing="xy" and
    concatenates [h.sin, h.cos, w.sin, w.cos] (unchanged for square maps). 8 x 12 map, d 256."""
    return {"buggy": _rtdetr_2d(12, 8, 256, "ij", h_first=False),
            "fixed": _rtdetr_2d(12, 8, 256, "xy", h_first=True)}


def aprender_alibi_slope_offset():
    """paiml/aprender#2143, the serve crate's ALiBi compute_slopes: `2^(-8h/n)` for heads h = 0..n-1,
    so head 0 had slope 1 and every head the slope of the one before it; the fix's exponent
    `-(8 (h + 1) / n)` is get_slopes' (Press et al. 2021, llama.cpp's ggml_alibi). 32 heads (a
    power of two, where get_slopes is the plain series): the slopes vector, float32."""
    n = 32
    buggy = np.array([2.0 ** (-8.0 * h / n) for h in range(n)], dtype=np.float32)
    fixed = np.array([2.0 ** (-8.0 * (h + 1) / n) for h in range(n)], dtype=np.float32)
    assert np.array_equal(fixed, np.array(get_slopes(n), dtype=np.float32))
    return {"buggy": buggy, "fixed": fixed}
