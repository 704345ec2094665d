"""Read-side answers of the simulated API: paging, lists, usage, artifacts, conversation, catalogue.

Each function takes the world and already-parsed query values and returns the wire JSON.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from typing import Any, TypeVar

from .catalog import MODELS, REPOSITORIES
from .errors import ApiError, bad_request, not_found
from .records import AgentRecord, ArtifactRecord, RunRecord
from .wire import iso
from .world import TERMINAL, World

T = TypeVar("T")
DOWNLOAD_TTL_SECONDS = 15 * 60


def parse_limit(raw: str | None) -> int:
    """`limit`: integer 1-100, default 20; anything else is a 400 `validation_error`."""
    if raw is None:
        return 20
    # ASCII digits only: `isdigit()` alone takes "²" (which `int()` refuses) and "５".
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 100:
        raise bad_request("limit must be an integer between 1 and 100")
    return int(raw)


def parse_bool(raw: str | None, default: bool, name: str) -> bool:
    """A boolean query flag (`true`/`false`)."""
    if raw is None:
        return default
    if raw.lower() not in ("true", "false"):
        raise bad_request(f"{name} must be true or false")
    return raw.lower() == "true"


def page_by_id(items: Sequence[T], ids: Sequence[str], limit: int, cursor: str | None) -> tuple[list[T], str | None]:
    """A page starting at the item whose id is `cursor`; the next cursor is the next item's id.

    That is the form of the documented example (`nextCursor` looks like the next agent's id).
    """
    start = 0
    if cursor is not None:
        if cursor not in ids:
            raise bad_request("Invalid cursor")
        start = list(ids).index(cursor)
    stop = start + limit
    return list(items[start:stop]), (ids[stop] if stop < len(ids) else None)


def _world_page(
    world: World, items: Sequence[T], ids: Sequence[str], limit: int, cursor: str | None
) -> tuple[list[T], str | None]:
    """`page_by_id` under the world's cursor rules: an expired cursor refused, the next one's issue noted."""
    world.check_cursor(cursor)
    page, nxt = page_by_id(items, ids, limit, cursor)
    world.issue_cursor(nxt)
    return page, nxt


def page_by_offset(items: Sequence[T], limit: int, cursor: str | None) -> tuple[list[T], str | None]:
    """A page whose cursor is base64 of an offset (the documented environments example, `MjA`)."""
    start = 0
    if cursor is not None:
        try:
            start = int(base64.b64decode(cursor + "==", validate=False).decode())
        except (ValueError, binascii.Error, UnicodeDecodeError):
            raise bad_request("Invalid cursor") from None
        if start < 0:  # no page starts before the first item
            raise bad_request("Invalid cursor")
    stop = start + limit
    nxt = base64.b64encode(str(stop).encode()).decode().rstrip("=") if stop < len(items) else None
    return list(items[start:stop]), nxt


def paged(items: list[dict[str, Any]], next_cursor: str | None) -> dict[str, Any]:
    """`{items, nextCursor?}`: the cursor is omitted, never null, on the last page."""
    out: dict[str, Any] = {"items": items}
    if next_cursor is not None:
        out["nextCursor"] = next_cursor
    return out


def list_agents(world: World, limit: int, cursor: str | None, pr_url: str | None, archived: bool) -> dict[str, Any]:
    """`GET /v1/agents`, newest first."""
    now = world.now()
    agents = [a for a in reversed(world.agents.values()) if archived or a.archived_at is None]
    if pr_url is not None:
        agents = [a for a in agents if _has_pr(a, pr_url, now)]
    page, nxt = _world_page(world, agents, [a.id for a in agents], limit, cursor)
    return paged([a.summary(now, world.quirks) for a in page], nxt)


def _has_pr(agent: AgentRecord, pr_url: str, now: float) -> bool:
    git = agent.git(now) or {"branches": []}
    urls = [r.get("prUrl") for r in agent.repos] + [b.get("prUrl") for b in git["branches"]]
    return pr_url in urls


def list_runs(world: World, agent_id: str, limit: int, cursor: str | None) -> dict[str, Any]:
    """`GET /v1/agents/{id}/runs`, newest first, full Run objects."""
    agent = world.agent(agent_id)
    runs = list(reversed(agent.runs))
    page, nxt = _world_page(world, runs, [r.id for r in runs], limit, cursor)
    return paged([run_wire(world, agent, r) for r in page], nxt)


def run_wire(world: World, agent: AgentRecord, run: RunRecord) -> dict[str, Any]:
    """A run at the world's current time."""
    now = world.now()
    return run.wire(now, world.quirks, agent.git(now))


def usage(world: World, agent_id: str, run_id: str | None) -> dict[str, Any]:
    """`GET /v1/agents/{id}/usage`: per-run usage (zeros until recorded), totals, late cost."""
    if not world.quirks.usage_endpoint_available:
        raise ApiError(403, "feature_unavailable", "Usage reporting is not available for this account")
    agent = world.agent(agent_id)
    runs = [world.run(agent.id, run_id)[1]] if run_id is not None else list(reversed(agent.runs))
    entries = [_run_usage(world, r) for r in runs]
    total = {k: sum(e["usage"][k] for e in entries) for k in _ZERO}
    out: dict[str, Any] = {"totalUsage": total}
    costs = [e["cost"] for e in entries if "cost" in e]
    if costs:
        out["cost"] = {k: round(sum(c[k] for c in costs), 4) for k in ("rawCostCents", "chargedCents")}
    return out | {"runs": entries}


_ZERO = {"inputTokens": 0, "outputTokens": 0, "cacheWriteTokens": 0, "cacheReadTokens": 0, "totalTokens": 0}


def _run_usage(world: World, run: RunRecord) -> dict[str, Any]:
    now = world.now()
    if run.status(now) not in TERMINAL:
        return {"id": run.id, "usage": dict(_ZERO)}
    entry: dict[str, Any] = {"id": run.id, "usageUuid": run.usage_uuid, "usage": run.script.usage.wire()}
    cost = run.script.cost_cents
    if cost is not None and now >= run.ended_at + world.quirks.usage_cost_delay_seconds:
        entry["cost"] = {"rawCostCents": float(cost[0]), "chargedCents": float(cost[1])}
    return entry


def artifacts_of(world: World, agent: AgentRecord, *, include_unlisted: bool) -> list[ArtifactRecord]:
    """Files in the workspace at now: written by FINISHED runs, plus any seeded directly."""
    now = world.now()
    found = {a.path: a for a in agent.artifacts.values() if a.written_at <= now}
    for run in agent.runs:
        if run.outcome == "FINISHED" and run.ended_at <= now:
            for spec in run.script.artifacts:
                found[spec.path] = ArtifactRecord(spec.path, spec.size_bytes, run.ended_at, spec.listed, spec.content)
    hide = world.quirks.unlisted_artifacts and not include_unlisted
    return [a for a in found.values() if not (hide and not a.listed)]


def list_artifacts(world: World, agent_id: str) -> dict[str, Any]:
    """`GET /v1/agents/{id}/artifacts` (at most 100)."""
    agent = world.agent(agent_id)
    return {"items": [a.wire() for a in artifacts_of(world, agent, include_unlisted=False)[:100]]}


def find_artifact(world: World, agent_id: str, path: str | None) -> ArtifactRecord:
    """The artifact a download asks for; 400 outside `artifacts/`, 404 when absent or unlisted."""
    agent = world.agent(agent_id)
    if path is None or not path.startswith("artifacts/") or ".." in path.split("/"):
        raise bad_request("path must be a relative path under artifacts/")
    for artifact in artifacts_of(world, agent, include_unlisted=False):
        if artifact.path == path:
            return artifact
    raise not_found("artifact_not_found", f"Artifact {path} not found")


def repositories() -> dict[str, Any]:
    """`GET /v1/repositories` (no paging)."""
    return {"items": [{"url": url} for url in REPOSITORIES]}


def models() -> dict[str, Any]:
    """`GET /v1/models`."""
    return {"items": MODELS}


def conversation(world: World, agent_id: str) -> dict[str, Any]:
    """Legacy `GET /v0/agents/{id}/conversation`: user prompts and final replies so far."""
    agent = world.agent(agent_id)
    now = world.now()
    messages: list[dict[str, Any]] = []
    for index, run in enumerate(agent.runs):
        messages.append({"id": f"msg-{index * 2 + 1}", "type": "user_message", "text": run.prompt})
        text = run.result_text()
        if text is not None and run.ended_at <= now:
            messages.append({"id": f"msg-{index * 2 + 2}", "type": "assistant_message", "text": text})
    return {"id": agent.id, "messages": messages}


def expires_at(world: World) -> str:
    """Presigned-URL expiry: 15 minutes from now."""
    return iso(world.now() + DOWNLOAD_TTL_SECONDS)
