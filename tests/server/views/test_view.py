"""The base of every answer (`server/views/view.py`): a field built under a wrong name fails at once."""

from __future__ import annotations

import pydantic
import pytest

from cursor_cloud_agents.server.views.view import View


class Named(View):
    name: str


def test_a_view_built_with_a_field_it_does_not_have_is_refused() -> None:
    assert Named(name="x").model_dump() == {"name": "x"}
    with pytest.raises(pydantic.ValidationError, match="nmae"):
        Named.model_validate({"name": "x", "nmae": "y"})
