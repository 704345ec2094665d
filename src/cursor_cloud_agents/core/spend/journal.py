"""Never paid twice: the rules that find an earlier identical paid act whose answer never came.

The agent id is minted before the POST and every answer carries it, even `MUTATION_OUTCOME_UNKNOWN`.
But an answer can be lost before it reaches the model at all: the client cancels the call, or the
server process dies, while the POST is on its way. The model then knows no id, and a retry would mint
a new one and pay again. So each creation is written (and flushed) in the store of paid acts before it
is sent, `sent`, and settled `done` or `failed` when the answer comes. An identical creation (same
fingerprint) asked again while an earlier one is still `sent` reuses the earlier agent id (the API's
idempotency key), or, with `env_vars` where the API allows no id, is first resolved by reading.

The store holds no prompt and no secret: a digest of the request (the agent id left out, and `env_vars`
reduced to their names, images to their digests), the minted id, the name, a time and a state.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from cursor_cloud_agents.core.acts import Act, Kind, Reading
from cursor_cloud_agents.core.timing import UNRESOLVED_FOLLOWUP_SECONDS, UNSETTLED_SECONDS

WINDOW_SECONDS = UNSETTLED_SECONDS
REMEMBERED: dict[Kind, float] = {"create": UNSETTLED_SECONDS, "followup": UNRESOLVED_FOLLOWUP_SECONDS}
"""How long an act whose answer never came is looked for: a creation's id may be re-sent any time (the API
refuses it twice) within minutes; a follow-up's run may work for hours before the model asks again."""


def fingerprint(body: dict[str, Any]) -> str:
    """A digest of a paid request: what makes two requests the same act."""
    same = {key: value for key, value in body.items() if key != "agentId"}
    if isinstance(same.get("envVars"), dict):
        same["envVars"] = sorted(same["envVars"])  # names only: values are secrets and never hashed
    prompt: dict[str, Any] = same.get("prompt") or {}
    images: list[Any] = prompt.get("images") or []
    if images:
        same["prompt"] = prompt | {"images": [_image_digest(image) for image in images]}
    return hashlib.sha256(json.dumps(same, sort_keys=True, default=str).encode()).hexdigest()


def _image_digest(image: dict[str, Any]) -> dict[str, Any]:
    # Up to 5 images of 15 MiB each: hashed once each, rather than copied through a JSON dump of them all.
    data = image.get("data")
    return image | {"data": hashlib.sha256(data.encode()).hexdigest()} if isinstance(data, str) else image


def unsettled(reading: Reading, kind: Kind, print_: str, now: float) -> Act | None:
    """The latest recent act of this fingerprint, if its answer never came."""
    window = REMEMBERED.get(kind, WINDOW_SECONDS)
    same = [act for act in reading.of(kind) if act.fingerprint == print_ and now - act.at <= window]
    latest = max(same, key=lambda act: act.at, default=None)
    return latest if latest is not None and latest.state == "sent" else None


def pending(reading: Reading, agent_id: str, now: float) -> Act | None:
    """The recent creation of `agent_id` that was sent and never settled, if there is one."""
    return next(
        (
            act
            for act in reading.of("create")
            if act.agent_id == agent_id and act.state == "sent" and now - act.at <= WINDOW_SECONDS
        ),
        None,
    )
