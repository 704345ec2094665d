"""`run` and `followup`'s declarations: which paid coroutine each form of the command binds."""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.terminal import attempts, paid, queued
from cursor_cloud_agents.terminal.commands import paid as declared
from tests.terminal.commands.binding import AGENT, ENV, bound, parsed

REPO = "https://github.com/acme/service"


def test_run_binds_one_order_and_what_follows_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # not a repository: the order's repository is the one given
    args = parsed("run", "Fix it", "--repo", REPO, "--model", "composer-2", "--yes", "--watch")
    func, keywords = bound(declared._run(args, ENV))  # pyright: ignore[reportPrivateUsage]
    order: paid.Order = keywords["order"]
    assert func is paid.run and keywords["then"] == "watch"
    assert (order.prompt, order.repo, order.model, order.confirmed) == ("Fix it", REPO, "composer-2", True)


def test_run_with_models_binds_the_attempts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    args = parsed("run", "Fix it", "--repo", REPO, "--models", "a,b", "--wait")
    func, keywords = bound(declared._run(args, ENV))  # pyright: ignore[reportPrivateUsage]
    assert func is attempts.run_attempts and keywords["models"] == ("a", "b") and keywords["waits"] is True


def test_followup_sends_or_drops_the_queued_one() -> None:
    func, keywords = bound(declared._followup(parsed("followup", AGENT, "More", "--queue"), ENV))  # pyright: ignore[reportPrivateUsage]
    assert func is paid.followup
    assert keywords == {"agent_id": AGENT, "prompt": "More", "confirmed": False, "queue": True}
    func, keywords = bound(declared._followup(parsed("followup", AGENT, "--drop"), ENV))  # pyright: ignore[reportPrivateUsage]
    assert func is queued.drop_followup and keywords == {"agent_id": AGENT, "prompt": None}
