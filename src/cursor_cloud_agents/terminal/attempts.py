"""`run --models A,B,C`, `compare GROUP` and `keep GROUP AGENT`: one task on several models, side by side.

The set goes through the core's one paid act for attempts (core/attempts/attempts.py): the same model check, limits
for the whole set, store and never-twice rules as the server's. Here the person confirms (or `--yes`), after
seeing how many paid agents it starts, on which models, and what the machine's recent agents cost each.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text

from cursor_cloud_agents.core import (
    MAX_ATTEMPTS,
    MIN_ATTEMPTS,
    AttemptModel,
    Comparison,
    check_before_opening,
    checked_group_id,
    compare_attempts,
    create_attempts,
    find_group,
    keep,
    new_agent_request,
    plan_set,
    price_hint,
    store_failures,
)
from cursor_cloud_agents.terminal import render
from cursor_cloud_agents.terminal.asking import Person, shown
from cursor_cloud_agents.terminal.changes import places_for
from cursor_cloud_agents.terminal.clean import agent_text
from cursor_cloud_agents.terminal.exits import OK, REFUSED, UsageError
from cursor_cloud_agents.terminal.ownrepo import no_repository_note, prepare_simulated
from cursor_cloud_agents.terminal.paid import Order, command_state, new_agent
from cursor_cloud_agents.terminal.picking import attempt_agent
from cursor_cloud_agents.terminal.term import Term


def models_of(value: str) -> tuple[str, ...]:
    """`--models A,B,C` as a tuple of model ids (2 to 8, each named).

    Raises:
        ValueError: the list is not 2 to 8 names (argparse says it as a usage error).
    """
    models = tuple(part.strip() for part in value.split(","))
    if not MIN_ATTEMPTS <= len(models) <= MAX_ATTEMPTS or not all(models):
        raise ValueError(f"--models takes {MIN_ATTEMPTS} to {MAX_ATTEMPTS} model ids separated by commas")
    return models


async def run_attempts(term: Term, *, order: Order, models: tuple[str, ...], waits: bool = False) -> int:
    """Start one paid agent per model on the same task, after showing what that costs; all or none."""
    if waits:
        raise UsageError(
            "--models starts several agents: follow them with `compare GROUP` or `wait`, not --wait or --watch"
        )
    if not order.prompt.strip():
        raise UsageError("the prompt is empty: say what the agents should do")
    person = Person(term, order.confirmed)
    person.cannot_ask_now("create", "no agent was created")
    check_before_opening(new_agent(order))  # refused before any world starts or connection opens
    note = no_repository_note(order.here, order.repo)
    if note is not None:
        term.notice(note)
    async with term.open_session() as session:
        state = command_state(term, session)
        shared = await new_agent_request(state, new_agent(order), for_set=True)
        await prepare_simulated(term.settings.simulated, order.here, shared.repos)
        plan = await plan_set(state, shared, [AttemptModel(model) for model in models], None)
        price = await price_hint(state)
        each = (
            f"recent agents of this machine cost {render.cents(price.cents_each)} each ({price.known} known): "
            f"about {render.cents(price.cents_each * len(models))} for {len(models)}"
            if price.cents_each is not None
            else "not known before the runs end (no recent agent's cost on this machine)"
        )
        shown(term, [("price", Text(f"{len(models)} paid runs; {each}"))])  # a fact, before the door asks
        result = await create_attempts(state, plan, call=person, asks=person.asks)
    rows = [asdict(outcome) | {"failure": None} for outcome in result.outcomes]
    if term.json:
        term.emit({"group_id": result.group.group_id, "attempts": rows})
        return OK
    term.out.print(Text("started group ", style="green").append_text(agent_text(result.group.group_id)))
    for outcome in result.outcomes:
        term.out.print(agent_text(f"  {outcome.index}. {outcome.model}  {outcome.agent_id}  {outcome.run_id or ''}"))
    term.out.print(Text(f"compare them: cursor-cloud-agents compare {result.group.group_id}", style="dim"))
    return OK


def _group(value: str) -> str:
    try:
        return checked_group_id(value)
    except Exception as refused:  # a ToolFailure: said as a usage error
        raise UsageError(str(refused)) from None


async def compare_group(term: Term, *, group: str, cwd: Path, env: Mapping[str, str]) -> int:
    """The attempts of a group side by side, as a table (or one JSON document); each change's size is read
    where git is (this clone, else the cache), as `diff` reads it."""
    wanted = _group(group)
    async with term.open_session() as session:
        state = command_state(term, session)
        with store_failures():
            found = await find_group(state.store, wanted, state.clock.now())
        places = places_for(term, session, env, cwd)
        comparison = await compare_attempts(session.api, found, state.clock.now(), places)
    if term.json:
        term.emit(_document(comparison))
    else:
        term.out.print(compare_table(comparison))
        if comparison.running:
            term.out.print(Text(f"{len(comparison.running)} still running", style="cyan"))
    return OK


def _document(comparison: Comparison) -> dict[str, Any]:
    group = comparison.group
    rows = [asdict(row) for row in comparison.rows]
    return {"group_id": group.id, "name": group.name, "attempts": rows, "running": comparison.running}


def compare_table(comparison: Comparison) -> Table:
    """One row per attempt: model, agent, status, time, cost, change, the result's first line."""
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    for column in ("#", "model", "agent", "status", "time", "cost", "change", "result"):
        whole = column == "agent"  # `keep` takes it: never cut nor folded, even at 80 columns
        table.add_column(
            column,
            justify="right" if column in ("#", "time", "cost") else "left",
            no_wrap=whole,
            min_width=render.ID_WIDTH if whole else None,
            overflow="fold",  # a model's id folds onto the next line, never cut to an ellipsis: `--models` takes it
        )
    for row in comparison.rows:
        change = (
            f"{row.change.files} files +{row.change.additions} -{row.change.deletions}"
            if row.change is not None
            else (row.change_note or "unknown").split(":")[0]
        )
        result = (row.result_head or "").splitlines()[0] if row.result_head else render.NONE
        table.add_row(
            str(row.attempt),
            agent_text(row.model or render.NONE),
            agent_text(row.agent_id or render.NONE),
            render.status(row.status),
            render.duration(row.duration_seconds),
            render.cents(row.cost_cents),
            agent_text(change),
            agent_text(result),
        )
    return table


async def keep_attempt(term: Term, *, group: str, agent_id: str) -> int:
    """Keep one attempt (its number, id or id prefix: `picking.py`), archive the others (reversible), and say what
    was archived."""
    wanted = _group(group)
    async with term.open_session() as session:
        state = command_state(term, session)
        with store_failures():
            found = await find_group(state.store, wanted, state.clock.now())
        agent_id = attempt_agent(agent_id, [(attempt.index, attempt.agent_id) for attempt in found.attempts])
        kept = await keep(session.api, found, agent_id)
    if term.json:
        term.emit({"group_id": found.id} | asdict(kept))
    else:
        term.out.print(Text("kept ", style="green").append_text(agent_text(kept.kept)))
        for archived in kept.archived:
            term.out.print(agent_text(f"archived {archived}"))
        for archived in kept.already_archived:
            term.out.print(agent_text(f"already archived {archived}", "dim"))
        for agent, why in kept.failed:
            term.out.print(agent_text(f"not archived {agent}: {why}", "yellow"))
    return REFUSED if kept.failed else OK
