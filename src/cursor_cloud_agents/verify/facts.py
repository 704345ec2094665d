"""The read-only contract facts, each a small async function returning its report lines.

Facts read through the typed client (so what is checked is what the tools rely on) and look at the
raw exchanges (`Observed`) for what models drop. A fact never spends: `spend.py` holds the paid ones.
Fields and statuses the models do not know come back as `NEW` lines, which is how drift is learnt.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, cast

import anyio
from pydantic import BaseModel

from cursor_cloud_agents.api import (
    AGENT_STATUSES,
    RUN_STATUSES,
    AgentSummary,
    AuthenticationError,
    CursorClient,
    CursorError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    Run,
    StreamExpiredError,
    parse_event_id,
    parse_retry_after,
)
from cursor_cloud_agents.core import REASONING_PARAMS  # the model check's own names, never a copy
from cursor_cloud_agents.core.timing import VERIFY_CLOSE_SECONDS as CLOSE_SECONDS
from cursor_cloud_agents.core.timing import VERIFY_STREAM_SECONDS as STREAM_SECONDS
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.verify.observed import Observed, body_json
from cursor_cloud_agents.verify.report import Line, differs, new, ok, skipped

UNKNOWN_AGENT = "bc-00000000-0000-4000-8000-00000000f404"
SAMPLE_AGENTS = 20


@dataclass
class Context:
    """What every fact may use: the client, what was seen on the wire, and what earlier facts found."""

    api: CursorClient
    observed: Observed
    open_with_wrong_key: Callable[[], AbstractAsyncContextManager[CursorClient]]
    identities: Redactor
    """Identities learnt on the way (e-mail, names, repository URLs): the report masks them. Added as
    non-permanent values, masked whole only: the partial-run rule is for secrets, and would mask any URL
    sharing a `https://github.com/` prefix with one of them."""
    now: Callable[[], float]
    sleep: Callable[[float], Awaitable[None]]
    agents: list[AgentSummary] = field(default_factory=list[AgentSummary])
    runs: list[tuple[str, Run]] = field(default_factory=list[tuple[str, Run]])
    """Latest runs of the sampled agents, as (agent id, run)."""


Fact = Callable[[Context], Awaitable[list[Line]]]


def unknown_fields(model: BaseModel, where: str) -> list[str]:
    """`where.field` for each field of `model` (and of the models inside it) that the model does not declare."""
    found = [f"{where}.{name}" for name in (model.model_extra or {})]
    for name in type(model).model_fields:
        found += _unknown_in(getattr(model, name), f"{where}.{name}")
    return found


def _unknown_in(value: Any, where: str) -> list[str]:
    if isinstance(value, BaseModel):
        return unknown_fields(value, where)
    if isinstance(value, list):
        return [found for item in value[:50] for found in _unknown_in(item, f"{where}[]")]  # pyright: ignore[reportUnknownVariableType] -- a model field list
    return []


def drift(fact: str, models: Sequence[BaseModel], where: str) -> list[Line]:
    """One NEW line naming the unknown fields of `models`, if any."""
    names = sorted({name for model in models for name in unknown_fields(model, where)})
    return [new(fact, "unknown fields " + ", ".join(names[:20]))] if names else []


async def account(ctx: Context) -> list[Line]:
    """`GET /v1/me`: the key's name and creation date; user keys add the owner."""
    me = await ctx.api.me()
    for value in (me.user_email, me.user_first_name, me.user_last_name):
        if value:
            ctx.identities.add(value, permanent=False)
    if not me.api_key_name or not me.created_at:
        return [
            differs(
                "GET /v1/me",
                "apiKeyName and createdAt",
                f"fields {sorted(body_json(ctx.observed.last('/v1/me')) or {})}",
            )
        ]
    kind = "a user key" if me.user_id is not None else "a service-account key (no user fields)"
    return [ok("GET /v1/me", f"{kind}, created {me.created_at}"), *drift("GET /v1/me", [me], "me")]


async def models(ctx: Context) -> list[Line]:
    """`GET /v1/models`: models with string parameter values, variants over declared parameters, a reasoning one."""
    listed = await ctx.api.list_models()
    if not listed:
        return [differs("GET /v1/models", "at least one model", "an empty list")]
    lines: list[Line] = []
    stray = [
        f"{model.id}:{param.id}"
        for model in listed
        for variant in model.variants or []
        for param in variant.params
        if param.id not in {declared.id for declared in model.parameters or []}
    ]
    if stray:
        lines.append(
            differs("GET /v1/models variants", "variant params among the model's parameters", ", ".join(stray[:5]))
        )
    reasoning = [model.id for model in listed for p in model.parameters or [] if p.id in REASONING_PARAMS]
    known = {"fast", *REASONING_PARAMS}
    unknown = sorted({p.id for model in listed for p in model.parameters or [] if p.id not in known})
    if unknown:
        lines.append(
            new("GET /v1/models parameters", "parameter ids not known to the model check: " + ", ".join(unknown))
        )
    if not reasoning:
        lines.append(
            differs("GET /v1/models reasoning", f"a model with a parameter among {', '.join(REASONING_PARAMS)}", "none")
        )
    summary = f"{len(listed)} models, {len(reasoning)} with a reasoning parameter"
    return [ok("GET /v1/models", summary), *lines, *drift("GET /v1/models", listed, "model")]


async def repositories(ctx: Context) -> list[Line]:
    """`GET /v1/repositories`, called once (1 per minute allowed): items with a URL, and its rate-limit headers."""
    try:
        listed = await ctx.api.list_repositories()
    except RateLimitError as exc:
        return [skipped("GET /v1/repositories", f"rate limited (1 per minute): {exc.code}; run verify again later")]
    for repository in listed:
        ctx.identities.add(repository.url, permanent=False)
    answer = ctx.observed.last("/v1/repositories")
    headers: Mapping[str, str] = answer.headers if answer is not None else {}
    limits = {k: v for k, v in headers.items() if k.startswith("x-ratelimit-")}
    said = (
        ", ".join(f"{k}={v}" for k, v in sorted(limits.items()))
        or "no X-RateLimit-* headers on a 200 (documented on 429)"
    )
    return [
        ok("GET /v1/repositories", f"{len(listed)} repositories; {said}"),
        *drift("GET /v1/repositories", listed, "repository"),
    ]


async def agents_paging(ctx: Context) -> list[Line]:
    """`GET /v1/agents`: one-item pages follow `nextCursor`, which is omitted (not null) at the end."""
    first = await ctx.api.list_agents(limit=1)
    raw = body_json(ctx.observed.last("/v1/agents"))
    lines: list[Line] = []
    if isinstance(raw, dict) and "nextCursor" in raw and raw["nextCursor"] is None:
        lines.append(new("GET /v1/agents nextCursor", "null instead of omitted (the client accepts both)"))
    if first.next_cursor is None:
        lines.append(skipped("GET /v1/agents paging", f"{len(first.items)} agent(s): no second page to follow"))
    else:
        second = await ctx.api.list_agents(limit=1, cursor=first.next_cursor)
        repeated = bool(second.items) and second.items[0].id == first.items[0].id
        lines.append(
            differs("GET /v1/agents paging", "the next page to start after the first", "the same agent again")
            if repeated
            else ok("GET /v1/agents paging", "limit=1 pages follow nextCursor")
        )
    page = await ctx.api.list_agents(limit=SAMPLE_AGENTS)
    ctx.agents = page.items
    for agent in page.items:
        if agent.name:
            ctx.identities.add(agent.name, permanent=False)
    statuses = sorted({agent.status for agent in page.items} - set(AGENT_STATUSES))
    if statuses:
        lines.append(new("agent status", "statuses not in the contract: " + ", ".join(statuses)))
    return lines + drift("GET /v1/agents", page.items, "agent")


async def latest_runs(ctx: Context) -> list[Line]:
    """`GET .../runs` and `GET .../runs/{runId}` of the sampled agents: full runs with known statuses."""
    with_runs = [agent for agent in ctx.agents if agent.latest_run_id]
    if not with_runs:
        return [skipped("runs", "no agent with a run on this account")]
    listed = await ctx.api.list_runs(with_runs[0].id, limit=5)
    if not listed.items or listed.items[0].id != with_runs[0].latest_run_id:
        got = listed.items[0].id if listed.items else "no run"
        return [differs("GET .../runs", f"newest first, starting with latestRunId {with_runs[0].latest_run_id}", got)]
    for agent in with_runs:
        assert agent.latest_run_id is not None  # filtered above
        ctx.runs.append((agent.id, await ctx.api.get_run(agent.id, agent.latest_run_id)))
    lines = [ok("GET .../runs and .../runs/{runId}", f"{len(ctx.runs)} latest runs read")]
    statuses = sorted({run.status for _, run in ctx.runs} - set(RUN_STATUSES))
    if statuses:
        lines.append(new("run status", "statuses not in the contract: " + ", ".join(statuses)))
    return lines + drift("GET .../runs/{runId}", [run for _, run in ctx.runs], "run")


async def running_updated_at(ctx: Context) -> list[Line]:
    """Quirk 2: a RUNNING run keeps the `updatedAt` of its creation (liveness comes from event ids)."""
    running = [run for _, run in ctx.runs if run.status == "RUNNING"]
    if not running:
        return [skipped("RUNNING run updatedAt frozen", "no RUNNING run among the latest runs")]
    moved = [run.id for run in running if run.updated_at != run.created_at]
    if moved:
        return [differs("RUNNING run updatedAt frozen", "updatedAt == createdAt while RUNNING", f"moved on {moved[0]}")]
    return [ok("RUNNING run updatedAt frozen", f"{len(running)} RUNNING run(s)")]


async def error_runs(ctx: Context) -> list[Line]:
    """Quirk 3: ERROR runs carry neither `error` nor `result` (the tools add the activity summary)."""
    failed = [run for _, run in ctx.runs if run.status == "ERROR"]
    if not failed:
        return [skipped("ERROR run without cause", "no ERROR run among the latest runs")]
    with_cause = [run.id for run in failed if run.error is not None or run.result is not None]
    if with_cause:
        return [
            differs("ERROR run without cause", "neither error nor result on ERROR runs", f"a cause on {with_cause[0]}")
        ]
    return [ok("ERROR run without cause", f"{len(failed)} ERROR run(s)")]


async def stream_replay(ctx: Context) -> list[Line]:
    """A finished run's replay: a leading id-less `status`, `<ms>-<seq>` ids in order, `result` and `done`
    sharing an id, and the end of the stream after `done`."""
    finished = [(agent, run) for agent, run in ctx.runs if run.status == "FINISHED"]
    if not finished:
        return [skipped("stream replay", "no FINISHED latest run to replay")]
    agent_id, run = finished[0]
    try:
        frames, closed = await _read_replay(ctx, agent_id, run.id)
    except StreamExpiredError:
        return [skipped("stream replay", "the run's stream is past its retention (410 stream_expired)")]
    return _framing_lines(frames, closed)


async def _read_replay(ctx: Context, agent_id: str, run_id: str) -> tuple[list[tuple[str, str | None]], bool]:
    """The replay's frames up to `done` (within STREAM_SECONDS), and whether the same stream then ends by
    itself within CLOSE_SECONDS (nothing follows `done`)."""
    frames: list[tuple[str, str | None]] = []
    with anyio.move_on_after(STREAM_SECONDS + CLOSE_SECONDS):
        async with ctx.api.stream_run(agent_id, run_id) as stream:
            events = aiter(stream.raw_events())
            with anyio.move_on_after(STREAM_SECONDS):
                async for raw in events:
                    frames.append((raw.event, raw.id))
                    if raw.event == "done":
                        break
            if not frames or frames[-1][0] != "done":
                return frames, False
            with anyio.move_on_after(CLOSE_SECONDS):
                return frames, await anext(events, None) is None
    return frames, False


def _ids_problem(fact: str, ids: list[str]) -> Line | None:
    """The DIFFERS line of the first id not shaped `<ms>-<seq>`, or of ids going back; None when all is well."""
    keys: list[tuple[int, int]] = []
    for event_id in ids:
        key = parse_event_id(event_id)
        if key is None:
            return differs(fact, "ids shaped <ms>-<seq>", event_id)
        keys.append(key)
    return None if keys == sorted(keys) else differs(fact, "ids in increasing order", "ids out of order")


def _framing_lines(frames: list[tuple[str, str | None]], closed: bool) -> list[Line]:
    fact = "stream replay framing"
    if not frames or frames[0] != ("status", None):
        return [differs(fact, "a leading status frame without id", repr(frames[:1]))]
    misordered = _ids_problem(fact, [event_id for _, event_id in frames[1:] if event_id is not None])
    if misordered is not None:
        return [misordered]
    by_kind = dict(frames)
    if "result" not in by_kind or "done" not in by_kind:
        return [differs(fact, "result then done at the end of a finished run", f"{[kind for kind, _ in frames[-3:]]}")]
    if by_kind["result"] != by_kind["done"]:
        return [
            differs(
                "stream result/done id", "result and done sharing an id", f"{by_kind['result']} and {by_kind['done']}"
            )
        ]
    end = (
        ok("stream end", "closed after done")
        if closed
        else differs("stream end", "the stream closed after done", "it stayed open")
    )
    return [ok(fact, f"{len(frames)} frames; result and done share id {by_kind['done']}"), end]


async def usage(ctx: Context) -> list[Line]:
    """`GET .../usage`: per-run entries and a total whose `totalTokens` is the sum of the four counts."""
    if not ctx.agents:
        return [skipped("GET .../usage", "no agent on this account")]
    try:
        answer = await ctx.api.get_usage(ctx.agents[0].id)
    except PermissionDeniedError as exc:
        return [differs("GET .../usage", "200 with tokens (and cost)", f"{exc.status_code} {exc.code}")]
    total = answer.total_usage
    if total is None:
        return [differs("GET .../usage", "totalUsage", "no totalUsage")]
    parts = total.input_tokens + total.output_tokens + total.cache_read_tokens + total.cache_write_tokens
    if parts != total.total_tokens:
        return [differs("GET .../usage totalTokens", f"the sum of the four counts ({parts})", str(total.total_tokens))]
    cost = "with cost" if answer.cost is not None else "no cost yet (eventually consistent)"
    return [ok("GET .../usage", f"{len(answer.runs)} run(s), {cost}"), *drift("GET .../usage", [answer], "usage")]


async def artifacts(ctx: Context) -> list[Line]:
    """`GET .../artifacts`: relative paths under `artifacts/` (the list is often empty)."""
    if not ctx.agents:
        return [skipped("GET .../artifacts", "no agent on this account")]
    listed = await ctx.api.list_artifacts(ctx.agents[0].id)
    outside = [item.path for item in listed if not item.path.startswith("artifacts/")]
    if outside:
        return [differs("GET .../artifacts", "paths under artifacts/", outside[0])]
    return [ok("GET .../artifacts", f"{len(listed)} listed"), *drift("GET .../artifacts", listed, "artifact")]


def _envelope_shape(body: Any) -> str:
    if not isinstance(body, dict):
        return "not JSON"
    inner = cast(dict[str, Any], body).get("error")
    if not isinstance(inner, dict):
        return "flat"
    fields = cast(dict[str, Any], inner)
    return "envelope" if isinstance(fields.get("code"), str) and isinstance(fields.get("message"), str) else "partial"


async def not_found_envelope(ctx: Context) -> list[Line]:
    """A 404 answers `{"error": {"code": "agent_not_found", "message"}}`."""
    try:
        await ctx.api.get_agent(UNKNOWN_AGENT)
    except NotFoundError as exc:
        shape = _envelope_shape(body_json(ctx.observed.last(f"/v1/agents/{UNKNOWN_AGENT}")))
        if shape != "envelope" or exc.code != "agent_not_found":
            return [
                differs(
                    "404 error envelope", '{"error":{"code":"agent_not_found","message"}}', f"{shape}, code {exc.code}"
                )
            ]
        return [ok("404 error envelope", "agent_not_found in the documented envelope")]
    return [differs("404 error envelope", "404 agent_not_found for an unknown agent", "an answer")]


WRONG_KEY = "verify-wrong-key-not-a-real-one-000000"


async def bad_key(ctx: Context) -> list[Line]:
    """A wrong key answers 401 (body shape noted: only the text "Invalid User API Key" is known)."""
    async with ctx.open_with_wrong_key() as wrong:
        try:
            await wrong.me()
        except AuthenticationError as exc:
            shape = _envelope_shape(body_json(ctx.observed.last("/v1/me")))
            return [ok("401 with a wrong key", f"body {shape}, code {exc.code}")]
        except CursorError as exc:
            return [differs("401 with a wrong key", "401", exc.message)]
    return [differs("401 with a wrong key", "401", "the wrong key was accepted")]


async def retry_after(ctx: Context) -> list[Line]:
    """A 429 carries `Retry-After` (seconds or an HTTP date), when one was seen during this run."""
    refused = ctx.observed.with_status(429)
    if not refused:
        return [skipped("429 Retry-After", "no 429 was seen during this check")]
    value = refused[-1].headers.get("retry-after")
    # The client's own parser: what it cannot read, it cannot honour (`now` only turns a date into a delay).
    if parse_retry_after(value, now=0.0) is not None:
        return [ok("429 Retry-After", f"{value} on {refused[-1].path}")]
    got = "none" if value is None else repr(value)
    return [differs("429 Retry-After", "Retry-After in seconds or an HTTP date", got)]


READ_ONLY_FACTS: tuple[Fact, ...] = (
    account,
    models,
    repositories,
    agents_paging,
    latest_runs,
    running_updated_at,
    error_runs,
    stream_replay,
    usage,
    artifacts,
    not_found_envelope,
    bad_key,
    retry_after,
)
