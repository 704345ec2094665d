"""One door that asks (issue 45; docs/reliability.md §2.29, N-01 to N-04): for every paid act the core checks,
words the question and its "limits used" line, asks through `core.call.Call`, writes once, sends and settles;
a face only answers yes, no or cannot ask."""

from __future__ import annotations

import ast
from functools import partial
from pathlib import Path

import pytest

from cursor_cloud_agents.api import Deadline
from cursor_cloud_agents.core import ToolFailure, consent, follow_up_request, follow_up_within_limits
from cursor_cloud_agents.core.call import Question
from cursor_cloud_agents.core.timing import CallTime
from cursor_cloud_agents.terminal import attempts, paid
from cursor_cloud_agents.terminal.dispatch import execute
from cursor_cloud_agents.terminal.exits import USAGE
from tests.terminal.conftest import open_rig

pytestmark = pytest.mark.anyio

SRC = Path(__file__).resolve().parents[3] / "src" / "cursor_cloud_agents"
FACES = ("server", "terminal", "sdk", "verify", "cli")
QUESTIONS = frozenset({"creation", "attempts", "follow_up"})
"""`core.spend.consent`'s questions of a paid act."""
CORE_ONLY = frozenset(
    {"ask_paid", "limits_use_line", "use_line", "attempts_question", "creation_question", "follow_up_question"}
)
"""What builds a paid act's question or its limits line inside the core's door."""


def _called(node: ast.Call) -> tuple[str | None, str]:
    """The name a call is made by, and the name it is reached through (`consent.creation`: consent, creation)."""
    func = node.func
    if isinstance(func, ast.Attribute):
        owner = func.value.id if isinstance(func.value, ast.Name) else None
        return owner, func.attr
    return None, func.id if isinstance(func, ast.Name) else ""


def door_breaches(source: str, where: str) -> list[str]:
    """Each place `source` checks, asks or words a paid act itself instead of going through the core's door."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        owner, name = _called(node)
        if (
            name.startswith("refuse_")
            or name in CORE_ONLY
            or (owner == "consent" and name in QUESTIONS)
            or name == "Question"
        ):
            found.append(f"{where}:{node.lineno} {name}")
    return found


def test_no_face_checks_asks_or_words_a_paid_act_itself_n_02() -> None:
    """N-02: the faces (server, terminal, SDK, verify, the command line) call no `refuse_*`, build no paid act's
    question (`consent.creation`, `consent.attempts`, `consent.follow_up`, a `Question`) and no "limits used"
    line; a planted call is caught."""
    found = [
        breach
        for face in FACES
        for path in sorted((SRC / face).rglob("*.py"))
        for breach in door_breaches(path.read_text(encoding="utf-8"), str(path.relative_to(SRC)))
    ]
    assert found == []
    planted = "refuse_continuation(agent)\nq = consent.creation(p, [], None, await limits_use_line(state))\n"
    assert sorted(door_breaches(planted, "terminal/paid.py")) == [
        "terminal/paid.py:1 refuse_continuation",
        "terminal/paid.py:2 creation",
        "terminal/paid.py:2 limits_use_line",
    ]


@pytest.mark.parametrize("command", ["run", "models", "followup"])
async def test_without_yes_and_without_a_terminal_every_paid_command_is_refused_before_any_request_n_03(
    command: str,
) -> None:
    """N-03: `run`, `run --models` and `followup` with no terminal to ask on and no `--yes`: DECLINED in the
    terminal's words (`--yes`), exit 2, and not one request reaches the API."""
    order = paid.Order("Fix the login test", None, None, None, (), confirmed=False)
    agent = "bc-00000000-0000-4000-8000-000000000001"
    commands = {
        "run": partial(paid.run, order=order, then=None),
        "models": partial(attempts.run_attempts, order=order, models=("a", "b")),
        "followup": partial(paid.followup, agent_id=agent, prompt="More", confirmed=False),
    }
    async with open_rig(interactive=False) as rig:
        code = await execute(rig.term, commands[command])
        sent = rig.requests()
    assert code == USAGE and sent == []
    assert "DECLINED" in rig.errors() and "--yes" in rig.errors() and "CURSOR_MCP_ASK" not in rig.errors()


class Answering:
    """A face that answers the core's question (yes or no) and keeps what it was asked."""

    def __init__(self, yes: bool) -> None:
        self.yes = yes
        self.asked: list[Question] = []
        self.time = CallTime(Deadline(float("inf")))
        self.can_ask = True

    async def progress(self, message: str) -> None:
        del message

    async def roots(self) -> list[Path] | None:
        return None

    async def confirm(self, question: Question, unsent: str) -> None:
        self.asked.append(question)
        if not self.yes:
            raise ToolFailure("DECLINED", unsent)


async def test_the_core_words_the_question_and_its_limits_line_and_a_follow_up_asks_too_n_04() -> None:
    """N-04: a follow-up put to the person: the core words the question (the agent, the prompt, the limits used)
    after the limits were checked; a no sends nothing. The same door sends it on a yes."""
    async with open_rig() as rig:
        agent_id = rig.world.add_agent("Earlier work", created_ago=3600.0).id
        agent = await rig.session.api.get_agent(agent_id)
        state = paid.command_state(rig.term, rig.session)
        request = follow_up_request("Also add tests")
        no = Answering(yes=False)
        with pytest.raises(ToolFailure, match="no follow-up was sent"):
            await follow_up_within_limits(state, agent, request, call=no, asks=consent.PAID_ACTS)
        refused_posts = len(rig.requests("POST"))
        yes = Answering(yes=True)
        made = await follow_up_within_limits(state, agent, request, call=yes, asks=consent.PAID_ACTS)
        posts = len(rig.requests("POST"))
    asked = no.asked[0]
    assert asked.key == "confirm_followup" and agent_id in asked.message and "Also add tests" in asked.message
    assert "new agents in 24 h" in asked.message and refused_posts == 0
    assert yes.asked and posts == 1 and not made.resumed
