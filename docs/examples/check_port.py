"""Checking a numpy port of Llama 3.1's RoPE with posenc, in pytest: `pytest check_port.py`.

The port follows HF transformers (src/transformers/modeling_rope_utils.py,
`_compute_default_rope_parameters` and `_compute_llama3_parameters`; models/llama/modeling_llama.py,
`LlamaRotaryEmbedding.forward` and `apply_rotary_pos_emb`), in float32 as torch computes it. posenc
compares every row of its tables with the reference the model's config.json computes
(Meta-Llama-3.1-8B.json, beside this file) and names the mistake where there is one.
"""

import json
import math
import os

import numpy as np
import pytest

import posenc
import posenc.testing

CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Meta-Llama-3.1-8B.json")


def inv_freq(config):
    """Llama 3's frequencies: the default ones, the slow pairs divided by `factor`, a band between blended."""
    head_dim = config.get("head_dim") or config["hidden_size"] // config["num_attention_heads"]
    base = config["rope_theta"]
    freqs = 1.0 / (base ** (np.arange(0, head_dim, 2, dtype=np.int64).astype(np.float32) / head_dim))
    scaling = config["rope_scaling"]
    factor = scaling["factor"]
    low, high = scaling["low_freq_factor"], scaling["high_freq_factor"]
    old_context = scaling["original_max_position_embeddings"]
    low_freq_wavelen, high_freq_wavelen = old_context / low, old_context / high
    wavelen = 2 * math.pi / freqs
    llama = np.where(wavelen > low_freq_wavelen, freqs / factor, freqs)
    smooth = (old_context / wavelen - low) / (high - low)
    smoothed = (1 - smooth) * llama / factor + smooth * llama
    medium = ~(wavelen < high_freq_wavelen) & ~(wavelen > low_freq_wavelen)
    return np.where(medium, smoothed, llama).astype(np.float32)


def cos_sin(config, positions):
    """LlamaRotaryEmbedding.forward: cat(freqs, freqs), the angles in float32."""
    freqs = np.outer(positions.astype(np.float32), inv_freq(config)).astype(np.float32)
    emb = np.concatenate([freqs, freqs], axis=-1)
    return np.cos(emb), np.sin(emb)


def rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def apply_rotary_pos_emb(q, cos, sin):
    return q * cos + rotate_half(q) * sin


@pytest.fixture(scope="module")
def config():
    with open(CONFIG) as f:
        return json.load(f)


def test_cos_and_sin_tables_are_llama_3_1s(config):
    cos, sin = cos_sin(config, np.arange(4096))
    posenc.testing.assert_correct(cos, expect_config=CONFIG)
    posenc.testing.assert_correct(sin, expect_config=CONFIG)


def test_positions_from_one_are_named(config):
    # A common slip: positions counted from 1. posenc names it, and the assertion says so.
    cos, _ = cos_sin(config, np.arange(1, 4097))
    verdict = posenc.check(cos, expect_config=CONFIG)
    assert verdict.verdict == "mistake"
    with pytest.raises(AssertionError, match="mistake"):
        posenc.testing.assert_correct(cos, expect_config=CONFIG)


def test_without_the_llama3_scaling_is_a_mistake(config):
    plain = dict(config, rope_scaling=None)
    head_dim = config["hidden_size"] // config["num_attention_heads"]
    freqs = 1.0 / (config["rope_theta"] ** (np.arange(0, head_dim, 2).astype(np.float32) / head_dim))
    emb = np.outer(np.arange(4096, dtype=np.float32), freqs).astype(np.float32)
    cos = np.cos(np.concatenate([emb, emb], axis=-1))
    assert plain["rope_scaling"] is None
    assert not posenc.check(cos, expect_config=CONFIG).ok


def test_the_rotation_of_a_query(config):
    rng = np.random.default_rng(0)
    q = rng.normal(size=(64, 128)).astype(np.float32)
    cos, sin = cos_sin(config, np.arange(64))
    verdict = posenc.check_apply(q, apply_rotary_pos_emb(q, cos, sin), config=CONFIG)
    assert verdict.ok, verdict.diagnosis
