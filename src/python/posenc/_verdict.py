"""A check's verdict: the ``--json`` document of ``posenc check``, with its main keys as attributes."""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional, Tuple


class Verdict:
    """What ``posenc check`` says of a table or of a rotation.

    ``verdict`` is one of ``correct``, ``variant``, ``learned``, ``mistake`` and ``unknown``; ``ok``
    is true for ``correct`` alone: the table equals a named reference (a published form, or the
    reference declared) within its stored precision. ``as_dict()`` is the command line's ``--json``
    document, key for key.
    """

    def __init__(self, document: Dict[str, Any]) -> None:
        self._document = document

    @property
    def verdict(self) -> str:
        """``correct``, ``variant``, ``learned``, ``mistake`` or ``unknown``."""
        return self._document["verdict"]

    @property
    def ok(self) -> bool:
        """True when the verdict is ``correct``."""
        return self.verdict == "correct"

    @property
    def mistakes(self) -> List[str]:
        """The ids of the mistakes found (``position-offset``, ``rope-layout``, ...); empty unless the
        verdict is ``mistake``."""
        return list(self._document.get("mistakes", []))

    @property
    def guessed_mistakes(self) -> List[str]:
        """The ids another verdict (``unknown``, ``variant``, ...) guesses at: what the table may hold,
        not a finding."""
        return list(self._document.get("guessed_mistakes", []))

    @property
    def diagnosis(self) -> str:
        """The verdict in words: what the table is, and what is wrong where."""
        return self._document.get("diagnosis", "")

    @property
    def max_error(self) -> Optional[float]:
        """The largest |table - reference| over every cell, or None without a reference."""
        return self._document.get("max_abs_error")

    @property
    def location(self) -> Optional[Tuple[int, int]]:
        """(row, column) of the worst cell (the largest |table - reference|, or the worst of the cells
        beyond the tolerance), or None without a reference."""
        row, column = self._document.get("worst_position"), self._document.get("worst_column")
        return None if row is None or column is None else (row, column)

    def as_dict(self) -> Dict[str, Any]:
        """The ``posenc check --json`` document."""
        return copy.deepcopy(self._document)

    def __repr__(self) -> str:
        return "Verdict(%r, diagnosis=%r)" % (self.verdict, self.diagnosis)
