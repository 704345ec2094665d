"""`sdk/_options.py`: a cloud agent's repositories and environment, in Cursor's shapes, checked by the core's rules."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.sdk import CloudEnvironment, CloudOptions, CloudRepository
from cursor_cloud_agents.sdk._options import placement


def test_dataclasses_and_mappings_give_the_same_request_parts() -> None:
    as_classes = placement(
        CloudOptions(repos=[CloudRepository("https://github.com/o/r", "main")], env=CloudEnvironment("pool", "big"))
    )
    as_mappings = placement(
        {"repos": [{"url": "https://github.com/o/r", "starting_ref": "main"}], "env": {"type": "pool", "name": "big"}}
    )
    assert as_classes == as_mappings
    assert [repo.url for repo in as_classes.repos] == ["https://github.com/o/r"]
    assert as_classes.env is not None and as_classes.env.name == "big"


def test_no_cloud_and_no_repositories_are_an_agent_on_an_empty_vm() -> None:
    assert placement(None).repos == [] and placement({"repos": []}).repos == []


@pytest.mark.parametrize(
    "cloud",
    [
        {"repos": "https://github.com/o/r"},
        {"repos": [{"url": 42}]},
        {"repos": [{"url": "https://github.com/o/r"}] * 2},
        {"env": {"type": "cloud", "name": "named"}, "repos": [{"url": "https://github.com/o/r"}]},
        {"repositories": []},
        "https://github.com/o/r",
    ],
)
def test_options_the_api_would_refuse_are_refused_first(cloud: object) -> None:
    with pytest.raises(ToolFailure) as refused:
        placement(cloud)  # pyright: ignore[reportArgumentType] -- what a program might pass
    assert refused.value.code == Code.VALIDATION and "Nothing was sent" in refused.value.message
