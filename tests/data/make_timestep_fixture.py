#!/usr/bin/python3
"""Writes tests/data/timestep/torch_timesteps.json with torch itself (run by hand, not by the tests).

posenc's presets of diffusion models' timestep embedders (resources/presets: sd-1-5-timestep,
sdxl-timestep, flux-1-dev-timestep, wan-2-1-timestep) must give what the models' code computes. This
records that code's own output, so tst_clitimestep compares each preset's table against torch and not
against a re-derivation. The functions are copied line for line (no diffusers install is needed):
- get_timestep_embedding: huggingface/diffusers src/diffusers/models/embeddings.py @
  0002117e9fa1351a3c0ee988d9c13e683cfb273b, which Timesteps(num_channels, flip_sin_to_cos,
  downscale_freq_shift, scale).forward calls. Stable Diffusion 1.5's and SDXL's UNet2DConditionModel
  build Timesteps(block_out_channels[0], flip_sin_to_cos, freq_shift) in _set_time_proj
  (src/diffusers/models/unets/unet_2d_condition.py), their configs giving block_out_channels[0] 320,
  flip_sin_to_cos true, freq_shift 0 (tests/data/configs/diffusers); Wan 2.1's
  WanTimeTextImageEmbedding builds Timesteps(num_channels=freq_dim, flip_sin_to_cos=True,
  downscale_freq_shift=0) (src/diffusers/models/transformers/transformer_wan.py), freq_dim 256. The
  timesteps are the schedulers' 0 .. 999 (num_train_timesteps 1000).
- timestep_embedding(t, dim, max_period=10000, time_factor=1000.0): black-forest-labs/flux
  src/flux/modules/layers.py (FLUX.1's Flux.forward: self.time_in(timestep_embedding(timesteps, 256))),
  at t = k / 1000 in float32, k = 0 .. 999, which time_factor turns back to k; diffusers'
  FluxTransformer2DModel.forward multiplies its timestep by 1000 before Timesteps(256,
  flip_sin_to_cos=True, downscale_freq_shift=0).
For each: the frequencies as torch holds them (float32, written exactly as decimals of the float32),
and the rows at a few timesteps, the first and the last among them.
Usage: /usr/bin/python3 tests/data/make_timestep_fixture.py   (python3-torch from Debian)
"""
import json
import math
import os

import torch

here = os.path.dirname(os.path.abspath(__file__))

ROWS = [0, 1, 2, 3, 500, 997, 998, 999]


def get_timestep_embedding(timesteps, embedding_dim, flip_sin_to_cos=False, downscale_freq_shift=1, scale=1,
                           max_period=10000):
    # huggingface/diffusers src/diffusers/models/embeddings.py, get_timestep_embedding, line for line.
    assert len(timesteps.shape) == 1, "Timesteps should be a 1d-array"

    half_dim = embedding_dim // 2
    exponent = -math.log(max_period) * torch.arange(start=0, end=half_dim, dtype=torch.float32, device=timesteps.device)
    exponent = exponent / (half_dim - downscale_freq_shift)

    emb = torch.exp(exponent)
    emb = timesteps[:, None].float() * emb[None, :]

    # scale embeddings
    emb = scale * emb

    # concat sine and cosine embeddings
    emb = torch.cat([torch.sin(emb), torch.cos(emb)], dim=-1)

    # flip sine and cosine embeddings
    if flip_sin_to_cos:
        emb = torch.cat([emb[:, half_dim:], emb[:, :half_dim]], dim=-1)

    # zero pad
    if embedding_dim % 2 == 1:
        emb = torch.nn.functional.pad(emb, (0, 1, 0, 0))
    return emb, torch.exp(exponent)


def timestep_embedding(t, dim, max_period=10000, time_factor: float = 1000.0):
    # black-forest-labs/flux src/flux/modules/layers.py, timestep_embedding, line for line.
    t = time_factor * t
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half).to(
        t.device
    )

    args = t[:, None].float() * freqs[None]
    embedding = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
    if dim % 2:
        embedding = torch.cat([embedding, torch.zeros_like(embedding[:, :1])], dim=-1)
    if torch.is_floating_point(t):
        embedding = embedding.to(t)
    return embedding, freqs


def record(preset, code, table, freqs):
    assert table.dtype == torch.float32 and freqs.dtype == torch.float32
    values = table.double().numpy()
    return {
        "preset": preset,
        "code": code,
        "length": int(values.shape[0]),
        "channels": int(values.shape[1]),
        "frequencies": [float(x) for x in freqs.double().numpy()],
        "rows": {str(r): [float(x) for x in values[r]] for r in ROWS},
    }


def main():
    steps = torch.arange(1000)
    unet = "diffusers get_timestep_embedding(t, 320, flip_sin_to_cos=True, downscale_freq_shift=0), t = 0..999"
    wan = "diffusers get_timestep_embedding(t, 256, flip_sin_to_cos=True, downscale_freq_shift=0), t = 0..999"
    flux = "black-forest-labs/flux timestep_embedding(k / 1000, 256, time_factor=1000.0), k = 0..999"
    out = {
        "torch": torch.__version__,
        "tables": [
            record("sd-1-5-timestep", unet, *get_timestep_embedding(steps, 320, True, 0)),
            record("sdxl-timestep", unet, *get_timestep_embedding(steps, 320, True, 0)),
            record("wan-2-1-timestep", wan, *get_timestep_embedding(steps, 256, True, 0)),
            record("flux-1-dev-timestep", flux,
                   *timestep_embedding(torch.arange(1000, dtype=torch.float32) / 1000, 256)),
        ],
    }
    path = os.path.join(here, "timestep", "torch_timesteps.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0)
        f.write("\n")
    for t in out["tables"]:
        print(t["preset"], t["length"], t["channels"])


if __name__ == "__main__":
    main()
