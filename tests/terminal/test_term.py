"""What every command shares: the question on stderr, failures and human output cleaned and masked."""

from __future__ import annotations

import io

import pytest

from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, ManualClock, RunScript, World
from cursor_cloud_agents.terminal.dispatch import execute
from cursor_cloud_agents.terminal.exits import REFUSED
from cursor_cloud_agents.terminal.term import Term
from cursor_cloud_agents.terminal.watch import watch
from tests.terminal.conftest import RigFactory


class Tty(io.StringIO):
    """A stdin that says it is a terminal, holding what the person types (nothing: Ctrl-D)."""

    def isatty(self) -> bool:
        return True


@pytest.mark.anyio
async def test_the_question_goes_to_stderr_and_the_end_of_input_answers_no(
    rig_factory: RigFactory, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: `run ... --json | jq` never gets the question in its JSON, and Ctrl-D is a no, not a traceback."""
    monkeypatch.setattr("sys.stdin", Tty(""))
    async with rig_factory() as rig:
        term: Term = rig.term
        default = Term(term.settings, term.open_session, term.out, term.err, term.write)
        answer = default.ask("Start this paid agent? [y/N] ")
    out, err = capsys.readouterr()
    assert answer.strip() == "" and out == "" and err == "Start this paid agent? [y/N] "


@pytest.mark.anyio
async def test_a_failure_message_reaches_stderr_without_its_escape_sequences(rig_factory: RigFactory) -> None:
    """Regression: a failure's text comes from the API; its escape sequences never reach the terminal."""

    async def refused(_term: Term) -> int:
        raise ToolFailure("NOT_FOUND", "agent \x1b]0;owned\x07gone\x1b[2J, try again")

    async with rig_factory() as rig:
        code = await execute(rig.term, refused)
        shown = rig.errors()
    assert code == REFUSED and "\x1b" not in shown and "owned" not in shown
    assert "NOT_FOUND: agent gone, try again" in shown


@pytest.mark.anyio
async def test_a_secret_an_agent_writes_is_masked_on_the_terminal_as_in_json(rig_factory: RigFactory) -> None:
    """Regression: the key (or a forwarded value) in an agent's text is masked in the human output too."""
    world = World(ManualClock())
    agent = world.add_agent("Leaky", script=RunScript(text=f"The key is {SIMULATED_API_KEY} here."), created_ago=3600.0)
    async with rig_factory(world) as rig:
        await rig.drive(watch(rig.term, agent_id=agent.id, run_id=None))
        screen = rig.screen()
    assert "The key is *** here." in screen and SIMULATED_API_KEY not in screen
