#!/usr/bin/python3
"""Writes tests/data/colormaps/*.csv, the reference tables of tst_colormaps (run by hand).

Each map is taken from the data matplotlib publishes, not from its colour map objects (which the
program's own tables come from): the lists of _cm_listed.py for viridis, cividis and magma; for
the diverging map ColorBrewer's 11 RdBu colours of _cm.py, reversed and interpolated linearly here
at 256 evenly spaced points, as a LinearSegmentedColormap of 256 entries samples them; for
coolwarm the 33 points a channel of _cm.py's _coolwarm_data (Kenneth Moreland's CoolWarmFloat33),
interpolated the same way. Each reversed map, NAME_r.csv, is matplotlib's own colour map of that
name (its Colormap.reversed of the map, which the program does not call), sampled at its 256
entries. Each file has 256 lines "red,green,blue" in [0, 1].
Usage: /usr/bin/python3 tests/data/make_colormaps.py (Debian's python3-matplotlib)
"""
import os

import matplotlib
import numpy as np
from matplotlib import _cm, _cm_listed

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "colormaps")


def write(name, rows):
    assert len(rows) == 256
    with open(os.path.join(here, name + ".csv"), "w") as f:
        for r, g, b in rows:
            f.write("%r,%r,%r\n" % (float(r), float(g), float(b)))


def resampled(stops):
    """Stops evenly spaced over [0, 1], interpolated linearly at i / 255."""
    segments = len(stops) - 1
    rows = []
    for i in range(256):
        x = i / 255 * segments
        k = min(int(x), segments - 1)
        f = x - k
        rows.append(tuple(a + f * (b - a) for a, b in zip(stops[k], stops[k + 1])))
    return rows


def segmented(data):
    """A LinearSegmentedColormap's channels {(x, y0, y1)}, interpolated linearly at i / 255."""
    x = np.arange(256) / 255
    channels = [np.interp(x, [p[0] for p in data[c]], [p[2] for p in data[c]]) for c in ("red", "green", "blue")]
    return list(zip(*channels))


write("viridis", _cm_listed._viridis_data)
write("cividis", _cm_listed._cividis_data)
write("magma", _cm_listed._magma_data)
write("diverging", resampled(list(reversed(_cm._RdBu_data))))
write("coolwarm", segmented(_cm._coolwarm_data))
# The program's name of each map and matplotlib's name of its reverse.
for ours, reverse in [("diverging", "RdBu"), ("viridis", "viridis_r"), ("cividis", "cividis_r"), ("magma", "magma_r"),
                      ("coolwarm", "coolwarm_r")]:
    write(ours + "_r", matplotlib.colormaps[reverse](np.arange(256))[:, :3])
