"""Real bugs in relative attention biases computed with a cache (T5's position_bias, ALiBi) and in
the direction of T5's buckets. Each function follows the buggy and the fixed code it cites.

With a cache of c keys and q new queries the bias is a [.., q, k] map over k = c + q keys whose
rows are the LAST q positions: transformers' T5Attention.forward keeps
`position_bias[:, :, -seq_length:, :]` of `compute_bias(real_seq_length, key_length)`
(src/transformers/models/t5/modeling_t5.py); the bugs took them as positions 0 .. q - 1."""
import math

import numpy as np
import torch

from realbug_common import get_slopes


def hf_relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """transformers src/transformers/models/t5/modeling_t5.py T5Attention._relative_position_bucket,
    verbatim."""
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


def hf_position_bias(weight, queries, keys, bidirectional):
    """T5Attention.compute_bias(real_seq_length, key_length) then position_bias[:, :, -seq_length:, :]
    (T5Attention.forward with past_key_values): [1, H, q, k]."""
    context_position = torch.arange(keys, dtype=torch.long)[:, None]
    memory_position = torch.arange(keys, dtype=torch.long)[None, :]
    bucket = hf_relative_position_bucket(memory_position - context_position, bidirectional=bidirectional,
                                         num_buckets=weight.shape[0])
    values = torch.nn.functional.embedding(bucket, weight)  # (keys, keys, heads)
    return values.permute([2, 0, 1]).unsqueeze(0)[:, :, -queries:, :]


def t5_weight(heads, seed, buckets=32):
    """A relative_attention_bias weight (nn.Embedding(buckets, heads)'s normal init), seeded."""
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(buckets, heads, generator=generator, dtype=torch.float32)


def _candle_relative_position(q_start, q_end, kv_len, num_buckets_all=32, max_distance=128):
    # candle-transformers/src/models/t5.rs T5Attention::forward ("This only handles the bidirectional case").
    num_buckets = num_buckets_all // 2
    max_exact = num_buckets // 2
    out = np.zeros((q_end - q_start, kv_len), dtype=np.int64)
    for r, i in enumerate(range(q_start, q_end)):
        for j in range(kv_len):
            if i < j:
                if j - i < max_exact:
                    out[r, j] = j - i + num_buckets
                else:
                    b = np.float32(math.log(np.float32((j - i) / max_exact))) / np.float32(math.log(max_distance / max_exact))
                    b = int(np.float32(b * (num_buckets - max_exact)))
                    out[r, j] = min(max_exact + num_buckets + b, num_buckets_all - 1)
            elif i - j < max_exact:
                out[r, j] = i - j
            else:
                b = np.float32(math.log(np.float32((i - j) / max_exact))) / np.float32(math.log(max_distance / max_exact))
                b = int(np.float32(b * (num_buckets - max_exact)))
                out[r, j] = min(max_exact + b, num_buckets - 1)
    return out


def candle_t5_kv_cache():
    """huggingface/candle#899 ("Fix T5 kv cache"), candle-transformers/src/models/t5.rs
    T5Attention::forward: the relative positions were built for queries `0..q_len` over the kv_len
    keys of the cache; the fix takes `(kv_len - q_len)..kv_len`. candle's map is the bidirectional
    one in encoder and decoder alike. t5-small's 8 heads, a step of 4 queries over 32 keys (a cache
    of 28): position_bias [1, 8, 4, 32] (the weight seeded)."""
    heads, q_len, kv_len = 8, 4, 32
    weight = t5_weight(heads, 899).numpy()
    out = {}
    for name, q_start in (("buggy", 0), ("fixed", kv_len - q_len)):
        buckets = _candle_relative_position(q_start, q_start + q_len, kv_len)
        out[name] = weight[buckets].transpose(2, 0, 1)[None].astype(np.float32)
    hf = hf_position_bias(torch.from_numpy(weight), q_len, kv_len, bidirectional=True).numpy()
    assert np.array_equal(out["fixed"], hf), "candle's fixed map is HF's bidirectional position_bias"
    return out


def xtransformers_t5_cache_offset():
    """lucidrains/x-transformers#103 ("Fix wrong positional biases"), x_transformers/x_transformers.py
    RelativePositionBias.forward: `q_pos = torch.arange(i)`, `k_pos = torch.arange(j)` for i queries
    over j keys (transformer-xl memories, a cache): the queries taken as positions 0 .. i - 1; the fix
    shifts the keys by (j - i) (later written `q_pos = torch.arange(j - i, j)`). A causal decoder
    (causal=True: HF's bidirectional=False), 8 heads, 16 queries over 48 keys (32 memories):
    values = relative_attention_bias(rp_bucket), rearranged 'i j h -> () h i j', [1, 8, 16, 48]."""
    heads, i, j = 8, 16, 48
    weight = t5_weight(heads, 103)
    out = {}
    for name, shift in (("buggy", 0), ("fixed", j - i)):
        q_pos = torch.arange(i, dtype=torch.long)
        k_pos = torch.arange(j, dtype=torch.long) - shift
        rel_pos = k_pos[None, :] - q_pos[:, None]
        bucket = hf_relative_position_bucket(rel_pos, bidirectional=False)
        out[name] = torch.nn.functional.embedding(bucket, weight).permute(2, 0, 1).unsqueeze(0).numpy()
    hf = hf_position_bias(weight, i, j, bidirectional=False).numpy()
    assert np.array_equal(out["fixed"], hf), "the fixed map is HF's decoder position_bias with a cache"
    return out


def xtransformers_causal_flag():
    """lucidrains/x-transformers#10 ("bug fix for _relative_position_bucket"),
    x_transformers/x_transformers.py RelativePositionBias._relative_position_bucket: `if causal:`
    halved the buckets and kept both directions, so a causal decoder got the bidirectional map and an
    encoder the causal one; the fix tests `if not causal:` as HF's `if bidirectional:`. A causal
    decoder's map, 64 positions: the buckets (int64) as rp_bucket holds them."""
    n = 64
    rel_pos = torch.arange(n)[None, :] - torch.arange(n)[:, None]
    return {"buggy": hf_relative_position_bucket(rel_pos, bidirectional=True).numpy(),
            "fixed": hf_relative_position_bucket(rel_pos, bidirectional=False).numpy()}


def xtransformers_alibi_cache_offset():
    """lucidrains/x-transformers#103, AlibiPositionalBias.get_bias: `i_arange = torch.arange(i)`,
    `j_arange = torch.arange(j)`, bias = -|j - i|, for i queries over j keys (memories): the queries at
    0 .. i - 1; the fix shifts the keys by (j - i). 8 heads (get_slopes(8)), 16 queries over 48 keys:
    bias * slopes, [1, 8, 16, 48]."""
    heads, i, j = 8, 16, 48
    slopes = torch.Tensor(get_slopes(heads)).view(1, heads, 1, 1)
    out = {}
    for name, shift in (("buggy", 0), ("fixed", j - i)):
        i_arange = torch.arange(i)
        j_arange = torch.arange(j) - shift
        bias = -torch.abs(j_arange.view(1, 1, j) - i_arange.view(1, i, 1))
        out[name] = (bias.unsqueeze(0) * slopes).float().numpy()
    return out
