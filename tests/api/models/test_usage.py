"""Issue 21: a usage answer's cents are read as the API sends them only when they are JSON numbers.

A value that is not one (a string, a boolean, an object, a number past a float's range) is read as absent,
so that neither an invented charge (`"12"` read as 12, `true` as 1, `1e400` as infinity) nor a usage answer
refused whole reaches the spend limit. A negative number is kept as sent: the limit's rule says what it means.
"""

from __future__ import annotations

from typing import Any

import pytest

from cursor_cloud_agents.api import Usage
from cursor_cloud_agents.api import _wirejson as wirejson  # pyright: ignore[reportPrivateUsage]  # the client's parser


@pytest.mark.parametrize("charged", ['"12"', "true", "false", "[1]", '{"cents":1}', "1e400", "-1e400", "1" + "0" * 400])
def test_cents_that_are_not_a_finite_json_number_read_as_absent(charged: str) -> None:
    """F-35: each such charge, and the same as the raw cost, is None; the rest of the answer is read."""
    text = '{"cost":{"rawCostCents":' + charged + ',"chargedCents":' + charged + '},"runs":[{"id":"run-1"}]}'
    usage = Usage.model_validate(wirejson.loads(text))
    assert usage.cost is not None and usage.cost.charged_cents is None and usage.cost.raw_cost_cents is None
    assert [run.id for run in usage.runs] == ["run-1"]


@pytest.mark.parametrize(("charged", "read"), [("23.4", 23.4), ("7", 7.0), ("-3.5", -3.5), ("0", 0.0)])
def test_json_numbers_are_read_as_sent(charged: str, read: float) -> None:
    """F-35: a number is kept as it came, a negative one too."""
    usage = Usage.model_validate(wirejson.loads('{"cost":{"chargedCents":' + charged + "}}"))
    assert usage.cost is not None and usage.cost.charged_cents == read


@pytest.mark.parametrize("cost", ["42", '"free"', "[]", "true"])
def test_a_cost_that_is_not_an_object_reads_as_absent(cost: Any) -> None:
    """F-35: a `cost` that is not an object says no charge, at the top and per run."""
    usage = Usage.model_validate(wirejson.loads('{"cost":' + cost + ',"runs":[{"id":"run-1","cost":' + cost + "}]}"))
    assert usage.cost is None and usage.runs[0].cost is None
