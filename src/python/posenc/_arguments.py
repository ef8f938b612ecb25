"""How a call's Python arguments become the command line's: flags, and the arrays, configs and
outputs that the native part holds in memory under names like ``<array>``."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Mapping

import numpy as np

from . import _posenc

# The command line's exit codes (src/cli/ExitCode.h) that are not a verdict.
_USAGE, _IO, _OVER_BUDGET, _INTERRUPTED = 2, 3, 4, 130


class Call:
    """One command: its arguments, and what it reads from and writes to memory."""

    def __init__(self, command: str, *words: str, reserved: Mapping[str, str] = {}) -> None:
        self.command = command
        self.arguments: List[str] = [command, *words]
        # Flags the function sets itself (where the result goes, its format), each with what to
        # do instead: given as keywords they would fight the function's own (o= wrote a file).
        self.reserved = dict(reserved)
        self.tables: Dict[str, Any] = {}
        self.files: Dict[str, bytes] = {}
        self.outputs: List[str] = []

    def flag(self, name: str, value: Any) -> None:
        """``--name=value``: a keyword argument's name with '-' for '_'."""
        self.arguments.append("--%s=%s" % (name.replace("_", "-"), _word(value)))

    def params(self, params: Mapping[str, Any]) -> None:
        """Keyword arguments as the command line's flags: ``d_model=64`` is ``--d-model 64``.
        ``True`` gives a switch (``quiet=True``), ``None`` and ``False`` leave a switch out."""
        switches = set(_posenc.switches(self.command))
        for key, value in params.items():
            name = key.replace("_", "-")
            if name in self.reserved:
                raise TypeError("%s= is not a keyword here: %s" % (key, self.reserved[name]))
            if value is None:
                continue
            if name in switches:
                if value is True:
                    self.arguments.append("--" + name)
                elif value is not False:
                    raise ValueError("--%s: a switch, given True or False; got %r" % (name, value))
                continue
            if key == "config":
                self.config("config", value)
                continue
            self.flag(name, value)

    def table(self, name: str, value: Any) -> str:
        """A path (FILE or FILE:TENSOR) as it is, or an array or tensor held in memory as ``<name>``."""
        if isinstance(value, (str, os.PathLike)):
            return os.fspath(value)
        key = "<%s>" % name
        self.tables[key] = _array(value)
        return key

    def config(self, flag: str, value: Any) -> None:
        """``--flag`` of a config.json: a path, or a dict held in memory as ``<config>``."""
        if isinstance(value, Mapping):
            key = "<%s>" % flag.replace("-", "_")
            try:
                # numpy's scalars as the numbers they hold; NaN and infinities are no JSON.
                text = json.dumps(value, allow_nan=False, default=_json_number)
            except (TypeError, ValueError) as error:
                raise ValueError("%s: the dict is not a config.json: %s" % (flag.replace("-", "_"), error)) from None
            self.files[key] = text.encode()
            self.flag(flag, key)
        else:
            self.flag(flag, os.fspath(value))

    def output(self, name: str) -> str:
        key = "<%s>" % name
        self.outputs.append(key)
        return key

    def run(self, ok=(0,)) -> "Result":
        code, out, err, written = _posenc.run(self.arguments, self.tables, self.files, self.outputs)
        if code not in ok:
            raise _exception(code, err, self)
        return Result(code, out, written)


class Result:
    def __init__(self, code: int, out: str, written: Dict[str, Any]) -> None:
        self.code = code
        self.out = out
        self.written = written

    def json(self) -> Dict[str, Any]:
        return json.loads(self.out)


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_word(v) for v in value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return str(value)


def _json_number(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError("%s is not a JSON value" % type(value).__name__)


def _array(value: Any) -> Any:
    """A numpy array or a DLPack tensor, read where it lies; anything else with ``__array__`` as
    numpy makes it. A tensor that requires grad is read through ``detach()``: only its values count."""
    if isinstance(value, np.ndarray):
        return value
    if getattr(value, "requires_grad", False) and hasattr(value, "detach"):
        value = value.detach()
    # A torch view with its negative or conjugate bit set is exported by DLPack as the storage it
    # views, unnegated: resolved here (no copy where the bits are unset).
    for bit, resolve in (("is_neg", "resolve_neg"), ("is_conj", "resolve_conj")):
        if callable(getattr(value, bit, None)) and getattr(value, bit)():
            value = getattr(value, resolve)()
    if hasattr(value, "__dlpack__"):
        return value
    if hasattr(value, "__array__") or hasattr(value, "__array_interface__"):
        return np.asarray(value)
    raise TypeError("expected a numpy array, an object with __array__ or __dlpack__, or a path; got %s"
                    % type(value).__name__)


def _exception(code: int, err: str, call: Call) -> BaseException:
    """The command line's message, without its ``posenc COMMAND: `` prefix, as a Python exception."""
    prefix = "posenc %s: " % call.command
    lines = [line[len(prefix):] if line.startswith(prefix) else line for line in err.strip().splitlines()]
    message = "\n".join(lines) or "posenc %s exited with %d" % (call.command, code)
    if code == _USAGE:
        return ValueError(message)
    if code == _IO:
        # An array's problem (NaN in it) is its value's, not a file's.
        held = any(message.startswith(name) for name in list(call.tables) + list(call.files))
        return ValueError(message) if held else OSError(message)
    if code == _OVER_BUDGET:
        return MemoryError(message)
    if code == _INTERRUPTED:
        return KeyboardInterrupt(message)
    return RuntimeError(message)
