"""`fleet [--interval S]`: a dashboard of the active agents that refreshes, the rows needing attention first.

The data and its order are `board.py`'s; this module draws them (a rich table under a one-line
header) and runs the loop: on a terminal it redraws in place every interval until `q` or Ctrl-C;
otherwise (a pipe, `--json`) it reads the fleet once and prints it once.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import anyio
from rich.console import Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from cursor_cloud_agents.core import AttemptPlace, Store, describe_watch, placements, watches_kept
from cursor_cloud_agents.terminal import render
from cursor_cloud_agents.terminal.board import Board, BoardRow, attention
from cursor_cloud_agents.terminal.clean import agent_text
from cursor_cloud_agents.terminal.exits import OK
from cursor_cloud_agents.terminal.keys import quit_key
from cursor_cloud_agents.terminal.paid import command_state
from cursor_cloud_agents.terminal.term import Term

ATTENTION_STYLES = {"error": "bold red", "stuck": "yellow", "finished, unread": "green"}


def _row_cells(row: BoardRow, placed: Mapping[str, AttemptPlace]) -> list[Text]:
    rank = attention(row)[1]
    status = render.status(None if row.run is None else row.run.status)
    if row.read_error:
        status = agent_text(f"unreadable ({row.read_error})", "red")
    place = placed.get(row.agent.id.lower())
    agent = agent_text(row.agent.name or row.agent.id)
    if place is not None:  # an attempt: its group and place, so the attempts of one task read together
        agent.append_text(agent_text(f"  [{place}]", "cyan"))
    return [
        Text(rank, style=ATTENTION_STYLES.get(rank, "dim")),
        agent,
        status,
        Text(render.duration(row.idle_seconds)),
        agent_text(row.last_tool or render.NONE),
        Text(render.cents(row.charged_cents)),
        agent_text(row.agent.url or row.agent.id, "dim"),
    ]


def draw(board: Board, *, took: float | None = None, placed: Mapping[str, AttemptPlace] | None = None) -> Group:
    """The dashboard: a header line (counts, when read) and the table of shown rows (the attempts of a group
    one after the other, where attention ranks them alike)."""
    placed = placed or {}
    rows = by_group(board.shown(), placed)
    active = sum(1 for row in board.rows.values() if row.active)
    header = Text(f"{board.listed} agents · {active} active · {len(rows)} shown", style="bold")
    if took is not None:
        header.append(f" · read in {took:.1f}s · every {board.interval:g}s · q quits", style="dim")
    table = Table(show_edge=False, pad_edge=False, header_style="bold", expand=True)
    for column in ("attention", "agent", "run", "idle", "last tool", "cost", "url"):
        table.add_column(column, overflow="fold", no_wrap=column in ("idle", "cost"))
    for row in rows:
        table.add_row(*_row_cells(row, placed))
    return Group(header, table)


def by_group(rows: list[BoardRow], placed: Mapping[str, AttemptPlace]) -> list[BoardRow]:
    """`rows` in their order, except that the attempts of one group follow the first of them shown, by place."""
    out: list[BoardRow] = []
    taken: set[str] = set()
    for row in rows:
        if row.agent.id in taken:
            continue
        place = placed.get(row.agent.id.lower())
        mates = [row] if place is None else [other for other in rows if _in(other, place.group_id, placed)]
        mates.sort(key=lambda other: 0 if place is None else placed[other.agent.id.lower()].attempt)
        out += mates
        taken |= {mate.agent.id for mate in mates}
    return out


def _in(row: BoardRow, group_id: str, placed: Mapping[str, AttemptPlace]) -> bool:
    place = placed.get(row.agent.id.lower())
    return place is not None and place.group_id == group_id


async def _live(term: Term, board: Board, store: Store) -> None:
    async with quit_key(term.interactive) as quit_:
        with Live(draw(board), console=term.out, auto_refresh=False, transient=False) as live:
            while not quit_.is_set():
                started = time.perf_counter()
                await board.refresh()
                placed = await placements(store, board.clock.now())
                live.update(draw(board, took=time.perf_counter() - started, placed=placed), refresh=True)
                with anyio.move_on_after(board.interval):
                    await quit_.wait()


async def fleet(term: Term, *, interval: float) -> int:
    """Show the fleet: live on a terminal until `q`, else once (a table, or one JSON document)."""
    async with term.open_session() as session:
        board = Board(session, interval)
        store = command_state(term, session).store  # the groups of attempts, as every process of this machine sees
        if term.out.is_terminal and not term.json:
            await _live(term, board, store)
            return OK
        await board.refresh(whole=True)
        placed = await placements(store, board.clock.now())
        watched = [describe_watch(record) for record in await watches_kept(store, board.clock.now())]
    if term.json:
        rows = by_group(board.shown(), placed)
        term.emit({"listed": board.listed, "agents": [_document(row, placed) for row in rows], "watches": watched})
    else:
        term.out.print(draw(board, placed=placed))
        for row in watched:  # the PR watches going (docs/pr-loop.md)
            escalated = " · escalated" if row["escalated"] else ""
            line = f"PR {row['pr']} of {row['agent_id']}: {row['fixes_sent']}/{row['max_fixes']} fixes{escalated}"
            term.out.print(agent_text(line + f" · last: {row['last_event'] or 'watching'}", "dim"))
    return OK


def _document(row: BoardRow, placed: Mapping[str, AttemptPlace]) -> dict[str, Any]:
    place = placed.get(row.agent.id.lower())
    extra = {} if place is None else {"group_id": place.group_id, "attempt": f"{place.attempt}/{place.of}"}
    return row.document() | extra
