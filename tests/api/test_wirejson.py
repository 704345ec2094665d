"""JSON read from the API (`api/_wirejson.py`): `NaN` and `Infinity` are no numbers, too deep is a ValueError."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.api._wirejson import loads  # pyright: ignore[reportPrivateUsage] -- the module under test


def test_nan_and_infinity_read_as_absent_so_no_limit_compares_against_them() -> None:
    assert loads('{"cents": NaN, "a": Infinity, "b": -Infinity, "c": 1.5}') == {
        "cents": None,
        "a": None,
        "b": None,
        "c": 1.5,
    }


def test_a_body_nested_past_the_parser_is_a_value_error_not_a_recursion_error() -> None:
    with pytest.raises(ValueError, match="nests deeper"):
        loads("[" * 100_000 + "]" * 100_000)
