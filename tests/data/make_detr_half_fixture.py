#!/usr/bin/python3
"""Writes tests/data/detrhalf/: Deformable DETR's sine position map of a padded batch computed in
float16, as a model run in half precision returns it (run by hand, not by the tests; needs torch).

The forward is transformers' DeformableDetrSinePositionEmbedding.forward
(src/transformers/models/deformable_detr/modeling_deformable_detr.py @
004edfe2dc0fdbc94068d7977605aa6798de787e), line for line, with normalize=True (build_position_encoding:
DeformableDetrSinePositionEmbedding(d_model // 2, normalize=True)):
    y_embed = pixel_mask.cumsum(1, dtype=pixel_values.dtype)
    x_embed = pixel_mask.cumsum(2, dtype=pixel_values.dtype)
    y_embed = (y_embed - 0.5) / (y_embed[:, -1:, :] + eps) * scale     # eps 1e-6, scale 2 pi
    x_embed = (x_embed - 0.5) / (x_embed[:, :, -1:] + eps) * scale
    dim_t = temperature ** (2 * torch.div(arange(embedding_dim), 2, rounding_mode="floor") / embedding_dim)
    pos = cat((stack((pos_y[..., 0::2].sin(), pos_y[..., 1::2].cos())).flatten(3), <the same of x>)).permute(0, 3, 1, 2)
with pixel_values in float16. In float16, eps is 1.0133e-06 and a column (row) the mask pads
whole has y_embed[:, -1:] = 0: (0 - 0.5) / 1.0133e-06 = -4.9e5 overflows float16 to -inf, and the
sin and cos of -inf / dim_t are NaN. So the faithful output holds NaN in every channel of y in the
padded columns and of x in the padded rows, and finite values elsewhere.

torch 1.13's CPU kernels have no float16 cumsum or sin and cos: the cumsum of the 0/1 mask is taken in
int64 and cast to float16 (exact: the counts are small integers), and sin and cos are taken in float32
and rounded to float16 once, as CUDA's float16 sin and cos compute them. Every other step (the
subtraction, the division by the last + eps, the scale, dim_t's power and the division by it) is
torch's own float16 arithmetic.

Writes detrhalf/deformable_f16_padded.npy: [2, 32, 12, 16] float16 (embedding_dim 16), image 0
unpadded, image 1 valid on its first 7 rows and 5 columns (NestedTensor pads the bottom and the
right).
Usage: /usr/bin/python3 tests/data/make_detr_half_fixture.py
"""
import math
import os

import numpy as np
import torch

here = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(here, "detrhalf")


def cumsum(mask, dim, dtype):
    # pixel_mask.cumsum(dim, dtype=dtype): exact in float16 for counts below 2048.
    return mask.cumsum(dim).to(dtype)


def sin(x):
    return x.float().sin().to(x.dtype)


def cos(x):
    return x.float().cos().to(x.dtype)


def deformable_detr_sine(pixel_values, pixel_mask, embedding_dim, temperature=10000, normalize=True, scale=None):
    if scale is None:
        scale = 2 * math.pi
    y_embed = cumsum(pixel_mask, 1, pixel_values.dtype)
    x_embed = cumsum(pixel_mask, 2, pixel_values.dtype)
    if normalize:
        eps = 1e-6
        y_embed = (y_embed - 0.5) / (y_embed[:, -1:, :] + eps) * scale
        x_embed = (x_embed - 0.5) / (x_embed[:, :, -1:] + eps) * scale
    dim_t = torch.arange(embedding_dim, dtype=pixel_values.dtype, device=pixel_values.device)
    dim_t = temperature ** (2 * torch.div(dim_t, 2, rounding_mode="floor") / embedding_dim)
    pos_x = x_embed[:, :, :, None] / dim_t
    pos_y = y_embed[:, :, :, None] / dim_t
    pos_x = torch.stack((sin(pos_x[:, :, :, 0::2]), cos(pos_x[:, :, :, 1::2])), dim=4).flatten(3)
    pos_y = torch.stack((sin(pos_y[:, :, :, 0::2]), cos(pos_y[:, :, :, 1::2])), dim=4).flatten(3)
    return torch.cat((pos_y, pos_x), dim=3).permute(0, 3, 1, 2)


def main():
    os.makedirs(OUT, exist_ok=True)
    batch, height, width, embedding_dim = 2, 12, 16, 16
    mask = torch.zeros(batch, height, width, dtype=torch.long)
    mask[0] = 1
    mask[1, :7, :5] = 1
    pixel_values = torch.zeros(batch, 3, height, width, dtype=torch.float16)
    pos = deformable_detr_sine(pixel_values, mask, embedding_dim)
    assert pos.dtype == torch.float16 and tuple(pos.shape) == (batch, 2 * embedding_dim, height, width)
    nan = torch.isnan(pos)
    # NaN exactly in the padded cells whose other axis's cumsum is 0, nowhere in image 0.
    assert not nan[0].any() and nan[1, :embedding_dim, :, 5:].all() and nan[1, embedding_dim:, 7:, :].all()
    assert int(nan.sum()) == embedding_dim * (height * (width - 5) + (height - 7) * width)
    np.save(os.path.join(OUT, "deformable_f16_padded.npy"), np.ascontiguousarray(pos.numpy()))
    print("NaN cells:", int(nan.sum()), "of", pos.numel())


if __name__ == "__main__":
    main()
