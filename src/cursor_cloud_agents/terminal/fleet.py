"""`fleet [--interval S]`: a dashboard of the active agents that refreshes, the rows needing attention first.

The data and its order are `board.py`'s; this module draws them (a rich table under a one-line
header) and runs the loop: on a terminal it redraws in place every interval until `q` or Ctrl-C;
otherwise (a pipe, `--json`) it reads the fleet once and prints it once.
"""

from __future__ import annotations

import time

import anyio
from rich.console import Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from cursor_cloud_agents.terminal import render
from cursor_cloud_agents.terminal.board import Board, BoardRow, attention
from cursor_cloud_agents.terminal.clean import agent_text
from cursor_cloud_agents.terminal.exits import OK
from cursor_cloud_agents.terminal.keys import quit_key
from cursor_cloud_agents.terminal.term import Term

ATTENTION_STYLES = {"error": "bold red", "stuck": "yellow", "finished, unread": "green"}


def _row_cells(row: BoardRow) -> list[Text]:
    rank = attention(row)[1]
    status = render.status(None if row.run is None else row.run.status)
    if row.read_error:
        status = agent_text(f"unreadable ({row.read_error})", "red")
    return [
        Text(rank, style=ATTENTION_STYLES.get(rank, "dim")),
        agent_text(row.agent.name or row.agent.id),
        status,
        Text(render.duration(row.idle_seconds)),
        agent_text(row.last_tool or render.NONE),
        Text(render.cents(row.charged_cents)),
        agent_text(row.agent.url or row.agent.id, "dim"),
    ]


def draw(board: Board, *, took: float | None = None) -> Group:
    """The dashboard: a header line (counts, when read) and the table of shown rows."""
    rows = board.shown()
    active = sum(1 for row in board.rows.values() if row.active)
    header = Text(f"{board.listed} agents · {active} active · {len(rows)} shown", style="bold")
    if took is not None:
        header.append(f" · read in {took:.1f}s · every {board.interval:g}s · q quits", style="dim")
    table = Table(show_edge=False, pad_edge=False, header_style="bold", expand=True)
    for column in ("attention", "agent", "run", "idle", "last tool", "cost", "url"):
        table.add_column(column, overflow="fold", no_wrap=column in ("idle", "cost"))
    for row in rows:
        table.add_row(*_row_cells(row))
    return Group(header, table)


async def _live(term: Term, board: Board) -> None:
    async with quit_key(term.interactive) as quit_:
        with Live(draw(board), console=term.out, auto_refresh=False, transient=False) as live:
            while not quit_.is_set():
                started = time.perf_counter()
                await board.refresh()
                live.update(draw(board, took=time.perf_counter() - started), refresh=True)
                with anyio.move_on_after(board.interval):
                    await quit_.wait()


async def fleet(term: Term, *, interval: float) -> int:
    """Show the fleet: live on a terminal until `q`, else once (a table, or one JSON document)."""
    async with term.open_session() as session:
        board = Board(session, interval)
        if term.out.is_terminal and not term.json:
            await _live(term, board)
            return OK
        await board.refresh(whole=True)
    if term.json:
        term.emit({"listed": board.listed, "agents": [row.document() for row in board.shown()]})
    else:
        term.out.print(draw(board))
    return OK
