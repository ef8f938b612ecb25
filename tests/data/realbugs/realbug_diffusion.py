"""Real bugs in diffusion models' timestep embeddings and 2-D sin-cos grids, and in LoFTR's 2-D sine
encoding. Each function follows the buggy and the fixed code it cites."""
import math

import numpy as np
import torch

from realbug_bias import get_timestep_embedding


def _glide_timestep_embedding(t, dim, max_period=10000):
    """stepfun-ai/Step1X-Edit modules/layers.py TimestepEmbedder.timestep_embedding (from
    openai/glide-text2im glide_text2im/nn.py timestep_embedding), verbatim: [cos | sin] of
    exp(-ln(max_period) * i / half), diffusers' flip_sin_to_cos=True, downscale_freq_shift 0."""
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


def step1x_timestep_double_scale():
    """stepfun-ai/Step1X-Edit#91: the connector's timestep embedder took `t * 1000` where t was
    already in [0, 1000] (the DiT's caller multiplies by 1000, and so did the connector's own
    caller), so the connector saw t in [0, 1e6]; the maintainers fixed it so that 1000 is applied
    once. Timesteps t = k for k = 0..95 after the one multiplication (k / 1000 before it), 256
    channels of TimestepEmbedder.timestep_embedding."""
    t = torch.arange(96, dtype=torch.float32) / 1000.0
    return {"buggy": _glide_timestep_embedding(t * 1000.0 * 1000.0, 256).numpy(),
            "fixed": _glide_timestep_embedding(t * 1000.0, 256).numpy()}


def sglang_flux_guidance_double_scale():
    """sgl-project/sglang#22059: with guidance_embeds=True the guidance went through diffusers'
    CombinedTimestepGuidanceTextProjEmbeddings (Timesteps(256, flip_sin_to_cos=True,
    downscale_freq_shift=0), huggingface/diffusers src/diffusers/models/embeddings.py), whose
    caller (FluxTransformer2DModel.forward: `guidance = guidance.to(hidden_states.dtype) * 1000`)
    multiplies by 1000, after sglang's _build_guidance had already multiplied it by 1000 (3.5 ->
    3500 -> 3.5e6); the fix passes the guidance scale unmultiplied. Guidance g = k / 1000 for k =
    0..95 (the transformer's * 1000 makes it k)."""
    g = torch.arange(96, dtype=torch.float32) / 1000.0
    kwargs = dict(embedding_dim=256, flip_sin_to_cos=True, downscale_freq_shift=0)
    return {"buggy": get_timestep_embedding((g * 1000.0) * 1000.0, **kwargs).numpy(),
            "fixed": get_timestep_embedding(g * 1000.0, **kwargs).numpy()}


def diffsynth_flux2_feature_timestep():
    """modelscope/DiffSynth-Studio#1503 (review, applied): model_fn_flux2's feature-return path
    passed `timestep` in [0, 1000] to dit.time_guidance_embed, which expects [0, 1] and scales by
    1000 itself (diffusers' Flux2 Timesteps(256, flip_sin_to_cos=True, downscale_freq_shift=0)
    after `timestep * 1000`), where the standard path divides by 1000 first; the fix divides by
    1000. Timesteps k for k = 0..95 (k / 1000 after the division)."""
    t = torch.arange(96, dtype=torch.float32)
    kwargs = dict(embedding_dim=256, flip_sin_to_cos=True, downscale_freq_shift=0)
    return {"buggy": get_timestep_embedding(t * 1000.0, **kwargs).numpy(),
            "fixed": get_timestep_embedding((t / 1000.0) * 1000.0, **kwargs).numpy()}


def _dit_timestep_embedding(t, dim, max_period=10000):
    """facebookresearch/DiT models.py TimestepEmbedder.timestep_embedding (SiT, REPA and
    Just-a-DiT copy it): [cos | sin] of exp(-ln(max_period) * i / half)."""
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


def justadit_unit_timesteps():
    """ArchiMickey/Just-a-DiT#9 (and sihyun-yu/REPA#40, willisma/SiT#24): the flow-matching model
    passed t in [0, 1] to DiT's TimestepEmbedder, made for timestep indices in [0, 1000), so every
    angle was 1000 times too small and the embedding nearly constant; the fix scales t by 1000
    before the embedding. Times t = k / 1000 for k = 0..95, 256 channels."""
    t = torch.arange(96, dtype=torch.float32) / 1000.0
    return {"buggy": _dit_timestep_embedding(t, 256).numpy(),
            "fixed": _dit_timestep_embedding(t * 1000.0, 256).numpy()}


def _diffusers_2d_sincos(embed_dim, grid_size, base_size, interpolation_scale):
    """huggingface/diffusers src/diffusers/models/embeddings.py get_2d_sincos_pos_embed and its
    _from_grid / get_1d_ helpers (numpy form), verbatim; float32 as PatchEmbed stores it."""
    grid_h = np.arange(grid_size, dtype=np.float32) / (grid_size / base_size) / interpolation_scale
    grid_w = np.arange(grid_size, dtype=np.float32) / (grid_size / base_size) / interpolation_scale
    grid = np.meshgrid(grid_w, grid_h)
    grid = np.stack(grid, axis=0).reshape([2, 1, grid_size, grid_size])

    def one_d(dim, pos):
        omega = np.arange(dim // 2, dtype=np.float64)
        omega /= dim / 2.0
        omega = 1.0 / 10000 ** omega
        out = np.einsum("m,d->md", pos.reshape(-1), omega)
        return np.concatenate([np.sin(out), np.cos(out)], axis=1)

    emb = np.concatenate([one_d(embed_dim // 2, grid[0]), one_d(embed_dim // 2, grid[1])], axis=1)
    return torch.from_numpy(emb).float().numpy()


def diffusers_pixart256_interpolation_scale():
    """huggingface/diffusers#6783, fixed by #6789, src/diffusers/models/transformer_2d.py
    Transformer2DModel._init_patched_inputs: `interpolation_scale = self.config.sample_size // 64`
    then `max(interpolation_scale, 1)`, so PixArt-XL-2-256x256 (sample_size 32) got 1 where its
    training used 0.5 (PixArt-alpha scripts/inference.py: {256: 0.5, 512: 1, 1024: 2}); the fix
    reads interpolation_scale from the config. PatchEmbed(height 32, patch 2): a 16 x 16 grid,
    base_size 16; embed_dim 576 (PixArt-XL-2 has 1152; the coordinates do not depend on it,
    and the file stays small)."""
    return {"buggy": _diffusers_2d_sincos(576, 16, 16, 1.0),
            "fixed": _diffusers_2d_sincos(576, 16, 16, 0.5)}


def _loftr_pe(d_model, max_shape, temp_bug_fix):
    """zju3dv/LoFTR src/loftr/utils/position_encoding.py PositionEncodingSine.__init__, verbatim:
    [d, H, W], channels 4k..4k+3 = sin(x w_k), cos(x w_k), sin(y w_k), cos(y w_k), x and y from 1
    (cumsum of ones). temp_bug_fix=False keeps the first release's div_term, whose
    `-math.log(10000.0) / d_model//2` floors to -1: w_k = exp(-2k)."""
    pe = torch.zeros((d_model, *max_shape))
    y_position = torch.ones(max_shape).cumsum(0).float().unsqueeze(0)
    x_position = torch.ones(max_shape).cumsum(1).float().unsqueeze(0)
    if temp_bug_fix:
        div_term = torch.exp(torch.arange(0, d_model // 2, 2).float() * (-math.log(10000.0) / (d_model // 2)))
    else:
        div_term = torch.exp(torch.arange(0, d_model // 2, 2).float() * (-math.log(10000.0) / d_model // 2))
    div_term = div_term[:, None, None]
    pe[0::4, :, :] = torch.sin(x_position * div_term)
    pe[1::4, :, :] = torch.cos(x_position * div_term)
    pe[2::4, :, :] = torch.sin(y_position * div_term)
    pe[3::4, :, :] = torch.cos(y_position * div_term)
    return pe


def loftr_div_term():
    """zju3dv/LoFTR#41: div_term = exp(arange(0, d/2, 2) * (-log(10000) / d_model//2)), the floor
    division taken last, so the exponent's factor was -1 (w_k = e^(-2k)) instead of
    -log(10000)/(d/2); fixed by the parentheses, the old form kept as temp_bug_fix=False for the
    published weights. d_model 256, a 16 x 16 map (the pe buffer's first rows and columns)."""
    return {"buggy": _loftr_pe(256, (16, 16), temp_bug_fix=False).numpy(),
            "fixed": _loftr_pe(256, (16, 16), temp_bug_fix=True).numpy()}
