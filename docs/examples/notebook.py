# %% [markdown]
# # posenc in a notebook
#
# Cells in the percent format: Jupyter (with jupytext) and VS Code open this file as a notebook, and
# `python3 notebook.py` runs it top to bottom. A figure, a table and a check.

# %%
import numpy as np

import posenc

# %% [markdown]
# A figure: the lesson on RoPE's long-context scalings as a slide. In a notebook the last line of a
# cell shows it inline (`_repr_png_`, `_repr_svg_`); `save` writes it, here to the working directory.

# %%
figure = posenc.figure(lesson="rope-scaling", size="slide")
figure.save("rope-scaling.png")
figure

# %% [markdown]
# A table: the paper's sinusoid as a numpy array, float32, bit for bit what `posenc table pe` writes.

# %%
pe = posenc.table("pe", d_model=128, max_len=1024)
print(pe.shape, pe.dtype, "row 1:", np.round(pe[1, :6], 4))

# %% [markdown]
# A check: the table is correct. The same table from position 1 is no mistake by itself (a window
# of positions, said as such); declared as positions 0 to 1023 it is one, named with its cells.

# %%
print(posenc.check(pe).verdict)
from_one = posenc.table("pe", d_model=128, max_len=1025)[1:]
print(posenc.check(from_one).verdict, "-", posenc.check(from_one).diagnosis)
shifted = posenc.check(from_one, positions="0:1024")
print(shifted.verdict, "-", shifted.diagnosis)
shifted.as_dict()["mistakes"]
