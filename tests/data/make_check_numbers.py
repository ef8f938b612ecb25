#!/usr/bin/python3
"""Writes wrong tables of positions and the numbers `posenc check`'s report should give for them,
computed here with numpy in float64 (run by hand, not by the tests; tst_tablechecknumbers reads
both).

Each table is float32, 64 x 32, the paper's sinusoid (Vaswani et al. 2017: sin(p w_i) in column
2i, cos in 2i + 1, w_i = 10000^(-2i/d)) made wrong one way. For each, checknumbers/expected.json holds: the verdict and mistakes, the findings
(base, scale), the first position row and the offset, the position the check is told row 0 holds
(`positions_declared`, as --positions 0:64 declares; absent, nothing is declared), the sinusoid's
amplitude declared (`pe_scale_declared`, as --pe-scale declares: undeclared, a scaled sinusoid is a
variant), the largest
|table - correct table| (the reference rounded to float32, as the check compares; within a float32 unit of float64's, which the script
asserts) and the cells that hold it (within 2e-7 of it: float32's rounding may pick any),
the tolerance, and the counts of deviating cells, columns and rows (beyond the check's tolerance,
compared in float32 as the check compares; no cell is within 1 % of its limit, which the script
asserts, so the counts do not hang on the last bit of a comparison).
Usage: /usr/bin/python3 tests/data/make_check_numbers.py
"""
import json
import os

import numpy as np

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "checknumbers")
L, D = 64, 32
# CellTolerance: 1.01 units of float32 relative; the kernel's 1e-12 and a double table's angle
# error 2^-27 w (the fastest w, 1) absolute, times the amplitude (1).
RELATIVE = 1.01 * 2.0**-23
ABSOLUTE = 1e-12 + 2.0**-27


def sinusoid(base=10000.0, exponent=2.0, first=0, rows=L, d=D):
    p = np.arange(rows, dtype=np.float64)[:, None] + first
    i = np.arange(d, dtype=np.float64)[None, :] // 2
    angle = p * base ** (-exponent * i / d)
    j = np.arange(d)[None, :]
    return np.where(j % 2 == 0, np.sin(angle), np.cos(angle))


def entry(name, table, correct, verdict, mistakes, findings, offset=0, first_row=0, declared=None, amplitude=None):
    """Writes the table, and the numbers of its report against `correct` (float64)."""
    values = table.astype("<f4")
    os.makedirs(here, exist_ok=True)
    np.save(os.path.join(here, name + ".npy"), values, allow_pickle=False)
    # As the check compares, in float32 (docs/ARCHITECTURE.md, Tolerance): |cell - float32(reference)|,
    # the reference computed in float64; beyond relative |reference| + absolute.
    reference = correct.astype(np.float32)
    cell_error = np.abs(values - reference)
    largest = float(cell_error.max())
    assert abs(largest - float(np.abs(values.astype(np.float64) - correct).max())) <= 2.0**-23 * max(1.0, largest)
    worst = [[int(r), int(c)] for r, c in np.argwhere(cell_error >= largest - 2e-7)[:64]]
    limit = np.float32(RELATIVE) * np.abs(reference) + np.float32(ABSOLUTE)
    near = np.abs(cell_error - limit) <= 0.01 * limit
    assert not near.any(), (name, np.argwhere(near)[:5])
    deviating = cell_error > limit
    positions = {} if declared is None else {"positions_declared": declared}
    if amplitude is not None:  # the sinusoid's amplitude declared (--pe-scale): another one is scaled
        positions["pe_scale_declared"] = amplitude
    return positions | {
        "file": name + ".npy",
        "rows": L,
        "cols": D,
        "verdict": verdict,
        "mistakes": mistakes,
        "findings": findings,
        "position_offset": offset,
        "first_position_row": first_row,
        "max_abs_error": largest,
        "worst_cells": worst,
        "deviating_columns": int(deviating.any(axis=0).sum()),
        "deviating_rows": int(deviating.any(axis=1).sum()),
        "deviating_cells": int(deviating.sum()),
        "tolerance_relative": RELATIVE,
        "tolerance_absolute": ABSOLUTE,
    }


paper = sinusoid()
one_cell = paper.copy()
one_cell[37, 13] += 0.01
entries = [
    entry("scaled", np.sqrt(D) * paper, paper, "mistake", ["scaled"], {"base": 10000.0, "scale": float(np.sqrt(D))},
          amplitude=1.0),
    # 10000^(-i/d), the exponent halved, is the formula at base 100, which no table tells from it: a
    # variant undeclared, compared with itself (the mistake is named against a declared base 10000).
    entry("exponent_halved", sinusoid(exponent=1.0), sinusoid(exponent=1.0), "variant", [], {"base": 100.0}),
    # Positions from 3 against positions declared from 0: compared with the paper's table from position
    # 0. (Undeclared, the rows are a window of the paper's table, said and not judged.)
    entry("offset", sinusoid(first=3), paper, "mistake", ["position-offset"], {"base": 10000.0}, offset=3, declared=0),
    entry("one_cell", one_cell, paper, "mistake", [], {"base": 10000.0}),
    # A variant: the formula at base 500, compared with itself.
    entry("variant_base", sinusoid(base=500.0), sinusoid(base=500.0), "variant", [], {"base": 500.0}),
    # exp(-2i/d): the log of the base left out, the formula at base e: a variant undeclared, as above.
    entry("log_base_missing", sinusoid(base=np.e), sinusoid(base=np.e), "variant", [], {"base": float(np.e)}),
]
with open(os.path.join(here, "expected.json"), "w") as f:
    json.dump({"format": "posenc-check-numbers", "tables": entries}, f, indent=1)
    f.write("\n")
