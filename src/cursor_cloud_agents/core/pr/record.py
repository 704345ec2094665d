"""What a PR watch remembers, kept in the store of paid acts so that a restart never sends a fix twice.

One act of kind `watch` per agent (its id `watch-<agent id>`), rewritten as the watch moves (the last line is
its state; `queued` while it watches, `done` once the PR merged or closed, `failed` once stopped). Its detail
is a `WatchRecord`: the comments seen, the triggers answered, the fixes counted, the runs it started, and the
fix it is about to send (`pending`, written before the send: after a crash, the same prompt goes through the
one door again, which reads the agent before paying twice).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Literal, cast

from cursor_cloud_agents.core.acts import Act, Reading
from cursor_cloud_agents.core.spend.paid import store_failures
from cursor_cloud_agents.core.store import Store

Via = Literal["send", "queue"]
LOG_KEPT = 20
"""Events kept in a watch's record for other processes to tell."""


@dataclass(frozen=True)
class Pending:
    """A fix decided and counted, not yet known to be sent: its trigger, its prompt, and how it goes."""

    key: str
    prompt: str
    via: Via
    commit: str


@dataclass(frozen=True)
class WatchRecord:
    agent_id: str
    pr: str
    """`owner/repo#N`."""
    pr_url: str
    max_fixes: int = 3
    resolve_conflicts: bool = False
    started: bool = False
    """Whether the first look was made (what existed then is seen, not acted on)."""
    seen: frozenset[str] = frozenset()
    """Comment keys seen."""
    asks: tuple[str, ...] = ()
    """Trusted comments seen and not answered yet (a run was going)."""
    handled: frozenset[str] = frozenset()
    """Triggers answered: `checks:<sha>`, `comments:<keys>`, `conflict:<sha>` (sent, or skipped at the cap)."""
    told: frozenset[str] = frozenset()
    """Events told once: `waiting:<sha>`, `conflict:<sha>`, `busy:<run>`."""
    fixes: int = 0
    runs: tuple[str, ...] = ()
    """Runs the watch started (a run the watch did not start is waited for)."""
    queued: tuple[str, ...] = ()
    """Queue ids of fixes the watch queued behind its own running run."""
    escalated: bool = False
    pending: Pending | None = None
    ended: str | None = None
    """`merged`, `closed` or `stopped`."""
    interval: float = 60.0
    """Seconds between looks (a process keeping the store's watches looks this often)."""
    log: tuple[dict[str, Any], ...] = ()
    """The last LOG_KEPT events told, each with its `seq`: another process (`events`) tells them too."""
    told_count: int = 0
    """Events told so far: the next one's `seq`."""
    looked_at: float = 0.0
    """When the watch last looked at the PR."""
    holder: str | None = None
    """The process looking at this watch now (`keep_watches`), until `held_until`."""
    held_until: float = 0.0

    def to_detail(self) -> dict[str, Any]:
        data = asdict(self)
        for name in ("seen", "handled", "told"):
            data[name] = sorted(data[name])
        return data

    @staticmethod
    def of_detail(data: dict[str, Any]) -> WatchRecord:
        values = dict(data)
        for name in ("seen", "handled", "told"):
            values[name] = frozenset(cast(list[str], values.get(name, [])))
        for name in ("asks", "runs", "queued", "log"):
            values[name] = tuple(cast(list[Any], values.get(name, [])))
        pending = values.get("pending")
        values["pending"] = Pending(**cast(dict[str, Any], pending)) if isinstance(pending, dict) else None
        return WatchRecord(**values)


def with_told(record: WatchRecord, events: list[dict[str, Any]]) -> WatchRecord:
    """`record` with `events` added to its log (numbered), the oldest dropped past LOG_KEPT."""
    numbered = [event | {"seq": record.told_count + index + 1} for index, event in enumerate(events)]
    log = (*record.log, *numbered)[-LOG_KEPT:]
    return replace(record, log=log, told_count=record.told_count + len(events))


def act_id(agent_id: str) -> str:
    return f"watch-{agent_id}"


def of_act(act: Act) -> WatchRecord | None:
    try:
        return WatchRecord.of_detail(act.detail or {})
    except (TypeError, ValueError):
        return None  # written by another version: the watch starts afresh


def watches(reading: Reading) -> list[WatchRecord]:
    """Every watch of the store still going."""
    found = (of_act(act) for act in reading.of("watch") if act.state == "queued")
    return [record for record in found if record is not None]


def describe_watch(record: WatchRecord) -> dict[str, Any]:
    """A watch as `cursor_supervise` and `fleet` list it: its PR, fixes sent of the cap, the last event."""
    last = record.log[-1] if record.log else {}
    return {
        "agent_id": record.agent_id,
        "pr": record.pr,
        "fixes_sent": record.fixes,
        "max_fixes": record.max_fixes,
        "escalated": record.escalated,
        "last_event": last.get("event"),
        "commit": (str(last.get("commit") or "")[:12]) or None,
    }


async def watches_kept(store: Store, now: float) -> list[WatchRecord]:
    """Every watch of the store still going."""
    with store_failures():
        return watches(await store.read(now))


async def load_watch(store: Store, agent_id: str, now: float) -> WatchRecord | None:
    """The watch of `agent_id` kept in the store, if one is going."""
    with store_failures():
        act = (await store.read(now)).acts.get(act_id(agent_id))
    if act is None or act.kind != "watch" or act.state != "queued":
        return None
    return of_act(act)


async def save_watch(store: Store, record: WatchRecord, now: float, started_at: float | None = None) -> None:
    """Write `record` as the watch's state (`done` once ended)."""
    state = "queued" if record.ended is None else "done" if record.ended in ("merged", "closed") else "failed"

    def write(reading: Reading) -> list[Act]:
        earlier = reading.acts.get(act_id(record.agent_id))
        at = started_at if started_at is not None else earlier.at if earlier is not None else now
        return [Act(act_id(record.agent_id), "watch", at, state, agent_id=record.agent_id, detail=record.to_detail())]

    with store_failures():
        await store.change(write, now)


def fresh_watch(agent_id: str, pr: str, pr_url: str, *, max_fixes: int, resolve_conflicts: bool) -> WatchRecord:
    return WatchRecord(agent_id, pr, pr_url, max_fixes=max_fixes, resolve_conflicts=resolve_conflicts)
