#!/usr/bin/python3
"""Regenerates the real-bug corpus of tests/data/realbugs (issue 56, item 6): for each bug of a public
issue tracker, the tensor the buggy code produced (<slug>.buggy.npy) and the one the fixed code
produces (<slug>.fixed.npy), plus <slug>.input.npy for the --apply bugs (the rows before RoPE) and
<slug>.reference.npy for the bugs whose declared reference is a learned weight (--position-table), and
manifest.json, which says for each bug its link, the tensor's shape and axes, the declared reference
(posenc flags and/or a config), the expected verdict of the fixed file and the mistake the buggy
one holds. Each generator (realbug_rope.py, realbug_apply.py, realbug_bias.py) follows the buggy and
the fixed code line by line and cites it; CORPUS.md quotes the fix lines.

Usage: /usr/bin/python3 tests/data/realbugs/make_realbug_fixtures.py   (numpy and python3-torch)
The output is deterministic (fixed seeds); the files are committed."""
import json
import math
import os
import sys

sys.dont_write_bytecode = True

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from realbug_bias import get_timestep_embedding  # noqa: E402
from realbug_corpus import write_corpus  # noqa: E402
from realbug_meta_diffusion import DIFFUSION_BUGS  # noqa: E402
from realbug_meta_other import APPLY_BUGS, BIAS_BUGS  # noqa: E402
from realbug_meta_cache import CACHE_BUGS  # noqa: E402
from realbug_meta_heldout import HELDOUT_BUGS  # noqa: E402
from realbug_meta_heldout2 import HELDOUT2_BUGS  # noqa: E402
from realbug_meta_rope import ROPE_BUGS  # noqa: E402

BUGS = ROPE_BUGS + APPLY_BUGS + BIAS_BUGS + CACHE_BUGS + DIFFUSION_BUGS + HELDOUT_BUGS + HELDOUT2_BUGS


def hf_t5_bucket(relative_position, num_buckets=32, max_distance=128):
    """transformers models/t5/modeling_t5.py T5Attention._relative_position_bucket, bidirectional."""
    relative_buckets = 0
    num_buckets //= 2
    relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
    relative_position = torch.abs(relative_position)
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1))
    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets


def self_checks(outputs):
    """Checks some fixed outputs against the reference code written independently here."""
    for slug in ("candle-t5-bucket-unclamped", "candle-t5-exact-buckets"):
        n = outputs[slug]["fixed"].shape[0]
        memory = torch.arange(n)[None, :] - torch.arange(n)[:, None]
        assert np.array_equal(outputs[slug]["fixed"], hf_t5_bucket(memory).numpy()), slug
    wan = get_timestep_embedding(torch.arange(96, dtype=torch.float32), 256, flip_sin_to_cos=True, downscale_freq_shift=0)
    assert np.array_equal(outputs["flashinfer-wan-timestep-order"]["fixed"], wan.numpy())
    for slug, out in outputs.items():
        assert out["buggy"].shape == out["fixed"].shape or slug == "none", slug
        assert not np.array_equal(out["buggy"], out["fixed"]), f"{slug}: the buggy and fixed tensors are equal"


def save(slug, name, array):
    array = np.ascontiguousarray(array)
    if array.dtype.kind == "f":
        array = array.astype(np.float32)
    path = os.path.join(HERE, f"{slug}.{name}.npy")
    np.save(path, array)
    return os.path.relpath(path, os.path.join(HERE, "..", "..", ".."))


def manifest_entry(bug, out, files):
    flags = bug["flags"].replace("{input}", files.get("input", "")).replace("{fixed}", files.get("fixed", ""))
    flags = flags.replace("{reference}", files.get("reference", ""))
    note = None
    if " (" in flags:
        flags, note = flags.split(" (", 1)
        note = note.rstrip(")")
    declared, found = bug["mistake"][1], bug["mistake"][2]
    return {
        "slug": bug["slug"], "kind": bug["kind"], "round": bug.get("round", "corpus"), "seen": bug.get("seen", False), "repository": bug["repository"],
        "links": bug["links"],
        "code": bug["where"], "what_was_wrong": bug["wrong"], "fix_lines": bug["fix"],
        "tensor": {"what": bug["what"], "shape": list(out["fixed"].shape), "dtype": str(out["fixed"].dtype),
                   "axes": bug["axes"]},
        "files": files,
        "reference": {"posenc_flags": flags, "flags_note": note, "config": bug.get("config"), "layer_type": bug.get("layer_type"),
                      "params": bug.get("params")},
        "expected": {"fixed": bug["fixed"],
                     "buggy": {"never": "correct", "mistake": bug["mistake"][0], "declared": declared, "found": found}},
    }


def main():
    outputs, entries = {}, []
    for bug in BUGS:
        out = bug["fn"]()
        outputs[bug["slug"]] = out
        files = {name: save(bug["slug"], name, out[name]) for name in ("input", "reference", "buggy", "fixed")
                 if name in out}
        entries.append(manifest_entry(bug, out, files))
    self_checks(outputs)
    manifest = {"format": "posenc-realbugs", "version": 1,
                "generator": "tests/data/realbugs/make_realbug_fixtures.py", "bugs": entries}
    with open(os.path.join(HERE, "manifest.json"), "w", encoding="utf-8") as handle:
        json.dump(manifest, handle, indent=1, ensure_ascii=False)
        handle.write("\n")
    write_corpus(entries, HERE)
    print(f"{len(entries)} bugs written to {HERE}")


if __name__ == "__main__":
    main()
