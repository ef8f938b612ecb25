"""Assertions for test suites: ``posenc.testing.assert_correct(cos, expect="rope", preset=...)``."""

from __future__ import annotations

from typing import Any

from . import check

__all__ = ["assert_correct"]


def assert_correct(tensor: Any, **expect: Any) -> None:
    """Raises AssertionError with the check's diagnosis unless ``posenc.check(tensor, **expect)`` is
    ``correct``: the table equals a published form, or the reference declared with ``expect=``,
    ``expect_config=`` or ``expect_table=`` and their parameters, within its stored precision."""
    __tracebackhide__ = True  # pytest shows the caller's line
    verdict = check(tensor, **expect)
    if not verdict.ok:
        where = "" if verdict.location is None else " (worst cell: row %d, column %d)" % verdict.location
        raise AssertionError("posenc check: %s: %s%s" % (verdict.verdict, verdict.diagnosis, where))
