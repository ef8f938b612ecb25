#!/usr/bin/python3
"""Writes tests/data/sandwich/nemo_sandwich.csv with torch itself (run by hand, not by the tests).

Each line holds one row of the bias NVIDIA NeMo's SandwichRelativePositionEmbedding.forward returns
(nemo/collections/nlp/modules/common/megatron/position_embedding/
sandwich_relative_position_embedding.py, with build_relative_position from
alibi_relative_position_embedding.py in the same folder), computed by torch 1.13 on CPU in float32,
so that tst_sandwichbias compares posenc's table with the reference's own output and not with a
re-derivation of it. The torch operations below are NeMo's, one for one and in its order, with its
dtypes (an int64 distance table, torch.arange with a float end, hence float32 frequencies); only
the device argument torch.cuda.current_device() is the CPU here.
Line format: heads,head_dim,max_len,bidirectional,head,query,value_0,...,value_{max_len-1}, the
values printed with 9 significant digits (a float32 exactly).
Usage: /usr/bin/python3 tests/data/make_sandwich_fixture.py   (python3-torch from Debian)
"""
import os

import torch

here = os.path.dirname(os.path.abspath(__file__))


def relative_positions(length):
    # build_relative_position(length, full=True): |memory - relative| of two negated aranges.
    row = torch.arange(1 - length, 1)[None, :].mul(-1)
    column = torch.arange(1 - length, 1)[:, None].mul(-1)
    return torch.abs(column - row)


def sandwich_bias(bidirectional, heads, head_dim, query_length, key_length, cached_length=512):
    # SandwichRelativePositionEmbedding(bidirectional, heads, _, hidden_size=head_dim,
    # max_seq_len=cached_length).forward(query_length, key_length)
    longest = max(query_length, key_length)
    positions = relative_positions(longest if longest > cached_length else cached_length)
    positions = positions[-query_length:, -key_length:]
    if not bidirectional:
        positions = torch.tril(positions)
    inv_freq = 1.0 / (10000 ** (2 * torch.arange(1, head_dim / 2 + 1, device='cpu') / head_dim))
    summed = torch.sum((positions[:, :, None].repeat(1, 1, len(inv_freq)) * inv_freq).cos(), axis=2)
    per_head = summed.repeat(heads, 1, 1)
    scales = torch.arange(1, heads + 1, 1, device='cpu')[:, None, None]
    return ((per_head - head_dim / 2) / (scales * 8 / heads)).unsqueeze(0)


# (heads, head_dim, max_len, bidirectional, the heads written, the queries written: None for all)
CASES = [
    (12, 64, 48, False, [1, 5, 12], None),
    (12, 64, 48, True, [1, 12], None),
    (8, 5, 24, False, [1, 3, 8], None),
    (8, 7, 24, True, [2, 8], None),
    (4, 1, 12, True, [1, 4], None),
    (6, 33, 40, False, [1, 6], None),
    (16, 128, 700, False, [1, 16], [0, 1, 2, 350, 698, 699]),
    (16, 128, 700, True, [1, 7], [0, 1, 350, 699]),
    (32, 96, 2048, True, [1, 32], [0, 1023, 2047]),
]


def main():
    lines = []
    for heads, head_dim, length, bidirectional, written, queries in CASES:
        bias = sandwich_bias(bidirectional, heads, head_dim, length, length)
        assert bias.dtype == torch.float32 and tuple(bias.shape) == (1, heads, length, length)
        for head in written:
            for query in queries if queries is not None else range(length):
                values = ','.join('%.9g' % float(v) for v in bias[0, head - 1, query])
                lines.append('%d,%d,%d,%d,%d,%d,%s' % (heads, head_dim, length, int(bidirectional), head, query,
                                                       values))
    os.makedirs(os.path.join(here, 'sandwich'), exist_ok=True)
    with open(os.path.join(here, 'sandwich', 'nemo_sandwich.csv'), 'w') as f:
        f.write('# heads,head_dim,max_len,bidirectional,head,query,values... from '
                'tests/data/make_sandwich_fixture.py (NeMo SandwichRelativePositionEmbedding, torch %s, CPU)\n'
                % torch.__version__)
        f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
