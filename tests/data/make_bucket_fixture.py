#!/usr/bin/python3
"""Writes tests/data/buckets/torch_buckets.csv with torch itself (run by hand, not by the tests).

Each row holds the bucket the reference code gives one relative position, computed by torch
(CPU, float32 as the models run it), so tst_buckettables can compare the product against torch's
own output and not against a re-derivation of it:
- T5: HF transformers' T5Attention._relative_position_bucket (modeling_t5.py), relative = key -
  query, for 32/128 (T5, both directions), 16/64 and 64/1000;
- DeBERTa: HF transformers' make_log_bucket_position (modeling_deberta_v2.py), relative =
  query - key, for 256/512 (DeBERTa-v3) and 128/256.
The positions: every |relative| up to 300, the distances below 65536 whose float64 logarithm
lands within 1e-4 of a rounding boundary (where float32 could part from it; T5's below its
cap), and +-65317.
Usage: /usr/bin/python3 tests/data/make_bucket_fixture.py   (python3-torch from Debian)
"""
import math
import os

import torch

here = os.path.dirname(os.path.abspath(__file__))


def t5_bucket(relative_position, bidirectional, num_buckets, max_distance):
    # HF transformers, T5Attention._relative_position_bucket, line for line.
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


def deberta_bucket(relative_pos, bucket_size, max_position):
    # HF transformers, modeling_deberta_v2.make_log_bucket_position, line for line.
    sign = torch.sign(relative_pos)
    mid = bucket_size // 2
    abs_pos = torch.where(
        (relative_pos < mid) & (relative_pos > -mid),
        torch.tensor(mid - 1).type_as(relative_pos),
        torch.abs(relative_pos),
    )
    log_pos = (
        torch.ceil(torch.log(abs_pos / mid) / torch.log(torch.tensor((max_position - 1) / mid)) * (mid - 1)) + mid
    )
    bucket_pos = torch.where(abs_pos <= mid, relative_pos.type_as(log_pos), log_pos * sign)
    return bucket_pos


def near_boundary(value):
    return abs(value - round(value)) < 1e-4


def t5_positions(buckets, max_distance, bidirectional):
    n = buckets // 2 if bidirectional else buckets
    max_exact = n // 2
    chosen = set(range(-300, 301)) | {-65317, 65317}
    for d in range(max_exact, 65536):
        scaled = math.log(d / max_exact) / math.log(max_distance / max_exact) * (n - max_exact)
        if scaled > n - max_exact:
            break  # capped at n - 1 from here on
        if near_boundary(scaled):
            chosen |= {d, -d}
    return sorted(chosen)


def deberta_positions(buckets, max_position):
    mid = buckets // 2
    chosen = set(range(-300, 301)) | {-65317, 65317}
    for d in range(mid + 1, 65536):
        if near_boundary(math.log(d / mid) / math.log((max_position - 1) / mid) * (mid - 1)):
            chosen |= {d, -d}
    return sorted(chosen)


rows = []
for buckets, max_distance, bidirectional in [(32, 128, True), (32, 128, False), (16, 64, True), (64, 1000, False)]:
    positions = t5_positions(buckets, max_distance, bidirectional)
    got = t5_bucket(torch.tensor(positions, dtype=torch.long), bidirectional, buckets, max_distance)
    rows += [("t5", buckets, max_distance, int(bidirectional), p, int(b)) for p, b in zip(positions, got.tolist())]
for buckets, max_position in [(256, 512), (128, 256)]:
    positions = deberta_positions(buckets, max_position)
    got = deberta_bucket(torch.tensor(positions, dtype=torch.long), buckets, max_position)
    rows += [("deberta", buckets, max_position, 1, p, int(b)) for p, b in zip(positions, got.tolist())]

with open(os.path.join(here, "buckets", "torch_buckets.csv"), "w") as f:
    f.write("# family,buckets,max_distance_or_position,bidirectional,relative,bucket (torch %s)\n" % torch.__version__)
    for row in rows:
        f.write(",".join(str(v) for v in row) + "\n")
print(len(rows), "rows")
