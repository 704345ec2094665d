"""Every terminal command that takes an agent id also takes its PR, resolved once before it runs (G-10)."""

from __future__ import annotations

import argparse
import io

import pytest
from rich.console import Console

from cursor_cloud_agents.cli import main as cli
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.terminal.dispatch import execute
from cursor_cloud_agents.terminal.exits import OK, USAGE
from cursor_cloud_agents.terminal.targets import Command, resolving
from cursor_cloud_agents.terminal.term import Session, Term, fixed_session
from tests.pr_stand_ins import AGENT, PR_URL, CursorStandIn, FakeClock

pytestmark = pytest.mark.anyio


def term_on(cursor: CursorStandIn, clock: FakeClock) -> Term:
    return Term(
        settings=Settings.from_env({"CURSOR_API_KEY": "key_stand_in", "CURSOR_MCP_STATE_DIR": "memory"}),
        open_session=fixed_session(Session(cursor.client(), now=clock.now, sleep=clock.sleep)),
        out=Console(file=io.StringIO(), record=True),
        err=Console(file=io.StringIO(), record=True, width=300),
        write=lambda _text: None,
    )


def parsed(*argv: str) -> argparse.Namespace:
    return cli._parser().parse_args(list(argv))  # pyright: ignore[reportPrivateUsage]  # the real parser


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["cancel", PR_URL], "agent"),
        (["archive", "your-org/your-repo#7"], "agent"),
        (["events", "your-org/your-repo#7", AGENT], "agents"),
        (["wait", PR_URL], "targets"),
        (["diff", "your-org/your-repo#7"], "agent"),
    ],
)
async def test_a_pr_in_place_of_an_agent_id_is_resolved_through_the_pr_url_filter_g_10(
    argv: list[str], field: str
) -> None:
    clock = FakeClock()
    cursor = CursorStandIn(clock)
    args = parsed(*argv)
    bound: list[argparse.Namespace] = []

    def bind(resolved: argparse.Namespace) -> Command:
        bound.append(resolved)

        async def ran(_term: Term) -> int:
            return OK

        return ran

    assert await execute(term_on(cursor, clock), resolving(args, bind)) == OK
    value: object = getattr(bound[0], field)
    assert str(value).count(AGENT) >= 1 and "github" not in str(value) and "#" not in str(value)


async def test_two_agents_on_the_pr_refuse_the_command_listing_both_and_nothing_runs_g_10() -> None:
    clock = FakeClock()
    cursor = CursorStandIn(clock)
    other = "bc-4343bbbb-0000-4000-8000-000000000043"
    cursor.agents_on_pr = [AGENT, other]
    term = term_on(cursor, clock)
    ran: list[str] = []

    def bind(_args: argparse.Namespace) -> Command:
        ran.append("bound")

        async def never(_term: Term) -> int:
            return OK

        return never

    code = await execute(term, resolving(parsed("archive", PR_URL), bind))
    said = term.err.export_text()
    assert code == USAGE and ran == [] and AGENT in said and other in said


def test_the_parser_refuses_what_is_neither_an_agent_id_nor_a_pr() -> None:
    with pytest.raises(SystemExit):
        parsed("cancel", "https://github.com/o/r/issues/7")
