"""posenc: see and check a transformer's positional encoding, from Python.

The same program as the command line ``posenc``, in this process: every function runs the command
of its name with keyword arguments as its flags (``d_model=64`` is ``--d-model 64``; ``preset=``,
``config=`` a path or a dict), and gives what the command prints as Python values. Arrays and
tensors are read where they lie, never written to a file first.

    >>> import posenc
    >>> pe = posenc.table("pe", d_model=64, max_len=128)       # numpy.ndarray, float32
    >>> posenc.check(pe).verdict
    'correct'
    >>> posenc.check(cos, expect="rope", preset="llama-3-1-8b").ok
    True

A bad parameter raises ValueError with the command line's message, a file that cannot be read
OSError, a request over the memory budget MemoryError. ``help("posenc")`` lists the functions;
``posenc help parameters`` on the command line, every parameter.
"""

from __future__ import annotations

import io
import os
from typing import Any, Dict, List, Mapping, Optional, Union

import numpy as np

from . import _posenc
from ._arguments import Call
from ._figure import Figure, figure
from ._verdict import Verdict

__all__ = ["table", "check", "check_apply", "read_config", "describe", "figure", "Figure", "Verdict",
           "ConfigLayers", "testing"]
__version__: str = _posenc.__version__

# The verdicts' exit codes (posenc check --help, Exit status): correct, mistake, variant, learned, unknown.
_VERDICTS = (0, 1, 5, 6, 7)


def table(quantity: str, **params: Any) -> np.ndarray:
    """The table ``posenc table QUANTITY`` writes, as a float32 array of [rows, cols], bit for bit.

    QUANTITY is any of ``posenc table --help`` (``pe``, ``input``, ``rope-cos``, ``alibi-bias``,
    ``row-norms``, ``column-stats``, ...); ``positions="A:B"`` and ``dims="0,1,64:68"`` choose rows
    and columns, ``threads=N`` the worker threads.
    """
    returned = "the table is returned as an array, which np.save writes"
    call = Call("table", quantity, reserved=dict.fromkeys(("output", "o", "format", "force", "whole"), returned))
    key = call.output("table")
    # Whole within the memory budget, or MemoryError: the array is read back whole.
    call.arguments += ["-o", key, "--format=npy", "--whole"]
    call.params(params)
    written = call.run().written[key]
    header = io.BytesIO(memoryview(written)[: min(len(written), 1 << 20)])
    version = np.lib.format.read_magic(header)
    read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
    shape, fortran, dtype = read_header(header)
    count = int(np.prod(shape, dtype=np.int64))
    # The array is the written bytes themselves, past the header: nothing is copied.
    array = np.frombuffer(written, dtype=dtype, count=count, offset=header.tell())
    return array.reshape(shape, order="F" if fortran else "C")


def check(tensor: Any, *, expect: Optional[str] = None, expect_config: Any = None, expect_table: Any = None,
          **params: Any) -> Verdict:
    """What a table of positions computes, and the mistake in it: ``posenc check``.

    ``tensor`` is an array (numpy, anything with ``__array__``, or a DLPack tensor on the CPU such as
    torch's; float16, bfloat16, float32, float64 or integers; any strides: rows are read where they
    lie), or a path: ``.npy``, ``.npz`` (``"f.npz:NAME"`` an array of it), ``.safetensors``
    (``"f.safetensors:TENSOR"``) or ``.csv``. Dimensions of size 1 are dropped.

    ``expect`` declares the family (``"sinusoidal"``, ``"rope"``, ...) with its parameters as keyword
    arguments (``preset=``, ``rope_theta=``, ...); ``expect_config`` a model's config.json (a path or a
    dict); ``expect_table`` the reference's own table (an array or a path), compared cell by cell.
    Without them the table is identified. Other keyword arguments are the command's flags:
    ``positions="A:B"`` (the rows' positions: a table at another window is then position-offset;
    without it a window is said, not judged), ``layout=``, ``rope_layout=``, ``memory_budget=``,
    ``threads=``.
    """
    if "config" in params:
        # The command line's --config without --apply checks the config itself (read_config).
        raise ValueError("config: a table is compared with a config by expect_config=; posenc.read_config reads one")
    call = Call("check", "--json", reserved={"json": "the verdict is returned as a Verdict"})
    if expect is not None:
        call.flag("expect", expect)
    if expect_config is not None:
        call.config("expect-config", expect_config)
    if expect_table is not None:
        call.flag("expect-table", call.table("expect_table", expect_table))
    call.params(params)
    call.arguments.append(call.table("array", tensor))
    return Verdict(call.run(ok=_VERDICTS).json())


def check_apply(x: Any, y: Any, *, config: Any = None, **params: Any) -> Verdict:
    """A query or key before (``x``) and after (``y``) RoPE: ``posenc check --apply X Y``.

    The pairing, the frequencies, the attention factor and each row's position are read from the
    two, and a layout swapped between the cos/sin table and the apply, or positions off by a
    constant, named. ``x`` and ``y`` are arrays or paths as for ``check``; ``config`` a model's
    config.json (a path or a dict) the rotation is meant to be; the keyword arguments RoPE's and
    M-RoPE's flags (``rope_layout=``, ``partial_rotary_factor=``, ``prompt=``, ...).
    """
    call = Call("check", "--json", reserved={"json": "the verdict is returned as a Verdict"})
    call.flag("apply", call.table("x", x))
    if config is not None:
        call.config("config", config)
    call.params(params)
    call.arguments.append(call.table("y", y))
    return Verdict(call.run(ok=_VERDICTS).json())


class ConfigLayers(list):
    """The layer groups of a model's config (a list of dicts, one per layer type: ``layer_type``,
    ``layers``, ``encoding`` and its numbers), with the config's ``findings`` and the whole
    ``posenc check --config --json`` document as ``as_dict()``."""

    def __init__(self, document: Dict[str, Any]) -> None:
        super().__init__(document.get("layers") or [])
        self.findings: List[Dict[str, Any]] = document.get("findings", [])
        self._document = document

    def as_dict(self) -> Dict[str, Any]:
        """The ``posenc check --config FILE --json`` document."""
        import copy

        return copy.deepcopy(self._document)


def read_config(path_or_dict: Union[str, "os.PathLike[str]", Mapping[str, Any]], **params: Any) -> ConfigLayers:
    """A model's config.json as posenc reads it (``posenc check --config FILE``): what each layer
    type computes for position, and the config's findings (what is wrong or easy to get wrong).
    ``path_or_dict`` is the file, or its object as a dict (``config.to_dict()`` of HF)."""
    call = Call("check", "--json", reserved={"json": "the config's reading is returned as ConfigLayers"})
    call.config("config", path_or_dict)
    call.params(params)
    # Exit 1 is a config with an error finding: still read, the finding in `findings`.
    return ConfigLayers(call.run(ok=(0, 1)).json())


def describe(**params: Any) -> Dict[str, Any]:
    """A family's derived numbers at these parameters: ``posenc describe --json`` (the frequencies'
    range, wavelengths, the precision of positions, ...)."""
    call = Call("describe", "--json", reserved={"json": "the numbers are returned as a dict"})
    call.params(params)
    return call.run().json()


from . import testing  # noqa: E402  (it imports check from here)
