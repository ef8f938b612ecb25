#!/usr/bin/python3
"""Writes tests/data/float32/torch_sinusoids.json with torch itself (run by hand, not by the tests).

The float32-precision lesson states a bound on the error of a sinusoid whose angles are formed in
float32. posenc's float32 table rounds the exact w_i once; the code the lesson shows computes w_i
otherwise, as torch.exp of a float32 product, in torch's default dtype. This records that code's
own output, so tst_lessonfollowsmodel compares the lesson's numbers against torch and not against a
re-derivation:
- whisper: HF transformers, models/whisper/modeling_whisper.py, sinusoids(length, channels,
  max_timescale=10000), line for line, at Whisper large-v3's length 1500 and channels 1280;
- tutorial: PyTorch's transformer tutorial's PositionalEncoding (the Annotated Transformer's):
  div_term = torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d)), pe[:, 0::2] =
  sin(position * div_term), pe[:, 1::2] = cos(...), at d 512 and max_len 5000.
For each: the frequencies as torch holds them (float32, written exactly as decimal of the float32)
and the rows where torch's error against float64 is largest and the last row; also that largest
error over the whole table (float64 sin of the exact angle, computed here in numpy).
Usage: /usr/bin/python3 tests/data/make_float32_sinusoid_fixture.py   (python3-torch from Debian)
"""
import json
import math
import os

import numpy as np
import torch

here = os.path.dirname(os.path.abspath(__file__))


def whisper_sinusoids(length, channels, max_timescale=10000):
    # HF transformers, models/whisper/modeling_whisper.py, sinusoids(), line for line.
    log_timescale_increment = math.log(max_timescale) / (channels // 2 - 1)
    inv_timescales = torch.exp(-log_timescale_increment * torch.arange(channels // 2))
    scaled_time = torch.arange(length).view(-1, 1) * inv_timescales.view(1, -1)
    return torch.cat([scaled_time.sin(), scaled_time.cos()], dim=1), inv_timescales


def tutorial_pe(max_len, d_model):
    # PyTorch's tutorial PositionalEncoding (as the Annotated Transformer writes it).
    pe = torch.zeros(max_len, d_model)
    position = torch.arange(0, max_len).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2) * -(math.log(10000.0) / d_model))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe, div_term


def exact(kind, length, channels):
    p = np.arange(length, dtype=np.float64)[:, None]
    if kind == "whisper":
        w = np.exp(-math.log(10000) / (channels // 2 - 1) * np.arange(channels // 2))
        return np.concatenate([np.sin(p * w), np.cos(p * w)], axis=1)
    w = np.exp(np.arange(0, channels, 2) * -(math.log(10000.0) / channels))
    out = np.empty((length, channels))
    out[:, 0::2] = np.sin(p * w)
    out[:, 1::2] = np.cos(p * w)
    return out


def record(kind, length, channels):
    table, w = whisper_sinusoids(length, channels) if kind == "whisper" else tutorial_pe(length, channels)
    assert table.dtype == torch.float32 and w.dtype == torch.float32
    values = table.double().numpy()
    error = np.abs(values - exact(kind, length, channels))
    worst = int(np.unravel_index(error.argmax(), error.shape)[0])
    rows = sorted({worst, length - 1})
    return {
        "code": kind,
        "length": length,
        "channels": channels,
        "frequencies": [float(x) for x in w.double().numpy()],
        "largest_error": float(error.max()),
        "largest_error_row": worst,
        "rows": {str(r): [float(x) for x in values[r]] for r in rows},
    }


def main():
    out = {
        "torch": torch.__version__,
        "tables": [record("whisper", 1500, 1280), record("tutorial", 5000, 512)],
    }
    path = os.path.join(here, "float32", "torch_sinusoids.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0)
        f.write("\n")
    for t in out["tables"]:
        print(t["code"], t["largest_error"], "row", t["largest_error_row"])


if __name__ == "__main__":
    main()
