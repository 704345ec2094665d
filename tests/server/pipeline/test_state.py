"""The server's state (`server/pipeline/state.py`): the core's, with answers under the configured cap and the
check verdicts `cursor_compare` shows."""

from __future__ import annotations

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.pipeline.state import VERDICTS_KEPT, ServerState


def test_answers_are_built_under_the_configured_cap_and_masked_by_the_servers_redactor() -> None:
    state = ServerState(Settings(max_result_bytes=20_000), Redactor(["sk-secret-value-1234"]))
    assert state.answers.max_bytes == 20_000
    assert state.answers.text("key sk-secret-value-1234") != "key sk-secret-value-1234"


def test_the_verdicts_kept_are_bounded() -> None:
    state = ServerState(Settings(), Redactor())
    for index in range(VERDICTS_KEPT + 1):
        state.verdicts.put((f"bc-{index}", "c0ffee"), None)  # pyright: ignore[reportArgumentType] -- only the bound is proved
    assert state.verdicts.get(("bc-0", "c0ffee")) is None
