#!/usr/bin/env python3
"""The reference of docs/ARCHITECTURE.md, Performance: the heatmap that `posenc export heatmap` draws,
made the common way with numpy and matplotlib's pcolormesh, as a 1200 x 800 PNG.

    python3 tests/bench/matplotlib_heatmap.py OUT.png [--d-model 512] [--max-len 1024]

Run by hand (tests/bench/export_vs_matplotlib.sh times it); not a build dependency.
"""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def positional_encoding(max_len: int, d_model: int, base: float = 10000.0) -> np.ndarray:
    """The paper's table, interleaved: even columns sin, odd columns cos (PyTorch's div_term)."""
    position = np.arange(max_len, dtype=np.float64)[:, None]
    div_term = np.exp(np.arange(0, d_model, 2, dtype=np.float64) * (-np.log(base) / d_model))
    pe = np.zeros((max_len, d_model), dtype=np.float32)
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term[: d_model // 2])
    return pe


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("output")
    parser.add_argument("--d-model", type=int, default=512)
    parser.add_argument("--max-len", type=int, default=1024)
    args = parser.parse_args()

    pe = positional_encoding(args.max_len, args.d_model)
    fig, ax = plt.subplots(figsize=(12, 8), dpi=100)  # 1200 x 800 pixels
    mesh = ax.pcolormesh(pe, cmap="RdBu_r", vmin=-1.0, vmax=1.0, shading="flat")
    ax.invert_yaxis()  # position 0 at the top, as posenc draws it
    ax.set_xlabel("column j")
    ax.set_ylabel("position p")
    ax.set_title(f"PE  ·  {args.max_len:,} × {args.d_model:,}")
    fig.colorbar(mesh, ax=ax, label="PE")
    fig.savefig(args.output, dpi=100)


if __name__ == "__main__":
    main()
