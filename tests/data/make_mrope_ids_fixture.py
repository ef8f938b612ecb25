#!/usr/bin/python3
"""Writes tests/data/mropeids/*.npy with torch itself (run by hand, not by the tests).

Qwen2-VL's M-RoPE cos and sin before the merge, [3, B, L, D], for a prompt of 12 text tokens, one
image of 6 x 8 merged patches and 10 text tokens, and the [3, B, L] position ids they were made at.
The lines are copied from huggingface/transformers (main),
src/transformers/models/qwen2_vl/modeling_qwen2_vl.py:
- Qwen2VLModel.get_rope_index: text at arange(text_len) + st_idx on the three axes, the image at
  stack([t_index, h_index, w_index]) + text_len + st_idx, st_idx = the largest id so far + 1;
- Qwen2VLRotaryEmbedding.forward: freqs = (inv_freq[None, None, :, None].expand(3, B, -1, 1) @
  position_ids[:, :, None, :].float()).transpose(2, 3), emb = cat((freqs, freqs)), cos = emb.cos();
  inv_freq = 1 / (rope_theta ** (arange(0, dim, 2, dtype=int64).float() / dim)) (modeling_rope_utils.py,
  _compute_default_rope_parameters), Qwen2-VL-7B's rope_theta 1e6 and head_dim 128.
The buggy cache is linkedin/Liger-Kernel#276's class ("fix qwen2-vl: create correct rope position_ids
when position_ids is None"): without get_rope_index every axis takes arange(L), the image span too.
Usage: /usr/bin/python3 tests/data/make_mrope_ids_fixture.py   (python3-torch and numpy from Debian)
"""
import os

import numpy as np
import torch

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mropeids")
DIM, THETA = 128, 1000000.0


def rope_index(before, grid_h, grid_w, after):
    """get_rope_index's ids of one prompt: text, an image of one frame, text; [3, 1, L]."""
    llm_pos_ids_list = []
    llm_pos_ids_list.append(torch.arange(before).view(1, -1).expand(3, -1))
    t_index = torch.arange(1).view(-1, 1).expand(-1, grid_h * grid_w).flatten()
    h_index = torch.arange(grid_h).view(1, -1, 1).expand(1, -1, grid_w).flatten()
    w_index = torch.arange(grid_w).view(1, 1, -1).expand(1, grid_h, -1).flatten()
    llm_pos_ids_list.append(torch.stack([t_index, h_index, w_index]) + before)
    st_idx = llm_pos_ids_list[-1].max() + 1
    llm_pos_ids_list.append(torch.arange(after).view(1, -1).expand(3, -1) + st_idx)
    return torch.cat(llm_pos_ids_list, dim=1).reshape(3, 1, -1)


def forward(position_ids):
    inv_freq = 1.0 / (THETA ** (torch.arange(0, DIM, 2, dtype=torch.int64).float() / DIM))
    inv_freq_expanded = inv_freq[None, None, :, None].float().expand(3, position_ids.shape[1], -1, 1)
    position_ids_expanded = position_ids[:, :, None, :].float()
    freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(2, 3)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


def main():
    os.makedirs(HERE, exist_ok=True)
    ids = rope_index(12, 6, 8, 10)
    cos, sin = forward(ids)
    np.save(os.path.join(HERE, "qwen2vl-ids.npy"), ids.numpy().astype(np.int64))
    np.save(os.path.join(HERE, "qwen2vl-cos.npy"), cos.numpy())
    np.save(os.path.join(HERE, "qwen2vl-sin.npy"), sin.numpy())
    flat = torch.arange(ids.shape[-1]).view(1, 1, -1).expand(3, 1, -1)
    np.save(os.path.join(HERE, "qwen2vl-cos-1d.npy"), forward(flat)[0].numpy())


if __name__ == "__main__":
    main()
