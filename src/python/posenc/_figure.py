"""A figure drawn by ``posenc export``, shown inline by Jupyter and saved as a file."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Union

from ._arguments import Call


class Figure:
    """A posenc figure: ``_repr_png_`` and ``_repr_svg_`` show it in a notebook, ``save(path)``
    writes it as .png, .svg or .pdf (the format from the extension), exactly as
    ``posenc export FIGURE -o path`` with the same options would."""

    def __init__(self, name: Optional[str], options: List[str], params: Dict[str, Any]) -> None:
        self.name = name
        self._options = options
        self._params = params
        self._drawn: Dict[str, bytes] = {}
        # Drawn at once, so that a wrong name or parameter is raised here, not when it is shown.
        self.png()

    def _call(self) -> Call:
        drawn = "save(path) writes the figure, and png(), svg() and pdf() give its bytes"
        call = Call("export", *([self.name] if self.name else []), *self._options,
                    reserved=dict.fromkeys(("output", "o", "format", "force"), drawn))
        call.params(self._params)
        return call

    def _draw(self, fmt: str) -> bytes:
        if fmt not in self._drawn:
            call = self._call()
            key = call.output("figure")
            call.flag("format", fmt)
            call.arguments += ["-o", key]
            self._drawn[fmt] = bytes(call.run().written[key])
        return self._drawn[fmt]

    def png(self) -> bytes:
        """The figure as PNG bytes."""
        return self._draw("png")

    def svg(self) -> str:
        """The figure as SVG text."""
        return self._draw("svg").decode("utf-8")

    def pdf(self) -> bytes:
        """The figure as PDF bytes."""
        return self._draw("pdf")

    def _repr_png_(self) -> bytes:
        return self.png()

    def _repr_svg_(self) -> str:
        return self.svg()

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the figure to ``path`` (.png, .svg or .pdf), whole or not at all, replacing a
        file that is there."""
        call = self._call()
        call.arguments += ["-o", os.fspath(path), "--force"]
        call.run()

    def __repr__(self) -> str:
        return "posenc.Figure(%r, %s)" % (self.name, ", ".join(self._options))


def figure(name: Optional[str] = None, *, lesson: Optional[str] = None, size: Any = None, **params: Any) -> Figure:
    """A figure ``posenc export`` draws: ``name`` one of ``posenc export --help``'s figures (``heatmap``,
    ``curves``, ``families``, ...), ``lesson`` a lesson's figure (``posenc lessons`` lists them), or
    both. ``size`` is ``export --size``'s (``slide``, ``column``, ``double``, ``"12x8cm"``) or (width,
    height) in pixels; the keyword arguments are the figure's parameters and ``export``'s flags
    (``d_model=``, ``preset=``, ``colormap=``, ...). The figure is drawn at once, so a bad name or
    parameter raises ValueError here; in a notebook the last line of a cell shows it inline, and
    ``save(path)`` writes it."""
    if name is None and lesson is None:
        raise ValueError("figure: give a FIGURE's name, a lesson, or both")
    options: List[str] = []
    if lesson is not None:
        options.append("--lesson=%s" % lesson)
    if isinstance(size, (tuple, list)):
        if len(size) != 2:
            raise ValueError("size: (width, height) in pixels, or a size's name (slide, column, double); got %r"
                             % (size,))
        params = dict(params, width=size[0], height=size[1])
    elif size is not None:
        options.append("--size=%s" % size)
    return Figure(name, options, params)
