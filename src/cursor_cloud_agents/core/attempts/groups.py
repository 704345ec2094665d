"""A group of attempts: one task given to several agents at once, remembered so that any process finds it again.

The group is not a record of its own: it is the creations of its attempts in the store of paid acts, each
carrying the group's facts in its `detail` (the group id, its name, the digest of the prompt, the attempt's
place and model). So the group is written in the same line, under the same lock, as the places its
attempts take, and an older version of this program reading the store sees ordinary creations. Its
creations are kept a week (`timing.GROUP_KEPT_SECONDS`) rather than the day the creation count reads.

An attempt Cursor refused (its creation `failed`) and made again on a later ask appears twice at one
place; the group shows the latest creation of each place.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from dataclasses import dataclass
from typing import Any

from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.acts import Act, Reading, State
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.store import Store, StoreUnusable

GROUP_PATTERN = re.compile(r"grp-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def mint_group_id() -> str:
    """A new group id (`grp-<uuid4>`)."""
    return f"grp-{uuid.uuid4()}"


def checked_group_id(value: str) -> str:
    """A group id as given, lowercased; VALIDATION when it is not `grp-<uuid>`."""
    lowered = value.strip().lower()
    if not GROUP_PATTERN.fullmatch(lowered):
        raise ToolFailure(failures.VALIDATION, "A group id is grp-<uuid>, as the creation of the attempts answered.")
    return lowered


def prompt_digest(prompt: str) -> str:
    """What the store keeps of the prompt: a digest that tells two tasks apart, never its text."""
    return hashlib.sha256(prompt.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class GroupFacts:
    """What every attempt's creation carries about its group."""

    group_id: str
    name: str | None
    prompt_digest: str
    size: int
    set_print: str
    """The fingerprint of the whole set: an identical set asked again finds this group and completes it."""

    def detail(self, index: int, model: str | None) -> dict[str, Any]:
        facts: dict[str, Any] = {
            "group": self.group_id,
            "attempt": index,
            "of": self.size,
            "prompt": self.prompt_digest,
            "set": self.set_print,
            "model": model,
            "group_name": self.name,
        }
        return {key: value for key, value in facts.items() if value is not None}


@dataclass(frozen=True)
class Attempt:
    """One attempt of a group, as its latest creation says."""

    index: int
    agent_id: str | None
    model: str | None
    state: State
    run_id: str | None
    at: float


@dataclass(frozen=True)
class Group:
    """A group of attempts as the store remembers it."""

    id: str
    name: str | None
    prompt_digest: str
    at: float
    size: int
    attempts: list[Attempt]

    @property
    def agent_ids(self) -> list[str]:
        """The agents of the attempts Cursor made (or may have made: an answer lost keeps its id)."""
        return [attempt.agent_id for attempt in self.attempts if attempt.agent_id and attempt.state != "failed"]


def is_attempt(act: Act) -> bool:
    return act.kind == "create" and act.detail is not None and isinstance(act.detail.get("group"), str)


def _group_of(acts: list[Act]) -> Group:
    latest: dict[int, Act] = {}
    for act in sorted(acts, key=lambda act: act.at):
        index = _index(act)
        earlier = latest.get(index)
        if earlier is None or earlier.state == "failed" or act.state != "failed":
            latest[index] = act
    first = min(acts, key=lambda act: act.at)
    detail = first.detail or {}
    attempts = [
        Attempt(index, act.agent_id, _text(act, "model"), act.state, act.run_id, act.at)
        for index, act in sorted(latest.items())
    ]
    size = detail.get("of")
    return Group(
        id=str(detail["group"]),
        name=_text(first, "group_name"),
        prompt_digest=str(detail.get("prompt", "")),
        at=first.at,
        size=size if isinstance(size, int) else len(attempts),
        attempts=attempts,
    )


def _index(act: Act) -> int:
    index = (act.detail or {}).get("attempt")
    return index if isinstance(index, int) else 0


def _text(act: Act, key: str) -> str | None:
    value = (act.detail or {}).get(key)
    return value if isinstance(value, str) else None


def groups_in(reading: Reading) -> dict[str, Group]:
    """Every group the store remembers, by id."""
    by_group: dict[str, list[Act]] = {}
    for act in reading.of("create"):
        if is_attempt(act):
            by_group.setdefault(str((act.detail or {})["group"]), []).append(act)
    return {group_id: _group_of(acts) for group_id, acts in by_group.items()}


@dataclass(frozen=True)
class AttemptPlace:
    """Where an agent stands in a group: attempt `attempt` of `of`."""

    group_id: str
    attempt: int
    of: int

    def __str__(self) -> str:
        return f"{self.group_id[:12]} {self.attempt}/{self.of}"


def attempts_by_agent(reading: Reading) -> dict[str, AttemptPlace]:
    """For each agent made as an attempt (by lowercase id): its group and place (the fleet and supervise rows)."""
    placed: dict[str, AttemptPlace] = {}
    for group in groups_in(reading).values():
        for attempt in group.attempts:
            if attempt.agent_id is not None:
                placed[attempt.agent_id.lower()] = AttemptPlace(group.id, attempt.index, group.size)
    return placed


async def placements(store: Store, now: float) -> dict[str, AttemptPlace]:
    """`attempts_by_agent` of the store now; empty when the store cannot be read (a view of agents goes on)."""
    try:
        return attempts_by_agent(await store.read(now))
    except StoreUnusable:
        return {}


def acts_of_set(reading: Reading, set_print: str) -> list[Act]:
    """The creations of the latest group with this set fingerprint (an identical set asked before)."""
    same = [act for act in reading.of("create") if is_attempt(act) and (act.detail or {}).get("set") == set_print]
    if not same:
        return []
    latest = max(same, key=lambda act: act.at)
    group = (latest.detail or {})["group"]
    return [act for act in same if (act.detail or {})["group"] == group]


async def find_group(store: Store, wanted: str, now: float) -> Group:
    """The group `wanted`, read from the store; NOT_FOUND when this machine does not remember it.

    Raises:
        StoreUnusable: the store cannot be read.
    """
    group = groups_in(await store.read(now)).get(wanted)
    if group is None:
        raise ToolFailure(
            failures.Code.NOT_FOUND,
            f"No group {wanted} is remembered on this machine (a group is kept a week after its attempts were "
            "created, in the store under CURSOR_MCP_STATE_DIR; simulated mode keeps it in the process only).",
            group_id=wanted,
        )
    return group
