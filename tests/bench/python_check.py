#!/usr/bin/env python3
"""posenc.check of a numpy array against the command line's posenc check of the same table in its
.npy file (docs/ARCHITECTURE.md, Performance): 1,048,576 x 1024 float32 unless ROWS and COLS say
otherwise, the two timed in turn RUNS times, each run's times and ratio printed, then the best and
the median ratio. The promise is at most 1.2x. By hand, on the build tree's module and program:

    PYTHONPATH=build/release/src/python /usr/bin/python3 tests/bench/python_check.py \\
        build/release/app/posenc [RUNS] [ROWS] [COLS]
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import posenc


def main():
    program = sys.argv[1] if len(sys.argv) > 1 else "posenc"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    rows = int(sys.argv[3]) if len(sys.argv) > 3 else 1 << 20
    cols = int(sys.argv[4]) if len(sys.argv) > 4 else 1024
    # The table in blocks of rows, so that only the array itself is held.
    array = np.empty((rows, cols), np.float32)
    block = max(1, (64 << 20) // (4 * cols))
    for r in range(0, rows, block):
        n = min(block, rows - r)
        array[r:r + n] = posenc.table("pe", d_model=cols, max_len=rows, positions="%d:%d" % (r, r + n))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "table.npy")
        np.save(path, array)
        command = [program, "check", path, "--json", "--quiet"]
        print("posenc.check(array) against `%s`, %d x %d float32" % (" ".join(command), rows, cols))
        python, cli = [], []
        for run in range(runs + 1):
            start = time.perf_counter()
            verdict = posenc.check(array)
            python_s = time.perf_counter() - start
            start = time.perf_counter()
            done = subprocess.run(command, capture_output=True)
            cli_s = time.perf_counter() - start
            assert verdict.ok and done.returncode == 0, (verdict, done.stderr)
            if run == 0:
                continue  # the warm-up: the file into the page cache
            python.append(python_s)
            cli.append(cli_s)
            print("run %d: posenc.check %.3f s, command line %.3f s, ratio %.3f" % (run, python_s, cli_s,
                                                                                  python_s / cli_s))
        print("best: %.3f s / %.3f s = %.3f; median ratio %.3f" % (
            min(python), min(cli), min(python) / min(cli), statistics.median(p / c for p, c in zip(python, cli))))


if __name__ == "__main__":
    main()
