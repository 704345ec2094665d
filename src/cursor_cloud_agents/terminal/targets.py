"""Agents named by their pull request: every terminal command that takes an agent id also takes its PR.

The parser lets a PR through where an agent id goes (`options.agent`: `https://github.com/o/r/pull/7` or
`o/r#7`); before the command runs, each is resolved by the core (`resolve_agent`: the API's `prUrl` filter; two
agents on one PR is an error listing both) on one session, which the command then reuses (in simulated mode
the session is the world: a second one would be another world).
"""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable
from typing import Any, cast

from cursor_cloud_agents.core import names_a_pr, resolve_agent
from cursor_cloud_agents.terminal.term import Session, Term, fixed_session

Command = Callable[[Term], Awaitable[int]]
AGENT_ARGUMENTS = ("agent", "agents", "targets")
"""The parsed arguments that hold agents: one (`agent`, or `(agent, run)`), or a list of them."""


def _named_prs(args: argparse.Namespace) -> bool:
    for name in AGENT_ARGUMENTS:
        value: object = getattr(args, name, None)
        items = cast(list[Any], value) if isinstance(value, list) else [value]
        for item in items:
            agent = cast(tuple[Any, ...], item)[0] if isinstance(item, tuple) else item
            if isinstance(agent, str) and names_a_pr(agent):
                return True
    return False


async def _resolve(session: Session, value: Any) -> Any:
    if isinstance(value, list):
        return [await _resolve(session, item) for item in cast(list[Any], value)]
    if isinstance(value, tuple):
        pair = cast(tuple[Any, ...], value)
        return (await _resolve(session, pair[0]), *pair[1:])
    if isinstance(value, str) and names_a_pr(value):
        return await resolve_agent(session.api, value)
    return value


def resolving(args: argparse.Namespace, bind: Callable[[argparse.Namespace], Command]) -> Command:
    """The command `bind` makes of `args`, once every PR among its agents is resolved to the agent's id."""

    async def run(term: Term) -> int:
        if not _named_prs(args):
            return await bind(args)(term)
        async with term.open_session() as session:
            for name in AGENT_ARGUMENTS:
                if hasattr(args, name):
                    setattr(args, name, await _resolve(session, getattr(args, name)))
            term.open_session = fixed_session(session)
            return await bind(args)(term)

    return run
